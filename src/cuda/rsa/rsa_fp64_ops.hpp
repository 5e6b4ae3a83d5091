// The per-thread body of the `fp64` RSA kernel variant (rsa_kernel_variant.hpp; kernels in rsa_kernels_fp64.cu, host
// emulation in rsa_fp64_emulate.cpp), CA_HD so that the CPU tests run exactly the kernel's code: one modular
// exponentiation per thread, as rsa_modexp_thread of rsa_ops.hpp (same launch layout and contract), but with
// Montgomery products built from FP64 fused multiply-adds in limbs of about 50 bits (src/algo/montgomery_fp64.hpp:
// the radix, the exactness argument, the accumulation). The exponentiations are montgomery.hpp's own (mont_exp_ct:
// fixed 5-bit windows, full-table masked scans; mont_exp_public: binary), run on those limbs through their Ops.
//
// Per job: load n, R^2 mod n (R = 2^(32N)) and x from the interleaved layout; R'^2 mod n for this radix's
// R' = 2^(B M) = R 2^slack by 2 slack modular doublings of R^2 (32-bit words, montgomery.hpp's masked
// final_subtract); convert to B-bit limbs; n0 = -n^-1 mod 2^B from the low limb (the launch's n0 has only 32 bits);
// R' mod n = REDC(R'^2); x into Montgomery form, exponentiate, out of it; convert back and store; overwrite the
// thread's copies of x and the exponent (volatile stores). The window table inside mont_exp_ct is not wiped, as for
// the thread variant (docs/cuda.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "algo/montgomery.hpp"
#include "algo/montgomery_fp64.hpp"
#include "cuda/rsa/rsa_ops.hpp"

namespace cryptaccel::cuda {

/// The product and square of the N-word fp64 kernel by default (the kernels pass non-inlined wrappers).
template <std::size_t N>
using RsaFp64Mont = algo::bn::fp64::Mont<algo::bn::fp64::Shape<N>::bits>;

/// Job j of `a`: x = x^e mod n, as rsa_modexp_thread, in the fp64 radix (file comment).
template <std::size_t N, RsaExpKind Kind, class Ops = RsaFp64Mont<N>>
CA_HD void rsa_fp64_modexp_thread(const RsaModexpArgs& a, std::uint64_t j) {
  namespace bn = algo::bn;
  namespace fp = algo::bn::fp64;
  using S = fp::Shape<N>;
  constexpr std::size_t M = S::limbs;
  constexpr unsigned B = S::bits;
  constexpr std::size_t E = (N + 1) / 2;  // the exponent in 64-bit words
  const std::uint64_t c = a.count;
  rsa_word n32[N], w[N];
  for (std::size_t k = 0; k < N; ++k) {
    n32[k] = a.n[k * c + j];
    w[k] = a.rr[k * c + j];
  }
  for (std::size_t s = 0; s < 2 * S::slack; ++s) {  // w = 2w mod n (w < n, so 2w < 2n)
    rsa_word t[N];
    rsa_word top = 0;
    for (std::size_t k = 0; k < N; ++k) {
      t[k] = static_cast<rsa_word>(w[k] << 1) | top;
      top = w[k] >> 31;
    }
    bn::final_subtract<N>(w, t, top, n32);
  }
  std::uint64_t n_int[M], n[M], rr[M], one[M], unit[M], x[M], e[E];
  fp::words_to_limbs<N, M, B>(n_int, n32);
  fp::words_to_limbs<N, M, B>(rr, w);
  for (std::size_t k = 0; k < N; ++k) w[k] = a.x[k * c + j];
  fp::words_to_limbs<N, M, B>(x, w);
  fp::limbs_as_doubles<M>(n, n_int);
  const std::uint64_t n0 = bn::mont_n0(n_int[0]) & fp::Radix<B>::mask;
  for (std::size_t k = 0; k < M; ++k) unit[k] = k == 0;
  const std::uint32_t ew = a.e_words < N ? a.e_words : static_cast<std::uint32_t>(N);
  for (std::size_t k = 0; k < E; ++k) {
    const std::uint64_t lo = 2 * k < ew ? a.e[2 * k * c + j] : 0;
    const std::uint64_t hi = 2 * k + 1 < ew ? a.e[(2 * k + 1) * c + j] : 0;
    e[k] = lo | hi << 32;
  }
  const std::size_t el = (ew + 1) / 2;
  Ops::template mul<M>(one, rr, unit, n, n0);  // R' mod n = REDC(R'^2)
  Ops::template mul<M>(x, x, rr, n, n0);       // x R' mod n
  const bn::MontViewT<std::uint64_t> m{n, rr, one, n0};
  if constexpr (Kind == RsaExpKind::secret)
    bn::mont_exp_ct<M, Ops>(x, x, e, el, a.e_bits, m);
  else
    bn::mont_exp_public<M, Ops>(x, x, e, el, m);
  Ops::template mul<M>(x, x, unit, n, n0);  // out of Montgomery form
  fp::limbs_to_words<N, M, B>(w, x);
  for (std::size_t k = 0; k < N; ++k) a.x[k * c + j] = w[k];
  volatile rsa_word* vw = w;
  volatile std::uint64_t* vx = x;
  volatile std::uint64_t* ve = e;
  for (std::size_t k = 0; k < N; ++k) vw[k] = 0;
  for (std::size_t k = 0; k < M; ++k) vx[k] = 0;
  for (std::size_t k = 0; k < E; ++k) ve[k] = 0;
}

}  // namespace cryptaccel::cuda

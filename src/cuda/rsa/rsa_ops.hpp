// The per-thread body of the cuda engine's RSA kernels (src/cuda/rsa/rsa_kernels.cu), CA_HD so that the host emulation
// (src/cuda/rsa/rsa_plan.cpp, rsa_emulate) runs exactly this code in the CPU tests: one modular exponentiation per
// thread, in 32-bit limbs, through the shared Montgomery arithmetic of src/algo/montgomery.hpp (the same CIOS
// product, square + REDC, fixed 5-bit windows with full-table masked scans and masked final subtraction as the host
// engines; 32-bit limbs because a 32x32->64 multiply-add is one IMAD.WIDE on the GPU).
//
// Device layout of one launch (RsaModexpArgs), limb-interleaved so that the threads of a warp, which handle
// consecutive jobs, read and write consecutive words (coalesced):
//
//   word k of job j of an array of `w` words per job is at  array[k * count + j],  0 <= k < w, 0 <= j < count
//
//   x   N words per job   in: the base (< n); out: the result base^e mod n
//   n   N words per job   the odd modulus
//   rr  N words per job   R^2 mod n (R = 2^(32N)), precomputed on the host once per distinct key
//   e   E words per job   the exponent (E = N for secret exponents; the longest significant length for public ones)
//   n0  1 word per job    -n^-1 mod 2^32 (the low word of the host's 64-bit constant), precomputed per key
//
// Every job of a launch has its own modulus (mixed keys in one batch); the host copies each distinct key's
// precomputed constants into its jobs' slots. All five arrays are laid out back to back in one buffer (one copy in);
// only x comes back.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "algo/montgomery.hpp"

namespace cryptaccel::cuda {

/// The device limb.
using rsa_word = std::uint32_t;

/// Exponentiation kinds: secret exponents (CRT halves, d, raw modexp) take the constant-time fixed-window path; public
/// ones (e of verify/encrypt) take left-to-right binary, whose time depends on e only.
enum class RsaExpKind : std::uint8_t { secret = 0, public_e = 1 };

/// One launch: `count` exponentiations with N-word moduli (N is the kernel's template parameter). Pointers are
/// device memory on the GPU, host memory in the emulation.
struct RsaModexpArgs {
  std::uint64_t count = 0;
  rsa_word* x = nullptr;
  const rsa_word* n = nullptr;
  const rsa_word* rr = nullptr;
  const rsa_word* e = nullptr;
  const rsa_word* n0 = nullptr;
  std::uint32_t e_words = 0;  ///< E: exponent words per job
  std::uint32_t e_bits = 0;   ///< secret kind: the public bound on exponent bits (sets the number of windows)
};

/// Word offsets of the five arrays in a launch's buffer of `count` jobs with N-word moduli and E-word exponents.
struct RsaLayout {
  std::uint64_t x, n, rr, e, n0, words;
  static constexpr RsaLayout of(std::uint64_t count, std::uint64_t N, std::uint64_t E) {
    return {0, N * count, 2 * N * count, 3 * N * count, (3 * N + E) * count, (3 * N + E + 1) * count};
  }
};

/// Args pointing into `buffer`, laid out by RsaLayout::of(count, N, e_words).
inline RsaModexpArgs rsa_args(rsa_word* buffer, std::uint64_t count, std::uint64_t N, std::uint32_t e_words,
                              std::uint32_t e_bits) {
  const RsaLayout l = RsaLayout::of(count, N, e_words);
  RsaModexpArgs a;
  a.count = count;
  a.x = buffer + l.x;
  a.n = buffer + l.n;
  a.rr = buffer + l.rr;
  a.e = buffer + l.e;
  a.n0 = buffer + l.n0;
  a.e_words = e_words;
  a.e_bits = e_bits;
  return a;
}

/// Calls f(std::integral_constant<size_t, N>) for the N of Sizes equal to `words` and returns true; false when none is.
template <std::size_t... Sizes, class F>
bool rsa_dispatch_among(std::size_t words, F&& f) {
  return ((words == Sizes ? (f(std::integral_constant<std::size_t, Sizes>{}), true) : false) || ...);
}

/// rsa_dispatch_among the word counts the thread kernels are built for (16, 32, 48, 64, 96, 128, 256: the CRT halves
/// and full moduli of 1024..8192 bits).
template <class F>
bool rsa_dispatch_words(std::size_t words, F&& f) {
  return rsa_dispatch_among<16, 32, 48, 64, 96, 128, 256>(words, std::forward<F>(f));
}

/// rsa_dispatch_among the word counts the fp64 and group variants are built for (16, 32, 48, 64: moduli of
/// 512..2048 bits, i.e. RSA-1024/2048 and the CRT halves of RSA-2048/3072/4096).
template <class F>
bool rsa_dispatch_variant_words(std::size_t words, F&& f) {
  return rsa_dispatch_among<16, 32, 48, 64>(words, std::forward<F>(f));
}

/// The host emulation of one launch: body(kind as std::integral_constant<RsaExpKind, ...>, j) for every job j, in
/// reverse order (as no GPU runs them: no job may read another's).
template <class Body>
void rsa_emulate_jobs(const RsaModexpArgs& a, RsaExpKind kind, Body&& body) {
  for (std::uint64_t j = a.count; j-- > 0;) {
    if (kind == RsaExpKind::secret)
      body(std::integral_constant<RsaExpKind, RsaExpKind::secret>{}, j);
    else
      body(std::integral_constant<RsaExpKind, RsaExpKind::public_e>{}, j);
  }
}

/// Job j of `a`: x = x^e mod n. Ops are the Montgomery product and square (bn::PortableMont in the emulation; the
/// kernels wrap the same functions as non-inlined calls to keep code size down). The exponent's bits beyond
/// a.e_bits (secret kind) are zero. The result and exponent copies in this thread's local memory are overwritten at
/// the end (volatile stores, which the compiler keeps); the window table inside mont_exp_ct is not (docs/cuda.md).
template <std::size_t N, RsaExpKind Kind, class Ops = algo::bn::PortableMont>
CA_HD void rsa_modexp_thread(const RsaModexpArgs& a, std::uint64_t j) {
  namespace bn = algo::bn;
  const std::uint64_t c = a.count;
  rsa_word n[N], rr[N], one[N], x[N], e[N];
  for (std::size_t k = 0; k < N; ++k) {
    n[k] = a.n[k * c + j];
    rr[k] = a.rr[k * c + j];
    x[k] = a.x[k * c + j];
  }
  const std::uint32_t ew = a.e_words < N ? a.e_words : static_cast<std::uint32_t>(N);
  for (std::size_t k = 0; k < N; ++k) e[k] = k < ew ? a.e[k * c + j] : 0;
  const bn::MontViewT<rsa_word> m{n, rr, one, a.n0[j]};
  bn::from_mont<N>(one, rr, m);  // R mod n = REDC(R^2)
  bn::to_mont<N>(x, x, m);
  if constexpr (Kind == RsaExpKind::secret)
    bn::mont_exp_ct<N, Ops>(x, x, e, ew, a.e_bits, m);
  else
    bn::mont_exp_public<N, Ops>(x, x, e, ew, m);
  bn::from_mont<N>(x, x, m);
  for (std::size_t k = 0; k < N; ++k) a.x[k * c + j] = x[k];
  volatile rsa_word* vx = x;
  volatile rsa_word* ve = e;
  for (std::size_t k = 0; k < N; ++k) {
    vx[k] = 0;
    ve[k] = 0;
  }
}

}  // namespace cryptaccel::cuda

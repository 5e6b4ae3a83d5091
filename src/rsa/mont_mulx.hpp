// The cpu engine's Montgomery product, square and reduction on x86-64 with MULX (BMI2) and ADCX/ADOX (ADX): the same contract
// as bn::PortableMont (src/algo/montgomery.hpp) — r = a b R^-1 mod n, r = a^2 R^-1 mod n for a, b < n, and REDC; n odd of N
// 64-bit limbs, n0 = -n^-1 mod 2^64, r may alias a or b, constant time (no data-dependent branch or address; the
// final subtraction is a masked select) — for the limb counts RSA uses (4 to 128: rsa::with_limbs's full moduli and their CRT halves).
//
// Why: a 64x64-bit multiply is the bottleneck of RSA, and MULX leaves the flags alone while ADCX and ADOX carry
// through CF and OF separately, so one row "t += a x" runs as two independent carry chains (low halves plus the
// previous high half on CF, the sum into t on OF) with no carry bookkeeping in between; fully unrolled per limb
// count, a row is four instructions per limb. The C++ of PortableMont needs several more per limb for its carries.
// Call only when mulx_adx_available() (the instructions fault otherwise); src/rsa/host_mont.hpp chooses.
#pragma once
#include <cstddef>

#include "algo/bignum.hpp"

namespace cryptaccel::rsa {

/// True when the CPU has BMI2 and ADX (and CRYPTACCEL_CPU_MASK hides neither): MulxMont may run.
bool mulx_adx_available();

/// The MULX/ADX Montgomery kernels (src/rsa/mont_mulx.cpp), instantiated for N in 4, 8, 12, 16, 24, 32, 48, 64, 128.
struct MulxMont {
  using limb = algo::bn::limb;
  /// r = a b R^-1 mod n (CIOS: per limb of b one row t += a b[i], one reduction row t = (t + m n) / 2^64).
  template <std::size_t N>
  static void mul(limb* r, const limb* a, const limb* b, const limb* n, limb n0);
  /// r = a^2 R^-1 mod n: the square with each cross product once, doubled, plus the diagonal (above 32 limbs by
  /// halves), then REDC; about 3/4 of mul's products.
  template <std::size_t N>
  static void sqr(limb* r, const limb* a, const limb* n, limb n0);
  /// r = t R^-1 mod n for a 2N-limb t < n R (Montgomery reduction alone; t is overwritten): leaving Montgomery form
  /// (t = a, zero above) costs half the products of mul(a, 1), and it reduces a full-size value modulo a CRT prime.
  template <std::size_t N>
  static void redc(limb* r, limb* t, const limb* n, limb n0);
  /// r = table[index] for `count` entries of N limbs (index < count < 2^31), reading every entry: bn::ct_lookup's
  /// contract with vector masks (AVX2, four limbs per instruction, when the CPU has it; else SSE2, two). mont_exp_ct
  /// takes it for its window table: ct_lookup<16> over 32 entries was ~0.31 us per window on this Zen 1, SSE2 ~0.11 us,
  /// AVX2 ~0.09 us (mont_exp_ct<16> ~1.5 % faster).
  template <std::size_t N>
  static void lookup(limb* r, const limb* table, std::size_t count, limb index);
};

#define CRYPTACCEL_MULX_MONT_EXTERN(N)                                                                  \
  extern template void MulxMont::mul<N>(limb*, const limb*, const limb*, const limb*, limb);          \
  extern template void MulxMont::sqr<N>(limb*, const limb*, const limb*, limb);                  \
  extern template void MulxMont::redc<N>(limb*, limb*, const limb*, limb);                       \
  extern template void MulxMont::lookup<N>(limb*, const limb*, std::size_t, limb);
CRYPTACCEL_MULX_MONT_EXTERN(4)
CRYPTACCEL_MULX_MONT_EXTERN(8)
CRYPTACCEL_MULX_MONT_EXTERN(12)
CRYPTACCEL_MULX_MONT_EXTERN(16)
CRYPTACCEL_MULX_MONT_EXTERN(24)
CRYPTACCEL_MULX_MONT_EXTERN(32)
CRYPTACCEL_MULX_MONT_EXTERN(48)
CRYPTACCEL_MULX_MONT_EXTERN(64)
CRYPTACCEL_MULX_MONT_EXTERN(128)
#undef CRYPTACCEL_MULX_MONT_EXTERN

}  // namespace cryptaccel::rsa

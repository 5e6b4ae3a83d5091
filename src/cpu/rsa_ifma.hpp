// RSA's modular exponentiation on AVX-512 IFMA (VPMADD52LUQ / VPMADD52HUQ: eight 52 x 52-bit products per
// instruction, the low or the high 52 bits of each added to a 64-bit lane), for the CRT halves of RSA-2048, -3072 and
// -4096 (primes of 1024, 1536 and 2048 bits), both halves at once. Numbers are limbs of 52 bits (20, 30 or 40 of
// them: 52 x limbs >= bits + 2) in three, four or six ZMM registers; a Montgomery product is Gueron and Krasnov's
// "almost Montgomery multiplication" (AMM) in radix 2^52 with R = 2^(52 x limbs) > 4p: its inputs and outputs stay
// below 2p, so no product needs a final subtraction, and only the exponentiation's result gets one. The
// exponentiation is a fixed 5-bit window over the whole exponent with a table lookup that reads every entry: no
// branch and no address depends on the exponent or the data. The two exponentiations (p and q) run in one loop so
// that their independent dependency chains fill each other's latencies (as OpenSSL's BN_mod_exp_mont_consttime_x2
// does for RSA-2048; this is our own implementation of the published algorithm, for the three sizes).
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bignum.hpp"

namespace cryptaccel::cpu {

/// True when the CPU has AVX-512 F and IFMA with the ZMM state enabled (and CRYPTACCEL_CPU_MASK hides neither
/// "avx512ifma" nor "avx512f").
bool ifma_available();

/// One odd modulus of at most `Bits` bits (1024, 1536 or 2048 for ifma_mod_exp_x2; 2048, 3072 or 4096 for
/// ifma_mod_exp_public) prepared: its radix-2^52 limbs,
/// -m^-1 mod 2^52 and R^2 mod m. A CRT prime is secret: wiped on destruction.
template <std::size_t Bits>
struct IfmaModulus {
  static constexpr std::size_t kLimbs64 = Bits / 64;             ///< 64-bit limbs of the values
  static constexpr std::size_t kLimbs = (Bits + 2 + 51) / 52;    ///< 52-bit limbs: 20, 30, 40, 60, 79
  /// ZMM registers per number: 3, 4, 6, 8, 10 (a spare lane above the top limb, where its high product half goes)
  static constexpr std::size_t kRegisters = (kLimbs + 1 + 7) / 8;
  static constexpr std::size_t kSlots = 8 * kRegisters;          ///< 64-bit lanes per number (the top ones zero)
  alignas(64) std::uint64_t m[kSlots] = {};
  alignas(64) std::uint64_t rr[kSlots] = {};
  std::uint64_t k0 = 0;
  /// From kLimbs64 little-endian 64-bit limbs of an odd m < 2^Bits.
  explicit IfmaModulus(const algo::bn::limb* m64);
  ~IfmaModulus();
  IfmaModulus(const IfmaModulus&) = delete;
  IfmaModulus& operator=(const IfmaModulus&) = delete;
};

/// out_a = base_a^e_a mod ma and out_b = base_b^e_b mod mb, each value kLimbs64 little-endian 64-bit limbs, bases
/// below their moduli, exponents of up to Bits bits; constant time in the bases and exponents. out may alias base.
/// Call only when ifma_available().
template <std::size_t Bits>
void ifma_mod_exp_x2(algo::bn::limb* out_a, const algo::bn::limb* base_a, const algo::bn::limb* e_a,
                     const IfmaModulus<Bits>& ma, algo::bn::limb* out_b, const algo::bn::limb* base_b,
                     const algo::bn::limb* e_b, const IfmaModulus<Bits>& mb);

/// out = base^e mod m for a public exponent of `e_limbs` limbs (RSA's public operation: verify, encrypt) on one
/// modulus of `Bits` = 2048, 3072 or 4096 bits, kLimbs64 limbs each, base < m. Time depends on e, never on the base.
/// Call only when ifma_available().
template <std::size_t Bits>
void ifma_mod_exp_public(algo::bn::limb* out, const algo::bn::limb* base, const algo::bn::limb* e, std::size_t e_limbs,
                         const IfmaModulus<Bits>& m);

#define CRYPTACCEL_IFMA_EXTERN(BITS)                                                                          \
  extern template struct IfmaModulus<BITS>;                                                                   \
  extern template void ifma_mod_exp_x2<BITS>(algo::bn::limb*, const algo::bn::limb*, const algo::bn::limb*, \
                                             const IfmaModulus<BITS>&, algo::bn::limb*, const algo::bn::limb*, \
                                             const algo::bn::limb*, const IfmaModulus<BITS>&);
CRYPTACCEL_IFMA_EXTERN(1024)
CRYPTACCEL_IFMA_EXTERN(1536)
CRYPTACCEL_IFMA_EXTERN(2048)
#undef CRYPTACCEL_IFMA_EXTERN
extern template struct IfmaModulus<3072>;
extern template struct IfmaModulus<4096>;
extern template void ifma_mod_exp_public<2048>(algo::bn::limb*, const algo::bn::limb*, const algo::bn::limb*,
                                               std::size_t, const IfmaModulus<2048>&);
extern template void ifma_mod_exp_public<3072>(algo::bn::limb*, const algo::bn::limb*, const algo::bn::limb*,
                                               std::size_t, const IfmaModulus<3072>&);
extern template void ifma_mod_exp_public<4096>(algo::bn::limb*, const algo::bn::limb*, const algo::bn::limb*,
                                               std::size_t, const IfmaModulus<4096>&);

}  // namespace cryptaccel::cpu

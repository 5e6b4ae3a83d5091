// RSA's modular exponentiation on AVX-512 IFMA (VPMADD52LUQ / VPMADD52HUQ: eight 52 x 52-bit products per
// instruction, the low or the high 52 bits of each added to a 64-bit lane), for the CRT halves of RSA-2048 (1024-bit
// primes), both halves at once. Numbers are 20 limbs of 52 bits (1040 bits) in three ZMM registers; a Montgomery
// product is Gueron and Krasnov's "almost Montgomery multiplication" (AMM) in radix 2^52 with R = 2^1040 > 4p: its
// inputs and outputs stay below 2p, so no product needs a final subtraction, and only the exponentiation's result
// gets one. The exponentiation is a fixed 5-bit window over the whole exponent with a table lookup that reads every
// entry: no branch and no address depends on the exponent or the data. Two exponentiations (p and q) run in one
// loop so that their independent dependency chains fill each other's latencies (as OpenSSL's
// BN_mod_exp_mont_consttime_x2 does; this is our own implementation of the published algorithm).
#pragma once
#include <cstdint>

#include "algo/bignum.hpp"

namespace cryptaccel::cpu {

/// True when the CPU has AVX-512 F and IFMA with the ZMM state enabled (and CRYPTACCEL_CPU_MASK hides neither
/// "avx512ifma" nor "avx512f").
bool ifma_available();

/// One 1024-bit (at most) odd modulus prepared for ifma_mod_exp_1024_x2: its radix-2^52 limbs, -m^-1 mod 2^52 and
/// R^2 mod m (R = 2^1040). Holds no secret beyond the modulus (a CRT prime is secret: wiped on destruction).
struct IfmaModulus1024 {
  static constexpr int kLimbs = 20;   // 52-bit limbs
  alignas(64) std::uint64_t m[24] = {};
  alignas(64) std::uint64_t rr[24] = {};
  std::uint64_t k0 = 0;
  /// From 16 little-endian 64-bit limbs of an odd m < 2^1024 (m > 2^1023 is not required).
  explicit IfmaModulus1024(const algo::bn::limb m64[16]);
  ~IfmaModulus1024();
  IfmaModulus1024(const IfmaModulus1024&) = delete;
  IfmaModulus1024& operator=(const IfmaModulus1024&) = delete;
};

/// out_a = base_a^e_a mod ma and out_b = base_b^e_b mod mb, each value 16 little-endian 64-bit limbs, bases below
/// their moduli, exponents of up to 1024 bits (16 limbs); constant time in the bases and exponents. out may alias
/// base. Call only when ifma_available().
void ifma_mod_exp_1024_x2(algo::bn::limb out_a[16], const algo::bn::limb base_a[16], const algo::bn::limb e_a[16],
                          const IfmaModulus1024& ma, algo::bn::limb out_b[16], const algo::bn::limb base_b[16],
                          const algo::bn::limb e_b[16], const IfmaModulus1024& mb);

}  // namespace cryptaccel::cpu

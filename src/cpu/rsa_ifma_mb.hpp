// Eight independent modular exponentiations at once on AVX-512 IFMA ("multi-buffer", one per 64-bit lane), for the
// CRT halves of RSA-2048, -3072 and -4096 (primes of 1024, 1536 and 2048 bits): the p- and q-halves of four
// signatures in one call, of one key or of up to eight different keys of the same size class.
//
// Layout: a number is L limbs of 52 bits (L = 20, 30, 40 for 1024, 1536, 2048 bits, as in rsa_ifma.hpp: 52 L >= bits
// + 2), stored "transposed": L ZMM words, word i holding limb i of each of the eight numbers (lane l = number l). A
// Montgomery product is then a plain operand-scanning loop of VPMADD52LUQ/VPMADD52HUQ over the words, each lane
// reduced with its own modulus and its own k0 = -m^-1 mod 2^52: no shuffle between lanes, and carries are normalized
// once per product. It is Gueron and Krasnov's "almost Montgomery multiplication" (AMM) with R = 2^(52 L) > 4m:
// inputs and outputs below 2m, so no product needs a subtraction; only the final result gets one, constant-time.
// The exponentiation is a fixed 5-bit window over the exponent of each lane (its own dp or dq), with a table lookup
// that reads every entry and selects per lane with compares and masked blends: no branch and no address depends on
// the bases, the exponents or the moduli. (The design follows the published multi-buffer technique of Intel's
// ipp-crypto crypto_mb; this is our own implementation.)
#pragma once
#include <cstddef>

#include "algo/bignum.hpp"
#include "cpu/rsa_ifma.hpp"

namespace cryptaccel::cpu {

/// Lanes of one multi-buffer call (64-bit lanes of a ZMM register).
inline constexpr std::size_t kIfmaMbLanes = 8;

/// out[l] = base[l]^exp[l] mod mod[l] for the eight lanes l, each value IfmaModulus<Bits>::kLimbs64 little-endian
/// 64-bit limbs, every base below its modulus, exponents of up to Bits bits. Constant time in the bases, exponents
/// and moduli. A lane whose mod[l] is nullptr is unused: it repeats lane 0's work (same time) and out[l] is not
/// written (base[l], exp[l] and out[l] may be nullptr there); lane 0 must be used. out[l] may alias base[l]; outputs
/// of different lanes must not overlap. Call only when ifma_available().
template <std::size_t Bits>
void ifma_mod_exp_mb8(algo::bn::limb* const out[kIfmaMbLanes], const algo::bn::limb* const base[kIfmaMbLanes],
                      const algo::bn::limb* const exp[kIfmaMbLanes], const IfmaModulus<Bits>* const mod[kIfmaMbLanes]);

#define CRYPTACCEL_IFMA_MB_EXTERN(BITS)                                                                   \
  extern template void ifma_mod_exp_mb8<BITS>(algo::bn::limb* const[kIfmaMbLanes],                       \
                                              const algo::bn::limb* const[kIfmaMbLanes],                 \
                                              const algo::bn::limb* const[kIfmaMbLanes],                 \
                                              const IfmaModulus<BITS>* const[kIfmaMbLanes]);
CRYPTACCEL_IFMA_MB_EXTERN(1024)
CRYPTACCEL_IFMA_MB_EXTERN(1536)
CRYPTACCEL_IFMA_MB_EXTERN(2048)
#undef CRYPTACCEL_IFMA_MB_EXTERN

}  // namespace cryptaccel::cpu

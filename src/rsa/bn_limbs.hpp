// Conversions between OpenSSL BIGNUMs and the little-endian 64-bit limbs of src/algo/bignum.hpp, for the places that
// hand numbers to libcrypto (the cpu engine's CRT exponentiations, the blinding factors' inverse).
#pragma once
#include <openssl/bn.h>

#include <cstddef>

#include "rsa/modulus.hpp"

namespace cryptaccel::rsa {

/// A new BIGNUM holding `limbs` limbs of v. When `secret`: on OpenSSL's secure heap, flagged BN_FLG_CONSTTIME (so
/// that OpenSSL takes its constant-time paths), and to be freed with BN_clear_free. Throws Error when out of memory.
BIGNUM* bn_from_limbs(const limb* v, std::size_t limbs, bool secret);

/// b's value into `limbs` limbs of v (zero-padded). Throws Error when it does not fit.
void bn_to_limbs(const BIGNUM* b, limb* v, std::size_t limbs);

}  // namespace cryptaccel::rsa

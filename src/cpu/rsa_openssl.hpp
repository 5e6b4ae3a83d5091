// The cpu engine's RSA: the modular exponentiations run in OpenSSL's constant-time BN_mod_exp_mont_consttime (its
// MULX/ADX and AVX2 RSAZ kernels, at the limit on this class of CPU), everything around them is cryptaccel's:
// CRT reduction and recombination (constant time, src/rsa/raw_ops.hpp), blinding and the result check
// (src/rsa/private_op.cpp, for every engine). Public operations and raw modexp use OpenSSL's Montgomery
// exponentiation too (the exponent of modexp is secret: constant-time path).
#pragma once
#include <span>

#include "engine/engine.hpp"

namespace cryptaccel::cpu {

void cpu_rsa_private(std::span<const engine::RsaPrivateJob> jobs);
void cpu_rsa_public(std::span<const engine::RsaPublicJob> jobs);
void cpu_modexp(const rsa::Modulus& modulus, bytes_view exponent, std::span<const engine::ModexpJob> jobs);

}  // namespace cryptaccel::cpu

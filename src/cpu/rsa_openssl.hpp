// The cpu engine's RSA. The exponentiations of the CRT halves (and raw modexp, whose exponent is secret) run in
// OpenSSL's constant-time BN_mod_exp_mont_consttime (its MULX/ADX power5/sqr8x kernels on this class of CPU): our
// own mont_exp_ct<H, rsa::MulxMont> gave 0.81x the RSA-2048 signatures per second on a Zen 1, so OpenSSL's stays
// where it is still ahead. Everything else is cryptaccel's MULX/ADX Montgomery arithmetic (src/rsa/mont_mulx.hpp,
// chosen at run time by rsa::with_host_mont): the public operation (no BIGNUM conversions, no BN_CTX: ~4 % faster
// than OpenSSL's verify at 2048 bits), the constant-time CRT reduction and recombination (src/rsa/raw_ops.hpp), and
// blinding and the result check (src/rsa/private_op.cpp, for every engine but `ref`). Without BMI2/ADX the public
// operation falls back to OpenSSL's BN_mod_exp_mont and the rest to the portable kernels.
#pragma once
#include <span>

#include "engine/engine.hpp"

namespace cryptaccel::cpu {

/// The raw CRT private operation of each job. With AVX-512 IFMA, RSA-2048/3072/4096: the jobs of one size class go
/// four per call through the multi-buffer kernel (rsa_ifma_mb.hpp), a short remainder and single jobs through
/// rsa_ifma.hpp's two-halves kernel; otherwise as described above.
void cpu_rsa_private(std::span<const engine::RsaPrivateJob> jobs);
void cpu_rsa_public(std::span<const engine::RsaPublicJob> jobs);
void cpu_modexp(const rsa::Modulus& modulus, bytes_view exponent, std::span<const engine::ModexpJob> jobs);

}  // namespace cryptaccel::cpu

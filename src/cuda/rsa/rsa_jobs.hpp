// The cuda engine's RSA operations on the host side of the GPU: the engine's raw private, public and modexp jobs
// become exponentiation tasks (rsa_plan.hpp) — a CRT private operation two independent half-size tasks, reduced
// and recombined on the host with the same constant-time code as the host engines (src/rsa/raw_ops.hpp:
// crt_inputs / crt_combine) — which a runner executes: the GPU (rsa_gpu.cpp) or the host emulation (tests).
// Blinding and the check of every private result stay in src/rsa/private_op.cpp, around these, as for every engine.
#pragma once
#include <functional>
#include <span>

#include "cuda/rsa/rsa_plan.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::cuda {

/// Executes every task (task.out set when it returns): run_rsa_tasks (rsa_executor.hpp) on a device.
using RsaRunner = std::function<void(std::span<const RsaTask>)>;

/// out = in^d mod n for every job: CRT halves as tasks (keys without a CRT form: one full-size task with d).
void rsa_private_jobs(std::span<const engine::RsaPrivateJob> jobs, const RsaRunner& run);
/// out = in^e mod n for every job (public-exponent tasks).
void rsa_public_jobs(std::span<const engine::RsaPublicJob> jobs, const RsaRunner& run);
/// out = base^exponent mod modulus for every job (secret exponent). An exponent with more limbs than the modulus
/// runs on the host (the cpu engine's constant-time OpenSSL path) instead.
void rsa_modexp_jobs(const rsa::Modulus& modulus, bytes_view exponent, std::span<const engine::ModexpJob> jobs,
                     const RsaRunner& run);

}  // namespace cryptaccel::cuda

// Runs RSA exponentiation tasks on a Device (CudaDevice on a GPU, EmulatedDevice in the CPU tests): the launches of
// rsa_plan, each packed straight into pinned staging, copied in, run and copied back on its own stream, with up to
// one launch in flight per stream so that one launch's copies overlap another's kernel; results unpacked as each
// stream finishes. Staging and device buffers (moduli and exponents are secret for private keys) are wiped before
// they are released.
#pragma once
#include <span>

#include "cuda/host/device.hpp"
#include "cuda/rsa/rsa_plan.hpp"

namespace cryptaccel::cuda {

/// Executes every task on `dev` (launches of at most `max_jobs` jobs, kernel variant `kernel` where it is built for
/// the size: rsa_plan); task.out holds the result on return.
void run_rsa_tasks(Device& dev, std::span<const RsaTask> tasks, std::size_t max_jobs = kRsaMaxJobsPerLaunch,
                   RsaKernel kernel = RsaKernel::thread);

}  // namespace cryptaccel::cuda

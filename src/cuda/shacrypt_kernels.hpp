// Host-callable SHA-crypt on the current CUDA device (src/cuda/shacrypt_kernels.cu); no CUDA types.
#pragma once
#include <span>

#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel::cuda {

/// Hashes every pending job (validated) on the current device; sets each job's status. Throws cryptaccel::Error
/// with the CUDA error string on a device failure.
void run_shacrypt_batch(std::span<ShaCryptJob> jobs);

}  // namespace cryptaccel::cuda

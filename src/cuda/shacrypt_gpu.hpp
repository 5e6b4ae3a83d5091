// SHA-crypt on the current CUDA device: the host driver of the kernels (src/cuda/shacrypt_gpu.cpp).
#pragma once
#include <span>

#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel::cuda {

/// Hashes every pending job (validated) on the current device; sets each job's status. Throws cryptaccel::Error
/// with the CUDA error string on a device failure.
void run_shacrypt_batch(std::span<ShaCryptJob> jobs);

}  // namespace cryptaccel::cuda

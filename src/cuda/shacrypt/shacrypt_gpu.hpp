// SHA-crypt on one CUDA device: the host driver of the kernels (src/cuda/shacrypt/shacrypt_gpu.cpp).
#pragma once
#include <span>

#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel::cuda {

/// Hashes every pending job (validated) on CUDA device `device` (which becomes the calling thread's current device);
/// sets each job's status. Throws cryptaccel::Error with the CUDA error string on a device failure.
void run_shacrypt_batch(int device, std::span<ShaCryptJob> jobs);

}  // namespace cryptaccel::cuda

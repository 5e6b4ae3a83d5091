// Launcher of the RSA exponentiation kernels (src/cuda/rsa_kernels.cu). No CUDA types: the stream is void*
// (cudaStream_t). Throws cryptaccel::Error with the CUDA error string when the launch fails.
#pragma once
#include <cstddef>

#include "cuda/rsa_ops.hpp"

namespace cryptaccel::cuda {

/// rsa_modexp_thread<words, kind> on every job of `args` (device memory), one thread per job.
void launch_rsa_modexp(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, void* stream);

}  // namespace cryptaccel::cuda

// Launchers of the SHA-crypt kernels (src/cuda/shacrypt/shacrypt_kernels.cu). No CUDA types: streams are void*
// (cudaStream_t). Each checks the launch and throws cryptaccel::Error with the CUDA error string on failure.
#pragma once
#include <cstdint>

#include "cuda/shacrypt/shacrypt_ops.hpp"

namespace cryptaccel::cuda {

/// shacrypt_op_init on every candidate.
void launch_shacrypt_init(const ShaCryptArgs& args, void* stream);
/// shacrypt_op_rounds(begin, end) on every candidate.
void launch_shacrypt_loop(const ShaCryptArgs& args, std::uint32_t begin, std::uint32_t end, void* stream);
/// shacrypt_op_finish on every candidate.
void launch_shacrypt_finish(const ShaCryptArgs& args, void* stream);

}  // namespace cryptaccel::cuda

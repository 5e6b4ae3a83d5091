// The `cuda` engines (registered in src/engine/registry.cpp when CUDA is built in):
//   cuda          constant-time bitsliced AES, SM4, batched hashes and Keccak-f on the GPU
//   cuda-ttable   the same with shared-memory T-table AES instead: faster, NOT constant time (key- and data-dependent
//                 shared-memory indices); never chosen by `auto`
// Both report themselves unavailable without a CUDA device ("no NVIDIA GPU found (cudaGetDeviceCount: ...)").
#pragma once
#include "engine/engine.hpp"

namespace cryptaccel::cuda {

/// The constant-time `cuda` engine.
const engine::Engine& cuda_engine();
/// The T-table `cuda-ttable` engine (not constant time).
const engine::Engine& cuda_ttable_engine();

}  // namespace cryptaccel::cuda

// Host-callable launchers of the cuda engine's kernels (src/cuda/kernels/kernels.cu). No CUDA types: streams are passed as
// void* (cudaStream_t), so host-compiled code can call them. Each launcher checks the launch and throws
// cryptaccel::Error with the CUDA error string on failure.
#pragma once
#include <cstdint>

#include "cuda/host/device.hpp"
#include "cuda/host/layout.hpp"

namespace cryptaccel::cuda {

/// Copies the public tables the kernels read (T-tables) to the current device; once per device.
void upload_kernel_tables();

/// Runs `op` over `items` work items on `stream`; `sm_count` sizes the grid (grid-stride loops).
void launch_cipher(CipherOp op, const CipherArgs& args, std::uint64_t items, void* stream, int sm_count);

/// One thread per message.
void launch_hash(const HashArgs& args, void* stream, int sm_count);

/// One thread per Keccak state.
void launch_keccak(std::uint64_t* states, std::uint64_t count, void* stream, int sm_count);

}  // namespace cryptaccel::cuda

// The extension half of cryptaccel.cuda: device-resident encryption, hashing and Keccak-f on arrays that live in CUDA
// memory, received through DLPack (nb::ndarray: PyTorch, CuPy, JAX or any object with __dlpack__). Arrays are
// checked here (CUDA memory, C-contiguous; byte lengths from dtype and shape) and the work is queued on the caller's
// stream by include/cryptaccel/cuda.hpp. python/cryptaccel/cuda.py allocates outputs and chooses the stream.
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds _cuda_available, _cuda_unavailable_reason, _cuda_crypt, _cuda_hash, _cuda_keccak and _cuda_read_flags to `m`.
void register_cuda_bindings(nanobind::module_& m);

}  // namespace pyca

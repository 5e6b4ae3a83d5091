// Launcher of the RSA exponentiation kernels (src/cuda/rsa/rsa_kernels.cu). No CUDA types: the stream is void*
// (cudaStream_t). Throws cryptaccel::Error with the CUDA error string when the launch fails.
#pragma once
#include <cstddef>

#include "cuda/rsa/rsa_kernel_variant.hpp"

namespace cryptaccel::cuda {

/// Variant `kernel` of the exponentiation on every job of `args` (device memory): rsa_modexp_thread<words, kind>
/// one thread per job, or the fp64 / group kernels below. Throws InvalidArgument when the variant is not built for
/// `words` (rsa_kernel_supports).
void launch_rsa_modexp(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, RsaKernel kernel, void* stream);

/// The fp64 variant (rsa_kernels_fp64.cu), for sizes where rsa_fp64_supports(words). Queues the launch only:
/// launch_rsa_modexp checks every variant's launch for errors.
void launch_rsa_modexp_fp64(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, void* stream);
/// The cooperative-group variant (rsa_kernels_group.cu), for sizes where rsa_group_supports(words). Queues the
/// launch only, as the fp64 one.
void launch_rsa_modexp_group(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, void* stream);

}  // namespace cryptaccel::cuda

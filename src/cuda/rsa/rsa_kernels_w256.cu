// RSA kernels for moduli of 256 32-bit words (rsa_kernels.cuh: why the sizes are spread over files).
#include "cuda/rsa/rsa_kernels.cuh"

namespace cryptaccel::cuda {
template void launch_rsa_modexp_words<256>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
}  // namespace cryptaccel::cuda

// RSA kernels for moduli of 96, 128 32-bit words (rsa_kernels.cuh: why the sizes are spread over files).
#include "cuda/rsa/rsa_kernels.cuh"

namespace cryptaccel::cuda {
template void launch_rsa_modexp_words<96>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
template void launch_rsa_modexp_words<128>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
}  // namespace cryptaccel::cuda

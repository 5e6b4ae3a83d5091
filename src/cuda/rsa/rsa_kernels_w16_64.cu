// RSA kernels for moduli of 16, 32, 48, 64 32-bit words (rsa_kernels.cuh: why the sizes are spread over files).
#include "cuda/rsa/rsa_kernels.cuh"

namespace cryptaccel::cuda {
template void launch_rsa_modexp_words<16>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
template void launch_rsa_modexp_words<32>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
template void launch_rsa_modexp_words<48>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
template void launch_rsa_modexp_words<64>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
}  // namespace cryptaccel::cuda

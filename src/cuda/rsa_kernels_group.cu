// The group RSA kernel variant (rsa_kernel_variant.hpp). Not built yet: rsa_group_supports() is false for every size.
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa_kernels.hpp"

namespace cryptaccel::cuda {

void launch_rsa_modexp_group(const RsaModexpArgs&, std::size_t words, RsaExpKind, void*) {
  throw InvalidArgument("rsa: no group GPU kernel for " + std::to_string(32 * words) + "-bit operands");
}

}  // namespace cryptaccel::cuda

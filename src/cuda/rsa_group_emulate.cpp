// Host emulation of the group RSA kernel variant (rsa_kernel_variant.hpp). Not built yet: no size is supported, so
// every launch runs the thread kernel.
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa_kernel_variant.hpp"

namespace cryptaccel::cuda {

bool rsa_group_supports(std::size_t) { return false; }

void rsa_emulate_group(const RsaModexpArgs&, std::size_t words, RsaExpKind) {
  throw InvalidArgument("rsa: no group GPU kernel for " + std::to_string(32 * words) + "-bit operands");
}

}  // namespace cryptaccel::cuda

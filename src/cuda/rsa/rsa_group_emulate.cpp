// Host emulation of the group RSA kernel variant (rsa_kernel_variant.hpp, rsa_group_ops.hpp): each job's group of
// lanes runs as one LaneWord array per number, through the same rsa_modexp_group the kernels run.
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_group_ops.hpp"
#include "cuda/rsa/rsa_kernel_variant.hpp"

namespace cryptaccel::cuda {

bool rsa_group_supports(std::size_t words) {
  return rsa_dispatch_variant_words(words, [](auto) {});
}

void rsa_emulate_group(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind) {
  const bool built = rsa_dispatch_variant_words(words, [&](auto W) {
    rsa_emulate_jobs(a, kind, [&](auto K, std::uint64_t j) {
      rsa_modexp_group<decltype(W)::value, decltype(K)::value>(a, j);
    });
  });
  if (!built) throw InvalidArgument("rsa: no group GPU kernel for " + std::to_string(32 * words) + "-bit operands");
}

}  // namespace cryptaccel::cuda

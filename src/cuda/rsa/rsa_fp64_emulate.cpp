// Host emulation of the fp64 RSA kernel variant (rsa_kernel_variant.hpp): rsa_fp64_modexp_thread of rsa_fp64_ops.hpp,
// the kernel's per-thread body, run job by job in reverse order on the host (EmulatedDevice; the CPU tests).
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_fp64_ops.hpp"
#include "cuda/rsa/rsa_kernel_variant.hpp"

namespace cryptaccel::cuda {

bool rsa_fp64_supports(std::size_t words) {
  return rsa_dispatch_variant_words(words, [](auto) {});
}

void rsa_emulate_fp64(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind) {
  const bool built = rsa_dispatch_variant_words(words, [&](auto W) {
    rsa_emulate_jobs(a, kind, [&](auto K, std::uint64_t j) {
      rsa_fp64_modexp_thread<decltype(W)::value, decltype(K)::value>(a, j);
    });
  });
  if (!built) throw InvalidArgument("rsa: no fp64 GPU kernel for " + std::to_string(32 * words) + "-bit operands");
}

}  // namespace cryptaccel::cuda

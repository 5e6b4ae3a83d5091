// See rsa_kernel_variant.hpp.
#include "cuda/rsa/rsa_kernel_variant.hpp"

#include <cstdlib>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_plan.hpp"

namespace cryptaccel::cuda {

std::string_view rsa_kernel_name(RsaKernel k) {
  switch (k) {
    case RsaKernel::fp64: return "fp64";
    case RsaKernel::group: return "group";
    case RsaKernel::thread: break;
  }
  return "thread";
}

RsaKernel parse_rsa_kernel(std::string_view name) {
  for (RsaKernel k : {RsaKernel::thread, RsaKernel::fp64, RsaKernel::group})
    if (name == rsa_kernel_name(k)) return k;
  throw InvalidArgument("rsa: unknown GPU kernel '" + std::string(name) + "' (thread, fp64 or group)");
}

RsaKernel rsa_kernel_from_env() {
  const char* v = std::getenv("CRYPTACCEL_CUDA_RSA_KERNEL");
  return v && *v ? parse_rsa_kernel(v) : kDefaultRsaKernel;
}

bool rsa_kernel_supports(RsaKernel k, std::size_t words) {
  switch (k) {
    case RsaKernel::fp64: return rsa_fp64_supports(words);
    case RsaKernel::group: return rsa_group_supports(words);
    case RsaKernel::thread: break;
  }
  return rsa_dispatch_words(words, [](auto) {});
}

void rsa_emulate(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind, RsaKernel k) {
  if (!rsa_kernel_supports(k, words))
    throw InvalidArgument("rsa: no " + std::string(rsa_kernel_name(k)) + " GPU kernel for " +
                          std::to_string(32 * words) + "-bit operands");
  switch (k) {
    case RsaKernel::fp64: return rsa_emulate_fp64(a, words, kind);
    case RsaKernel::group: return rsa_emulate_group(a, words, kind);
    case RsaKernel::thread: break;
  }
  rsa_emulate(a, words, kind);
}

}  // namespace cryptaccel::cuda

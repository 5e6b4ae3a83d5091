// The speed harness's test hook: CRYPTACCEL_SPEED_INJECT_MISMATCH, read here and nowhere else.
#include <cstdlib>

#include "families.hpp"

namespace cryptaccel::bench {
namespace {

bool is_target(std::string_view impl) {
  const char* target = std::getenv("CRYPTACCEL_SPEED_INJECT_MISMATCH");
  return target != nullptr && impl == target;
}

}  // namespace

bool inject_mismatch(const Workload& workload, std::string_view impl) {
  // resolve() only when the variable is set: for "auto" it asks the registry (and, for SHA-crypt, runs a job).
  if (std::getenv("CRYPTACCEL_SPEED_INJECT_MISMATCH") == nullptr) return false;
  return is_target(impl) || (impl != kOpenSsl && is_target(workload.resolve(impl)));
}

}  // namespace cryptaccel::bench

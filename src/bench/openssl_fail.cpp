// The speed harness's OpenSSL side: the exception of a failed libcrypto call.
#include "openssl_fail.hpp"

#include "common/openssl_error.hpp"

#include <stdexcept>
#include <string>

namespace cryptaccel::bench {

void openssl_fail(const char* call) {
  std::string message = std::string("OpenSSL ") + call + " failed";
  if (const std::string reason = openssl_error_text(); !reason.empty()) message += ": " + reason;
  throw std::runtime_error(message);
}

}  // namespace cryptaccel::bench

// The speed harness's OpenSSL side: the exception of a failed libcrypto call.
#include "openssl_fail.hpp"

#include <openssl/err.h>

#include <stdexcept>
#include <string>

namespace cryptaccel::bench {

void openssl_fail(const char* call) {
  std::string message = std::string("OpenSSL ") + call + " failed";
  if (const unsigned long code = ERR_get_error(); code != 0) {
    char reason[256];
    ERR_error_string_n(code, reason, sizeof reason);
    message += std::string(": ") + reason;
  }
  ERR_clear_error();
  throw std::runtime_error(message);
}

}  // namespace cryptaccel::bench

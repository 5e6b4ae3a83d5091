// OpenSSL's error queue as text (see openssl_error.hpp).
#include "common/openssl_error.hpp"

#include <openssl/err.h>

namespace cryptaccel {

std::string openssl_error_text() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

std::string openssl_last_reason() {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  if (code == 0) return "";
  const char* reason = ERR_reason_error_string(code);
  return reason != nullptr ? reason : "";
}

}  // namespace cryptaccel

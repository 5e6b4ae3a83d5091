// OpenSSL's error queue as text, in one place: every OpenSSL caller (the cpu engine's EVP paths, RSA keys, the speed
// harness) turns a failed libcrypto call into a message through it. Each function clears the queue, so that an old
// error never explains a later failure.
#pragma once
#include <string>

namespace cryptaccel {

/// OpenSSL's first queued error as "error:CODE:library::reason" ("" when the queue is empty); clears the queue.
std::string openssl_error_text();

/// The reason string of OpenSSL's last queued error ("unsupported", "bad decrypt", ...; "" when the queue is empty
/// or the reason has no text); clears the queue.
std::string openssl_last_reason();

}  // namespace cryptaccel

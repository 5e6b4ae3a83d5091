// The speed harness's OpenSSL side: one way to turn a failed libcrypto call into an exception, for every family.
#pragma once

namespace cryptaccel::bench {

/// Throws std::runtime_error "OpenSSL CALL failed: REASON" (OpenSSL's first queued reason, when there is one) and
/// clears OpenSSL's error queue.
[[noreturn]] void openssl_fail(const char* call);

}  // namespace cryptaccel::bench

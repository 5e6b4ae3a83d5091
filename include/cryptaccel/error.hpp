// cryptaccel — typed errors. Every failure is one of these; messages are one line, fit for a CLI.
#pragma once
#include <stdexcept>
#include <string>

namespace cryptaccel {

/// Base class of every error cryptaccel throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A caller-supplied argument is unusable: wrong key/IV/tag length, unknown algorithm, bad length for a mode.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// AEAD tag verification failed; no plaintext was released.
class AuthenticationFailed : public Error {
 public:
  AuthenticationFailed() : Error("authentication failed: tag mismatch") {}
  /// With a message of its own (the age format names the stanza, header MAC or payload chunk that failed).
  explicit AuthenticationFailed(const std::string& what) : Error(what) {}
};

/// CBC/ECB PKCS#7 padding is malformed after decryption (or the ciphertext length is not a block multiple).
class BadDecrypt : public Error {
 public:
  using Error::Error;
};

/// The requested engine is missing, unavailable on this machine, or cannot serve this request.
class EngineUnavailable : public Error {
 public:
  using Error::Error;
};

}  // namespace cryptaccel

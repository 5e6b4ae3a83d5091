// `cryptaccel pkeyutl`: reading inputs and keys (passwords: password_source.hpp).
#pragma once
#include <optional>
#include <string>

#include "cryptaccel/rsa.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cli::pkeyutl {

/// All of a file ("" or "-": stdin). Throws std::runtime_error naming the file.
bytes read_input(const std::string& path);

/// A key file as -inkey / -pubin read it: a private key (and its public half) unless `pubin`. PEM or DER is detected.
/// A private key's file may be given where only the public half is needed (verify, encrypt), as in openssl.
struct LoadedKey {
  std::optional<rsa::PrivateKey> private_key;
  rsa::PublicKey public_key;
};

/// Loads `path` ("" is refused: "-inkey is required"). `passin`: the -passin spec, for encrypted private keys.
/// Throws InvalidArgument with a one-line message naming the file.
LoadedKey load_key(const std::string& path, bool pubin, const std::optional<std::string>& passin);

}  // namespace cryptaccel::cli::pkeyutl

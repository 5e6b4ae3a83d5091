// `cryptaccel enc`'s password mode, as `openssl enc` has it: the salt (random, -S HEX, -nosalt, or read from the
// "Salted__" header) and the -p / -P printout. The password itself comes from password_source.hpp (-pass, and -k /
// -kfile as pass: / file:), the derivation from the library (cryptaccel/password.hpp).
#pragma once
#include <optional>
#include <string>

#include "cryptaccel/password.hpp"
#include "cryptaccel/types.hpp"
#include "stream_input.hpp"

namespace cryptaccel::cli {

/// The password options of one command line.
struct PasswordOptions {
  std::optional<std::string> source;  ///< -pass ARG; -k P is "pass:P", -kfile F is "file:F"
  bool pbkdf2 = false;                ///< -pbkdf2
  std::optional<unsigned> iterations; ///< -iter N (implies PBKDF2)
  std::optional<std::string> digest;  ///< -md NAME
  std::optional<std::string> salt_hex;  ///< -S HEX
  bool nosalt = false;                ///< -nosalt
  bool print = false;                 ///< -p: print salt, key and IV, then go on
  bool print_only = false;            ///< -P: print them and stop
};

/// The salt of an encryption: none (-nosalt), -S's (shorter hex is zero-padded and longer truncated, each with
/// openssl's warning), or 8 random bytes; `header` is set when the salt must open the output ("Salted__" || salt:
/// only for a random salt, as openssl does).
bytes encryption_salt(const PasswordOptions& o, bool& header, const char* command);

/// The salt of a decryption: none (-nosalt), -S's, or the one in the input's "Salted__" header (read from `input`).
bytes decryption_salt(const PasswordOptions& o, ByteSource& input, const char* command);

/// The openssl derivation options of `o`, and the legacy warning when it is EVP_BytesToKey.
PasswordKdf password_kdf(const PasswordOptions& o, const char* command);

/// -p / -P: "salt=HEX", "key=HEX", "iv =HEX" lines (upper-case hex; salt only with one, iv only with one), on stdout.
void print_key_material(bytes_view salt, bytes_view key, bytes_view iv);

}  // namespace cryptaccel::cli

// cryptaccel — the age file format (age-encryption.org/v1), interoperable with `age`, `rage` and `pyrage`.
//
// A file is a header and a payload. The header holds one stanza per recipient, each wrapping a random 16-byte file
// key: X25519 recipients ("age1...", an ephemeral key agreement, HKDF-SHA-256 and ChaCha20-Poly1305) or one scrypt
// passphrase recipient; an HMAC-SHA-256 under a key derived from the file key authenticates the header. The payload
// is the plaintext in 64 KiB chunks, each sealed with ChaCha20-Poly1305 under a key derived from the file key and a
// 16-byte nonce, the chunk's nonce being its counter and a last-chunk flag (the STREAM construction): truncation,
// reordering and appended data are all detected. Chunks are independent, so cryptaccel seals and opens many at once
// on every core (run_batch on the chosen engine), in memory bounded by the batch, never by the file.
//
// X25519, HKDF, HMAC and scrypt come from OpenSSL 3; ChaCha20-Poly1305 from the engines (src/cpu: OpenSSL's
// assembly; src/ref: portable).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/error.hpp"
#include "cryptaccel/stream.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::age {

/// Why decrypt() refused a file, in the classes of the age test kit (C2SP CCTV "age"), so that a caller can tell a
/// damaged file from a wrong key.
enum class Failure {
  armor,       ///< the ASCII armor does not parse
  header,      ///< the header does not parse (or a stanza is malformed, a work factor above the limit)
  no_match,    ///< the header parsed, but no identity or passphrase opens any stanza
  header_mac,  ///< a stanza opened, but the header MAC does not verify
  payload,     ///< the header verified, but a payload chunk did not (modified, truncated, reordered, appended to)
};

/// The name of a failure as the test kit writes it ("armor failure", "header failure", "no match", "HMAC failure",
/// "payload failure").
std::string_view failure_name(Failure failure);

/// decrypt() of a file whose armor or header does not parse (Failure::armor, Failure::header).
class MalformedFile : public InvalidArgument {
 public:
  MalformedFile(Failure failure, const std::string& what) : InvalidArgument(what), failure_(failure) {}
  Failure failure() const { return failure_; }

 private:
  Failure failure_;
};

/// decrypt() of a well-formed file that does not open: no identity matched, the header MAC, or a payload chunk
/// (Failure::no_match, Failure::header_mac, Failure::payload).
class OpenFailed : public AuthenticationFailed {
 public:
  OpenFailed(Failure failure, const std::string& what) : AuthenticationFailed(what), failure_(failure) {}
  Failure failure() const { return failure_; }

 private:
  Failure failure_;
};

/// An X25519 recipient: the public key that "age1..." encodes.
class Recipient {
 public:
  /// Parses "age1..." (Bech32, lower case). Throws InvalidArgument naming what is wrong.
  static Recipient parse(std::string_view text);
  explicit Recipient(const std::array<std::uint8_t, 32>& key) : key_(key) {}
  /// The "age1..." form.
  std::string to_string() const;
  const std::array<std::uint8_t, 32>& key() const { return key_; }

 private:
  std::array<std::uint8_t, 32> key_;
};

/// An X25519 identity: the secret key that "AGE-SECRET-KEY-1..." encodes. Wiped on destruction.
class Identity {
 public:
  /// A new random identity (OpenSSL's CSPRNG).
  static Identity generate();
  /// Parses "AGE-SECRET-KEY-1..." (Bech32, upper case). Throws InvalidArgument.
  static Identity parse(std::string_view text);
  explicit Identity(const std::array<std::uint8_t, 32>& secret) : secret_(secret) {}
  Identity(const Identity&) = default;
  Identity& operator=(const Identity&) = default;
  ~Identity();
  /// The "AGE-SECRET-KEY-1..." form.
  std::string to_string() const;
  /// Its public key.
  Recipient recipient() const;
  const std::array<std::uint8_t, 32>& secret() const { return secret_; }

 private:
  std::array<std::uint8_t, 32> secret_;
};

/// The identities of an identity file (age-keygen's output: "AGE-SECRET-KEY-1..." lines, '#' comments and blank
/// lines ignored). Throws InvalidArgument naming the line of anything else; an empty list is an error too.
std::vector<Identity> parse_identities(std::string_view text);
/// The recipients of a recipients file (`age -R`: "age1..." lines, '#' comments, blank lines). Throws InvalidArgument.
std::vector<Recipient> parse_recipients(std::string_view text);

/// age-keygen's file for `identity`: "# created: <RFC 3339 time>", "# public key: age1...", the secret key line.
std::string identity_file(const Identity& identity);

/// The scrypt work factor (log2 N) age encrypts with, and the largest it opens by default (as age: a file with a
/// larger one could make opening it cost minutes and gigabytes).
inline constexpr unsigned kDefaultScryptLog2N = 18;
inline constexpr unsigned kMaxScryptLog2N = 22;

/// Bytes of plaintext per payload chunk (age's 64 KiB).
inline constexpr std::size_t kChunkBytes = 64 * 1024;

/// How the payload runs.
struct EngineOptions {
  std::string_view engine = "auto";  ///< engine for ChaCha20-Poly1305 ("auto", "cpu", "ref")
  std::size_t threads = 0;           ///< host threads (0: all cores)
  /// Chunks processed per run_batch call (0: 16 per host thread, at most 256); the buffers hold about three times
  /// that many chunks (the input, and two outputs so that one is written while the next batch runs).
  std::size_t chunks_per_batch = 0;
};

/// What to encrypt to: X25519 recipients, or a passphrase (an scrypt recipient, which must be the only one).
struct EncryptOptions {
  std::vector<Recipient> recipients;
  std::string passphrase;  ///< non-empty: encrypt to this passphrase (no recipients then)
  unsigned scrypt_log2_n = kDefaultScryptLog2N;
  bool armor = false;  ///< the ASCII armor ("-----BEGIN AGE ENCRYPTED FILE-----")
  EngineOptions run;
};

/// What to decrypt with: identities for X25519 stanzas, a passphrase for an scrypt stanza.
struct DecryptOptions {
  std::vector<Identity> identities;
  std::string passphrase;
  unsigned max_scrypt_log2_n = kMaxScryptLog2N;
  /// Whether the file is armored: unset detects it from the first bytes (as `age -d` does); true requires the armor
  /// (anything else is Failure::armor); false reads the binary format only.
  std::optional<bool> armored;
  EngineOptions run;
};

/// Whether `start` (the first bytes of a file, at least 34 or all of it) is an armored age file.
bool is_armored(bytes_view start);
/// Whether the header of `start` has an scrypt (passphrase) stanza; for choosing to ask for a passphrase. Reads only
/// what is given (armored input is decoded as far as it goes).
bool needs_passphrase(bytes_view start);

/// Encrypts all that `read` yields (see StreamReader) into an age file handed to `write` in order. Throws
/// InvalidArgument (no recipient, a passphrase with recipients), or what `read` and `write` throw.
void encrypt(const StreamReader& read, const StreamSink& write, const EncryptOptions& options);

/// Decrypts an age file (binary or armored). Plaintext reaches `write` chunk by chunk in order, each only after its
/// tag verified. Throws OpenFailed (no identity opens the file, a wrong passphrase, a bad header MAC, a chunk whose
/// tag fails: tampering, truncation, reordering, appended data) or MalformedFile (malformed armor or header, an
/// scrypt work factor above the limit), each saying which Failure; the messages name the byte offset of the payload
/// where it failed. InvalidArgument for a misuse (no identity or passphrase given, identities for a passphrase
/// file). What was written before a failure was verified; callers that must not release a partial result write it
/// somewhere they can discard (the CLI: a temporary file).
void decrypt(const StreamReader& read, const StreamSink& write, const DecryptOptions& options);

/// encrypt()/decrypt() of data in memory.
bytes encrypt(bytes_view plaintext, const EncryptOptions& options);
bytes decrypt(bytes_view file, const DecryptOptions& options);

}  // namespace cryptaccel::age

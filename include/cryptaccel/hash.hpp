// cryptaccel — hash functions: SHA-224/256/384/512, SHA-512/224, SHA-512/256, SHA3-224/256/384/512,
// SHAKE128/256 (any output length) and SM3. Streaming (Hasher), one-shot (hash) and batch (hash_batch).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel {

namespace engine {
class Engine;
}

/// Every hash algorithm cryptaccel implements.
enum class HashAlgorithm {
  sha224, sha256, sha384, sha512, sha512_224, sha512_256,
  sha3_224, sha3_256, sha3_384, sha3_512, shake128, shake256,
  sm3,
};

/// Fixed facts about a hash algorithm.
struct HashInfo {
  HashAlgorithm algorithm;
  std::string_view name;          ///< canonical name, as Python's hashlib spells it: "sha256", "sha512_224", "sha3_256", "shake_128", "sm3"
  std::string_view display_name;  ///< as standards and coreutils' --tag spell it: "SHA256", "SHA512/224", "SHA3-256", "SHAKE128", "SM3"
  std::size_t digest_size;        ///< bytes; for SHAKE the default output length (16 / 32 bytes, as OpenSSL)
  std::size_t block_size;         ///< bytes per compression call (SHA-3/SHAKE: the sponge rate)
  bool xof;                       ///< extendable output (SHAKE): any output length
};

/// Parses a hash name, case-insensitive and ignoring '-', '_' and '/': "sha256", "SHA-256", "sha512/224",
/// "sha512_224", "sha3-256", "shake128", "shake_128", "sm3". Throws InvalidArgument for unknown names.
HashAlgorithm parse_hash(std::string_view name);
/// Facts about `algorithm`.
const HashInfo& hash_info(HashAlgorithm algorithm);
/// Canonical names of every hash algorithm, in a stable order.
std::vector<std::string> hash_names();

/// Incremental hashing (init / update / digest), copyable: a copy continues independently, as hashlib's copy().
/// Secret-free by nature but wiped on destruction anyway (the input may be a secret).
class Hasher {
 public:
  /// A fresh hasher; `engine` is "auto" or an engine name that supports streaming `algorithm`
  /// (throws EngineUnavailable otherwise).
  explicit Hasher(HashAlgorithm algorithm, std::string_view engine = "auto");
  Hasher(const Hasher&) = default;
  Hasher& operator=(const Hasher&) = default;
  ~Hasher();

  /// Absorbs more input.
  Hasher& update(bytes_view data);
  /// The digest of everything absorbed so far; the hasher keeps going (more update() calls may follow).
  /// `out_len`: output length for SHAKE (0: the default); must be 0 or the digest size otherwise.
  bytes digest(std::size_t out_len = 0) const;
  /// As digest(), into `out` (SHAKE: any length; others: exactly digest_size bytes).
  void digest_into(mutable_bytes out) const;
  /// Back to the state of a fresh hasher.
  void reset();

  HashAlgorithm algorithm() const { return algorithm_; }
  const HashInfo& info() const { return hash_info(algorithm_); }
  /// The engine whose block function this hasher uses.
  std::string_view engine_name() const;

 private:
  HashAlgorithm algorithm_;
  const engine::Engine* engine_;
  std::array<std::uint64_t, 25> state_{};  ///< SHA-256/SM3: 8 32-bit words; SHA-512: 8 words; Keccak: 25 lanes
  std::array<std::uint8_t, 168> buffer_{}; ///< a partial block (168: the largest block, SHAKE128's rate)
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;          ///< message length so far (SHA-2/SM3 append its bit count)
};

/// One-shot hash. `out_len` as Hasher::digest. The engine that ran is stored in `engine_used` when given.
bytes hash(HashAlgorithm algorithm, bytes_view data, std::size_t out_len = 0, std::string_view engine = "auto",
           std::string* engine_used = nullptr);

/// One message of a hash batch.
struct HashJob {
  bytes_view in;
  mutable_bytes digest;  ///< digest_size bytes; for SHAKE any length >= 1 (the output length)
  JobStatus status = JobStatus::pending;
  std::string error;     ///< one-line reason when status is not ok
};

/// Hashes many independent messages in one call (where accelerators shine: one message per lane or thread).
/// Per-job problems (a wrong digest buffer size) are reported in each job's status; an unusable engine throws.
BatchReport hash_batch(HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions& options = {});

/// A Keccak-f[1600] state: 25 lanes, lane (x, y) at index x + 5y (FIPS 202 §3.1.2).
using KeccakState = std::array<std::uint64_t, 25>;

/// Applies Keccak-f[1600] to every state, in place (many states in one call, as seed 004's vector unit does).
/// Returns the name of the engine that ran.
std::string keccak_f1600_batch(std::span<KeccakState> states, std::string_view engine = "auto");

/// Keccak-p[1600, rounds] (FIPS 202 §3.3, the last `rounds` rounds of Keccak-f[1600]) on each 200-byte state of
/// `states`, in place; a state laid out as FIPS 202's bit string (lane (x, y) little-endian at byte 8 (x + 5y)).
/// Portable code. Throws InvalidArgument when `rounds` is not 1..24 or the size is not a multiple of 200.
void keccak_p1600_bytes(mutable_bytes states, unsigned rounds);

}  // namespace cryptaccel

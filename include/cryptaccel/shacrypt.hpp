// cryptaccel — SHA-crypt password hashing: sha256crypt ("$5$") and sha512crypt ("$6$") as in Ulrich Drepper's
// "Unix crypt using SHA-256 and SHA-512" specification, byte-identical to glibc/libxcrypt crypt(3) and passlib.
// One-shot (shacrypt_hash / shacrypt_verify) and batch (shacrypt_batch: many candidates, one or many settings, the
// shape a dictionary attack has).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// Which SHA-crypt: the number is the hash string's identifier ("$5$", "$6$").
enum class ShaCryptVariant { sha256 = 5, sha512 = 6 };

/// Limits of the specification.
inline constexpr std::uint32_t kShaCryptDefaultRounds = 5000;
inline constexpr std::uint32_t kShaCryptMinRounds = 1000;       ///< smaller "rounds=" values are raised to this
inline constexpr std::uint32_t kShaCryptMaxRounds = 999999999;  ///< larger "rounds=" values are lowered to this
inline constexpr std::size_t kShaCryptMaxSalt = 16;             ///< salt characters used; the rest is ignored

/// Everything but the password that determines a SHA-crypt hash: the "setting" part of a hash string.
struct ShaCryptSetting {
  ShaCryptVariant variant = ShaCryptVariant::sha512;
  std::uint32_t rounds = kShaCryptDefaultRounds;  ///< already clamped to [kShaCryptMinRounds, kShaCryptMaxRounds]
  bool rounds_explicit = false;                   ///< "rounds=N$" appears in the string (even N = 5000)
  std::string salt;                               ///< at most kShaCryptMaxSalt characters, none of '$', ':', '\n'
};

/// A parsed hash string: its setting and, when present, the raw digest its 43/86 base-64 characters encode.
struct ShaCryptHash {
  ShaCryptSetting setting;
  std::size_t digest_size = 0;           ///< 32 (sha256crypt) or 64 (sha512crypt); 0 when the string has no hash part
  std::uint8_t digest[64] = {};          ///< raw digest (the spec's byte order, before the crypt base-64 shuffle)
};

/// Parses "$5$[rounds=N$]salt[$hash]" / "$6$...". Salt longer than 16 characters is truncated and rounds are clamped,
/// as glibc does. Throws InvalidArgument (one line naming the problem) for anything else.
ShaCryptHash parse_shacrypt(std::string_view hash_string);

/// The hash string for `password` with `setting`: "$6$[rounds=N$]salt$<86 chars>".
/// `engine`: "auto" or an engine name that offers SHA-crypt.
std::string shacrypt_hash(bytes_view password, const ShaCryptSetting& setting, std::string_view engine = "auto");

/// A setting with a fresh random salt (16 characters of the crypt alphabet, from the OS random source).
ShaCryptSetting shacrypt_random_setting(ShaCryptVariant variant, std::uint32_t rounds = kShaCryptDefaultRounds);

/// True when `password` hashes to `hash_string` (compared in constant time). Throws InvalidArgument when
/// `hash_string` is not a SHA-crypt hash with a hash part.
bool shacrypt_verify(bytes_view password, std::string_view hash_string, std::string_view engine = "auto");

/// One candidate of a batch: a password and the setting to hash it with.
struct ShaCryptJob {
  bytes_view password;                 ///< any length the spec allows (no cap)
  const ShaCryptSetting* setting = nullptr;
  mutable_bytes digest;                ///< 32 or 64 bytes (the variant's raw digest size)
  JobStatus status = JobStatus::pending;
  std::string error;                   ///< one-line reason when status is not ok
};

/// Hashes every job (raw digests, no base-64: what a cracker compares). Jobs may mix settings and variants; engines
/// group equal settings and run one candidate per SIMD lane / GPU thread. Per-job problems are reported in each job's
/// status; an unusable engine throws EngineUnavailable before any job runs.
BatchReport shacrypt_batch(std::span<ShaCryptJob> jobs, const BatchOptions& options = {});

/// The crypt base-64 encoding of a raw digest, in the spec's byte order (43 or 86 characters).
std::string shacrypt_encode_digest(ShaCryptVariant variant, bytes_view digest);

/// The full hash string for a setting and a raw digest, as shacrypt_hash would return it.
std::string shacrypt_format(const ShaCryptSetting& setting, bytes_view digest);

}  // namespace cryptaccel

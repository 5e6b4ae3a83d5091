// Cracking: the hash file. Lines as in /etc/shadow ("user:$6$salt$hash:..."), bare SHA-crypt hash strings
// ("$6$...", "$5$rounds=N$..."), hex digests of raw SHA-256 / SHA-512 / SHA3-256 / SM3 ("hex" or "user:hex").
#pragma once
#include <cstddef>
#include <optional>
#include <variant>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/hash.hpp"
#include "cryptaccel/shacrypt.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::crack {

/// What a hash line holds (the -m choices).
enum class HashMode { sha512crypt, sha256crypt, sha256, sha512, sha3_256, sm3 };

/// Parses a -m name: "sha512crypt", "sha256crypt", "sha256", "sha512", "sha3-256", "sm3" (case-insensitive;
/// hashcat's numbers 1800, 7400, 1400, 1700 and 17400 are accepted too). Throws std::invalid_argument.
HashMode parse_hash_mode(std::string_view name);
/// The -m name of `mode`.
std::string_view hash_mode_name(HashMode mode);
/// True for the SHA-crypt modes.
bool is_crypt(HashMode mode);
/// The raw hash algorithm of a hex-digest mode.
HashAlgorithm raw_algorithm(HashMode mode);

/// One hash to crack, from one line of the hash file.
struct Target {
  std::size_t line = 0;        ///< 1-based line number in the hash file
  std::string user;            ///< the user field of a "user:hash" line (empty for a bare hash)
  std::string hash;            ///< the hash as written (hex digests in lower case): the potfile key
  HashMode mode = HashMode::sha512crypt;
  ShaCryptSetting setting;     ///< SHA-crypt modes: salt and rounds
  bytes digest;                ///< the raw digest to find
};

/// Why a line gives no target: a malformed or unsupported line (an error in the input), an account without a password
/// hash ('*', '!...', 'x': locked, disabled or shadowed, normal in /etc/shadow), or an account whose password field is
/// empty (it logs in without a password: a finding in itself).
enum class BadLineKind { unusable, no_password_hash, empty_password };

/// A line that could not be used: "LINE: reason" (the caller prefixes the file name).
struct BadLine {
  std::size_t line = 0;
  std::string reason;
  BadLineKind kind = BadLineKind::unusable;
  std::string user;  ///< the user field, where the line has one
};

/// Parses one non-empty line. `forced`: the -m mode (every line must be of it), or nothing to detect the mode from
/// the line ("$5$" / "$6$"; 128 hex digits: sha512; 64 hex digits is ambiguous and needs -m). Returns the target or
/// the reason the line is unusable.
std::variant<Target, std::string> parse_hash_line(std::string_view line, std::optional<HashMode> forced);

/// Reads a hash file: targets in file order and the unusable lines. Empty lines are skipped silently; "\r\n" line
/// ends are accepted. Throws std::runtime_error "FILE: reason" when the file cannot be read.
struct HashFile {
  std::vector<Target> targets;
  std::vector<BadLine> bad;
};
HashFile load_hash_file(const std::string& path, std::optional<HashMode> forced);

}  // namespace cryptaccel::crack

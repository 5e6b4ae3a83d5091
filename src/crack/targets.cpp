// Hash-file parsing of the cracking library (see include/cryptaccel/crack/targets.hpp).
#include "cryptaccel/crack/targets.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "crack/file_checks.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hex.hpp"

namespace cryptaccel::crack {
namespace {

constexpr const char* kEmptyHashField = "empty hash field";
constexpr const char* kNoPasswordHash = "no password hash (locked, disabled or shadowed account)";

struct ModeName {
  HashMode mode;
  std::string_view name;
  std::string_view hashcat;  ///< hashcat's -m number
};
constexpr ModeName kModes[] = {
    {HashMode::sha512crypt, "sha512crypt", "1800"}, {HashMode::sha256crypt, "sha256crypt", "7400"},
    {HashMode::sha256, "sha256", "1400"},           {HashMode::sha512, "sha512", "1700"},
    {HashMode::sha3_256, "sha3-256", "17400"},      {HashMode::sm3, "sm3", ""},
};

/// Lower case without '-' and '_', so "SHA3_256", "sha3-256" and "sha3256" compare equal.
std::string fold(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '-' || c == '_') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  return out;
}

/// Only hex digits (either case; std::isxdigit is exactly these in every locale), at least one.
bool all_hex(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

std::size_t raw_digest_size(HashMode mode) { return hash_info(raw_algorithm(mode)).digest_size; }

/// A target from a hex digest; `mode` is already known to fit its length.
Target hex_target(std::string_view hex, HashMode mode) {
  Target t;
  t.mode = mode;
  t.hash.reserve(hex.size());
  for (char c : hex) t.hash += (c >= 'A' && c <= 'F') ? static_cast<char>(c + 32) : c;
  t.digest = from_hex(hex);
  return t;
}

std::variant<Target, std::string> parse_hash(std::string_view hash, std::optional<HashMode> forced) {
  if (hash.starts_with("$5$") || hash.starts_with("$6$")) {
    const HashMode mode = hash[1] == '6' ? HashMode::sha512crypt : HashMode::sha256crypt;
    if (forced && *forced != mode)
      return std::string("a ") + std::string(hash_mode_name(mode)) + " hash, but -m is " +
             std::string(hash_mode_name(*forced));
    ShaCryptHash parsed;
    try {
      parsed = parse_shacrypt(hash);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    if (parsed.digest_size == 0) return std::string("SHA-crypt setting without a hash part");
    Target t;
    t.mode = mode;
    t.hash = std::string(hash);
    t.setting = parsed.setting;
    t.digest.assign(parsed.digest, parsed.digest + parsed.digest_size);
    return t;
  }
  if (hash.starts_with("$")) return std::string("unsupported hash type (only $5$ and $6$ SHA-crypt)");
  if (hash.empty()) return std::string(kEmptyHashField);
  if (hash == "*" || hash.starts_with("!") || hash == "x") return std::string(kNoPasswordHash);
  if (!all_hex(hash)) return std::string("not a SHA-crypt hash or a hex digest");
  if (forced) {
    if (is_crypt(*forced)) return std::string("a hex digest, but -m is ") + std::string(hash_mode_name(*forced));
    const std::size_t want = 2 * raw_digest_size(*forced);
    if (hash.size() != want)
      return std::to_string(hash.size()) + " hex digits; " + std::string(hash_mode_name(*forced)) + " has " +
             std::to_string(want);
    return hex_target(hash, *forced);
  }
  if (hash.size() == 128) return hex_target(hash, HashMode::sha512);
  if (hash.size() == 64) return std::string("64 hex digits could be sha256, sha3-256 or sm3: choose one with -m");
  return std::to_string(hash.size()) + " hex digits match no supported hash (64: sha256/sha3-256/sm3, 128: sha512)";
}

}  // namespace

HashMode parse_hash_mode(std::string_view name) {
  const std::string folded = fold(name);
  for (const ModeName& m : kModes)
    if (folded == fold(m.name) || (!m.hashcat.empty() && name == m.hashcat)) return m.mode;
  throw std::invalid_argument("unknown hash mode '" + std::string(name) +
                              "' (sha512crypt, sha256crypt, sha256, sha512, sha3-256, sm3)");
}

std::string_view hash_mode_name(HashMode mode) {
  for (const ModeName& m : kModes)
    if (m.mode == mode) return m.name;
  return "?";
}

bool is_crypt(HashMode mode) { return mode == HashMode::sha512crypt || mode == HashMode::sha256crypt; }

HashAlgorithm raw_algorithm(HashMode mode) {
  switch (mode) {
    case HashMode::sha256: return HashAlgorithm::sha256;
    case HashMode::sha512: return HashAlgorithm::sha512;
    case HashMode::sha3_256: return HashAlgorithm::sha3_256;
    case HashMode::sm3: return HashAlgorithm::sm3;
    default: throw std::logic_error("raw_algorithm of a SHA-crypt mode");
  }
}

std::variant<Target, std::string> parse_hash_line(std::string_view line, std::optional<HashMode> forced) {
  // A bare SHA-crypt string or hex digest has no ':' (neither can hold one); otherwise the line is user:hash[:...]
  // as /etc/shadow (later fields ignored).
  std::string user;
  std::string_view hash = line;
  if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
    user = std::string(line.substr(0, colon));
    hash = line.substr(colon + 1);
    hash = hash.substr(0, hash.find(':'));
    if (user.empty()) return std::string("empty user field before ':'");
  }
  auto parsed = parse_hash(hash, forced);
  if (auto* t = std::get_if<Target>(&parsed)) t->user = std::move(user);
  return parsed;
}

HashFile load_hash_file(const std::string& path, std::optional<HashMode> forced) {
  require_readable_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": " + std::strerror(errno));
  HashFile file;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    auto parsed = parse_hash_line(line, forced);
    if (auto* t = std::get_if<Target>(&parsed)) {
      t->line = number;
      file.targets.push_back(std::move(*t));
    } else {
      BadLine bad{number, std::get<std::string>(parsed)};
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) bad.user = line.substr(0, colon);
      if (bad.reason == kNoPasswordHash) bad.kind = BadLineKind::no_password_hash;
      if (bad.reason == kEmptyHashField && !bad.user.empty()) bad.kind = BadLineKind::empty_password;
      file.bad.push_back(std::move(bad));
    }
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  return file;
}

}  // namespace cryptaccel::crack

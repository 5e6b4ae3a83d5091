// SHA-crypt front end: hash-string parsing and formatting (crypt base-64 in the spec's byte order), random settings,
// verification, and the batch entry point (validation, engine choice, dispatch). The algorithm itself is
// src/algo/shacrypt.hpp (ref, cuda) and src/cpu/shacrypt_lanes.cpp (cpu).
//
// Parsing follows glibc's crypt(3): "rounds=N$" with N clamped into [1000, 999999999] (leading zeros allowed, as
// strtoul reads them), the salt cut at 16 characters. Stricter than glibc where glibc would silently read something
// else: "rounds=" not followed by digits and '$' is an error (glibc takes it as part of the salt), and so are
// salts holding ':' or a newline (they cannot appear in /etc/shadow) and hash parts that are not exactly 43 / 86
// characters of the crypt alphabet in their canonical form (unused high bits zero).
#include "cryptaccel/shacrypt.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "algo/shacrypt.hpp"
#include "common/ct.hpp"
#include "cryptaccel/error.hpp"
#include "engine/engine.hpp"
#include "engine/dispatch.hpp"

namespace cryptaccel {
namespace {

algo::HashVariant to_algo(ShaCryptVariant v) {
  return v == ShaCryptVariant::sha512 ? algo::HashVariant::sha512 : algo::HashVariant::sha256;
}

std::size_t digest_size(ShaCryptVariant v) { return v == ShaCryptVariant::sha512 ? 64 : 32; }
std::size_t encoded_size(ShaCryptVariant v) { return v == ShaCryptVariant::sha512 ? 86 : 43; }
int groups(ShaCryptVariant v) { return v == ShaCryptVariant::sha512 ? 22 : 11; }
/// Characters of group g: 4, but the last group's 2 (SHA-512: one byte) or 3 (SHA-256: two bytes).
int group_chars(ShaCryptVariant v, int g) {
  if (g + 1 < groups(v)) return 4;
  return v == ShaCryptVariant::sha512 ? 2 : 3;
}

/// The 6-bit value of a crypt base-64 character, or -1.
int b64_value(char c) {
  if (c == '.') return 0;
  if (c == '/') return 1;
  if (c >= '0' && c <= '9') return c - '0' + 2;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 12;
  if (c >= 'a' && c <= 'z') return c - 'a' + 38;
  return -1;
}

/// Why `salt` is not a usable SHA-crypt salt (empty when it is).
std::string salt_problem(std::string_view salt) {
  if (salt.size() > kShaCryptMaxSalt)
    return "salt is " + std::to_string(salt.size()) + " characters; SHA-crypt uses at most 16";
  for (char c : salt)
    if (c == '$' || c == ':' || c == '\n' || c == '\0')
      return "salt contains a character SHA-crypt hash strings cannot hold ('$', ':', newline or NUL)";
  return {};
}

/// Why `s` is not a usable setting (empty when it is).
std::string setting_problem(const ShaCryptSetting& s) {
  if (s.variant != ShaCryptVariant::sha256 && s.variant != ShaCryptVariant::sha512)
    return "unknown SHA-crypt variant " + std::to_string(static_cast<int>(s.variant));
  if (s.rounds < kShaCryptMinRounds || s.rounds > kShaCryptMaxRounds)
    return "rounds " + std::to_string(s.rounds) + " outside SHA-crypt's 1000..999999999";
  return salt_problem(s.salt);
}

void decode_digest(ShaCryptVariant v, std::string_view text, std::uint8_t* out) {
  if (text.size() != encoded_size(v))
    throw InvalidArgument("SHA-crypt hash part is " + std::to_string(text.size()) + " characters; expected " +
                          std::to_string(encoded_size(v)));
  std::size_t at = 0;
  for (int g = 0; g < groups(v); ++g) {
    const int n = group_chars(v, g);
    std::uint32_t w = 0;
    for (int k = 0; k < n; ++k) {
      const int value = b64_value(text[at + k]);
      if (value < 0) throw InvalidArgument("SHA-crypt hash part holds a character outside the crypt alphabet");
      w |= static_cast<std::uint32_t>(value) << (6 * k);
    }
    at += n;
    for (int k = 0; k < 3; ++k) {
      const int index = algo::shacrypt_b64_index(to_algo(v), g, k);
      const std::uint8_t byte = static_cast<std::uint8_t>(w >> (8 * (2 - k)));
      if (index >= 0) out[index] = byte;
      else if (byte) throw InvalidArgument("SHA-crypt hash part is not in canonical form (unused bits set)");
    }
    if (w >> 24) throw InvalidArgument("SHA-crypt hash part is not in canonical form (unused bits set)");
  }
}

}  // namespace

ShaCryptHash parse_shacrypt(std::string_view text) {
  ShaCryptHash out;
  if (text.size() < 3 || text[0] != '$' || (text[1] != '5' && text[1] != '6') || text[2] != '$')
    throw InvalidArgument("not a SHA-crypt hash: expected \"$5$\" (sha256crypt) or \"$6$\" (sha512crypt) at the start");
  ShaCryptSetting& s = out.setting;
  s.variant = text[1] == '5' ? ShaCryptVariant::sha256 : ShaCryptVariant::sha512;
  std::string_view rest = text.substr(3);
  constexpr std::string_view kRounds = "rounds=";
  if (rest.substr(0, kRounds.size()) == kRounds) {
    rest.remove_prefix(kRounds.size());
    std::size_t i = 0;
    std::uint64_t n = 0;
    for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; ++i)
      n = std::min<std::uint64_t>(n * 10 + static_cast<std::uint64_t>(rest[i] - '0'), 1ull << 40);  // saturate
    if (i == 0 || i >= rest.size() || rest[i] != '$')
      throw InvalidArgument("bad SHA-crypt rounds: expected \"rounds=<decimal number>$\"");
    s.rounds = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(n, kShaCryptMinRounds, kShaCryptMaxRounds));
    s.rounds_explicit = true;
    rest.remove_prefix(i + 1);
  }
  const std::size_t salt_end = std::min(rest.find('$'), rest.size());
  s.salt = std::string(rest.substr(0, std::min(salt_end, kShaCryptMaxSalt)));
  if (auto why = salt_problem(s.salt); !why.empty()) throw InvalidArgument(why);
  for (char c : rest.substr(0, salt_end))
    if (c == ':' || c == '\n' || c == '\0')
      throw InvalidArgument("salt contains a character SHA-crypt hash strings cannot hold (':', newline or NUL)");
  if (salt_end == rest.size()) return out;  // a setting: no hash part
  std::string_view hash = rest.substr(salt_end + 1);
  if (hash.empty()) return out;  // "$6$salt$": a setting too
  decode_digest(s.variant, hash, out.digest);
  out.digest_size = digest_size(s.variant);
  return out;
}

std::string shacrypt_encode_digest(ShaCryptVariant variant, bytes_view digest) {
  if (digest.size() != digest_size(variant))
    throw InvalidArgument("a " + std::string(variant == ShaCryptVariant::sha512 ? "sha512crypt" : "sha256crypt") +
                          " digest is " + std::to_string(digest_size(variant)) + " bytes, got " +
                          std::to_string(digest.size()));
  std::string out;
  out.reserve(encoded_size(variant));
  for (int g = 0; g < groups(variant); ++g) {
    std::uint32_t w = 0;
    for (int k = 0; k < 3; ++k) {
      const int index = algo::shacrypt_b64_index(to_algo(variant), g, k);
      w = (w << 8) | (index >= 0 ? digest[static_cast<std::size_t>(index)] : 0u);
    }
    for (int k = 0; k < group_chars(variant, g); ++k, w >>= 6) out.push_back(algo::kCryptB64_host[w & 63]);
  }
  return out;
}

std::string shacrypt_format(const ShaCryptSetting& setting, bytes_view digest) {
  if (auto why = setting_problem(setting); !why.empty()) throw InvalidArgument(why);
  std::string out = setting.variant == ShaCryptVariant::sha512 ? "$6$" : "$5$";
  if (setting.rounds_explicit || setting.rounds != kShaCryptDefaultRounds)
    out += "rounds=" + std::to_string(setting.rounds) + "$";
  out += setting.salt;
  out += '$';
  out += shacrypt_encode_digest(setting.variant, digest);
  return out;
}

ShaCryptSetting shacrypt_random_setting(ShaCryptVariant variant, std::uint32_t rounds) {
  ShaCryptSetting s;
  s.variant = variant;
  s.rounds = rounds;
  s.rounds_explicit = rounds != kShaCryptDefaultRounds;
  std::uint8_t random[kShaCryptMaxSalt];
  std::size_t got = 0;
  while (got < sizeof random) {
    const ssize_t n = getrandom(random + got, sizeof random - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(std::string("cannot read the OS random source: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  for (std::uint8_t r : random) s.salt.push_back(algo::kCryptB64_host[r & 63]);  // 256 = 4 * 64: uniform
  if (auto why = setting_problem(s); !why.empty()) throw InvalidArgument(why);
  return s;
}

BatchReport shacrypt_batch(std::span<ShaCryptJob> jobs, const BatchOptions& options) {
  bool need256 = false, need512 = false;
  std::size_t candidates = 0, rounds = 0;  // valid jobs, and their rounds summed: the work `auto` weighs
  for (ShaCryptJob& job : jobs) {
    job.error.clear();
    job.status = JobStatus::pending;
    if (!job.setting) {
      job.error = "job has no SHA-crypt setting";
    } else if (auto why = setting_problem(*job.setting); !why.empty()) {
      job.error = why;
    } else if (job.digest.size() != digest_size(job.setting->variant)) {
      job.error = "a " + std::string(job.setting->variant == ShaCryptVariant::sha512 ? "sha512crypt" : "sha256crypt") +
                  " digest buffer must be " + std::to_string(digest_size(job.setting->variant)) + " bytes, got " +
                  std::to_string(job.digest.size());
    }
    if (!job.error.empty()) {
      job.status = JobStatus::invalid_argument;
      continue;
    }
    (job.setting->variant == ShaCryptVariant::sha512 ? need512 : need256) = true;
    ++candidates;
    rounds += job.setting->rounds;
  }
  if (!need256 && !need512) need512 = true;  // nothing valid: still choose (and report) an engine
  const engine::Engine& chosen = engine::select_shacrypt_engine(
      options.engine, need256, need512, engine::Work::of(engine::WorkKind::shacrypt, candidates, rounds));
  engine::run_shacrypt_jobs(chosen, jobs, options);
  BatchReport report{std::string(chosen.name())};
  for (const ShaCryptJob& job : jobs) (job.status == JobStatus::ok ? report.succeeded : report.failed)++;
  return report;
}

std::string shacrypt_hash(bytes_view password, const ShaCryptSetting& setting, std::string_view engine) {
  if (auto why = setting_problem(setting); !why.empty()) throw InvalidArgument(why);
  std::uint8_t digest[64];
  ShaCryptJob job{password, &setting, mutable_bytes(digest, digest_size(setting.variant))};
  BatchOptions options;
  options.engine = engine;
  options.threads = 1;
  shacrypt_batch(std::span<ShaCryptJob>(&job, 1), options);
  if (job.status != JobStatus::ok) throw InvalidArgument(job.error);
  std::string out = shacrypt_format(setting, bytes_view(digest, digest_size(setting.variant)));
  secure_wipe(digest, sizeof digest);
  return out;
}

bool shacrypt_verify(bytes_view password, std::string_view hash_string, std::string_view engine) {
  const ShaCryptHash parsed = parse_shacrypt(hash_string);
  if (parsed.digest_size == 0) throw InvalidArgument("SHA-crypt string has no hash part (only a setting)");
  std::uint8_t digest[64];
  ShaCryptJob job{password, &parsed.setting, mutable_bytes(digest, parsed.digest_size)};
  BatchOptions options;
  options.engine = engine;
  options.threads = 1;
  shacrypt_batch(std::span<ShaCryptJob>(&job, 1), options);
  if (job.status != JobStatus::ok) throw InvalidArgument(job.error);
  const bool equal = ct::equal(digest, parsed.digest, parsed.digest_size);
  secure_wipe(digest, sizeof digest);
  return equal;
}

}  // namespace cryptaccel

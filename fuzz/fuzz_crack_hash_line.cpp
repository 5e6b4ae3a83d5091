// Fuzzes the cracker's hash-file line parser (bare hashes, "user:hash" and /etc/shadow lines, SHA-crypt settings
// "$5$rounds=N$salt$hash", hex digests), detected and with every forced -m mode. A target must be self-consistent:
// a digest of its mode's length and, for SHA-crypt, a salt of at most 16 bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <variant>

#include "cryptaccel/crack/targets.hpp"
#include "cryptaccel/hash.hpp"

namespace crack = cryptaccel::crack;

namespace {

void check(std::string_view line, std::optional<crack::HashMode> forced) {
  const auto parsed = crack::parse_hash_line(line, forced);
  const auto* t = std::get_if<crack::Target>(&parsed);
  if (!t) return;
  if (forced && t->mode != *forced) std::abort();
  if (crack::is_crypt(t->mode)) {
    if (t->setting.salt.size() > 16) std::abort();
  } else if (t->digest.size() != cryptaccel::hash_info(crack::raw_algorithm(t->mode)).digest_size) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  check(line, std::nullopt);
  for (const char* mode : {"sha512crypt", "sha256crypt", "sha256", "sha512", "sha3-256", "sm3"})
    check(line, crack::parse_hash_mode(mode));
  return 0;
}

// Fuzzes `cryptaccel hash --check`'s line parser (GNU, BSD and reversed BSD formats, escaped names): arbitrary lines
// for SHA-256 and for SHAKE128 (any even number of hex digits). A parsed line must hold a digest of the expected
// length made of hex digits only.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cli/hash_check_line.hpp"

namespace hash = cryptaccel::cli::hash;

namespace {

void check(hash::CheckLineParser& parser, std::string_view line, std::size_t hex_digits) {
  const auto parsed = parser.parse(line);
  if (!parsed) return;
  const std::string& d = parsed->digest_hex;
  if (hex_digits ? d.size() != hex_digits : d.size() < 2 || d.size() % 2 != 0) std::abort();
  for (const char c : d)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // One parser per input for each format, fed line by line, as a checksum file is read.
  hash::CheckLineParser sha256({"SHA256", 64}), shake({"SHAKE128", 0});
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.front() != '#') {
      check(sha256, line, 64);
      check(shake, line, 0);
    }
    at = end + 1;
  }
  return 0;
}

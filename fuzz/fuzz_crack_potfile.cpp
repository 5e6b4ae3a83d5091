// Fuzzes the cracker's potfile reader and its plain encoding: arbitrary bytes as a potfile ("hash:plain" lines,
// $HEX[...] plains, an interrupted last line) must load without a crash, and every plain found must round-trip
// through encode_plain / decode_plain; the input's bytes as a plain must round-trip too.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <unordered_set>

#include "cryptaccel/crack/potfile.hpp"

namespace crack = cryptaccel::crack;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (crack::decode_plain(crack::encode_plain(text)) != text) std::abort();

  static const std::string path = "/tmp/cryptaccel-fuzz-potfile." + std::to_string(::getpid());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  // Want the hash fields of the input's first lines, so that their plains are kept.
  std::unordered_set<std::string> wanted;
  for (std::size_t at = 0, n = 0; at < text.size() && n < 8; ++n) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    wanted.emplace(line.substr(0, line.find(':')));
    at = end + 1;
  }
  try {
    const crack::Potfile pot(path, wanted);
    for (const std::string& h : wanted) {
      if (const std::string* plain = pot.find(h)) {
        if (crack::decode_plain(crack::encode_plain(*plain)) != *plain) std::abort();
      }
    }
  } catch (const std::runtime_error&) {  // documented for unreadable files only
    std::abort();
  }
  return 0;
}

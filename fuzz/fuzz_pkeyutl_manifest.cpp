// Fuzzes `cryptaccel pkeyutl --batch`'s manifest reader: arbitrary text as JSON-lines manifest, each line parsed over
// the command line's defaults as run_batch does (nothing runs, no key or file is opened). A malformed line must be
// one InvalidArgument naming the line; any other exception (a JSON type error, an out-of-range access) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cli/pkeyutl_batch.hpp"
#include "cryptaccel/error.hpp"

namespace pk = cryptaccel::cli::pkeyutl;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const pk::Options defaults = [] {
    pk::Options o;
    o.key_path = "key.pem";
    return o;
  }();
  std::size_t number = 0;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(at, end - at));
    ++number;
    at = end + 1;
    if (line.empty() || line[0] == '#') continue;
    try {
      pk::check_manifest_line(line, number, defaults);
    } catch (const cryptaccel::InvalidArgument&) {
    }
  }
  return 0;
}

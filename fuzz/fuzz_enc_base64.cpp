// Fuzzes `cryptaccel enc -a`/`-d -a`'s streamed base64 (src/cli/base64_stream.cpp, openssl enc's format): arbitrary
// text decoded in reads of every size must give the same bytes or the same error (std::runtime_error) as one whole
// read; and the input's bytes encoded (64-column lines and one line) must decode back to themselves.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "cli/base64_stream.hpp"

namespace cli = cryptaccel::cli;
using cryptaccel::bytes;
using cryptaccel::bytes_view;
using cryptaccel::mutable_bytes;

namespace {

/// A ByteSource over memory handing out at most `step` bytes per read.
class MemorySource : public cli::ByteSource {
 public:
  MemorySource(bytes_view data, std::size_t step) : data_(data), step_(step) {}
  std::size_t read(mutable_bytes out) override {
    std::size_t done = 0;
    while (done < out.size() && at_ < data_.size()) {
      const std::size_t n = std::min({out.size() - done, data_.size() - at_, step_});
      std::copy_n(data_.begin() + static_cast<std::ptrdiff_t>(at_), n, out.begin() + static_cast<std::ptrdiff_t>(done));
      at_ += n, done += n;
    }
    return done;
  }

 private:
  bytes_view data_;
  std::size_t step_, at_ = 0;
};

/// The decoded bytes, or nothing on a decoding error; reads of `out_step` bytes from a source of `in_step`.
std::optional<bytes> decode(bytes_view text, std::size_t in_step, std::size_t out_step) {
  MemorySource src(text, in_step);
  cli::Base64Source b64(src);
  bytes out, buf(out_step);
  try {
    for (std::size_t n; (n = b64.read(buf)) > 0;) {
      out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
      if (n < buf.size()) break;
    }
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bytes_view input(data, size);
  const auto whole = decode(input, 1 << 20, 1 << 20);
  for (const auto& [in_step, out_step] : {std::pair<std::size_t, std::size_t>{1, 1}, {3, 7}, {64, 5}, {4096, 48}}) {
    if (decode(input, in_step, out_step) != whole) std::abort();
  }
  for (const bool one_line : {false, true}) {
    bytes text;
    cli::Base64Sink sink([&](bytes_view b) { text.insert(text.end(), b.begin(), b.end()); }, one_line);
    sink.write(input.first(size / 2));
    sink.write(input.subspan(size / 2));
    sink.finish();
    const auto back = decode(text, 1 << 20, 1 << 20);
    if (!back || *back != bytes(input.begin(), input.end())) std::abort();
  }
  return 0;
}

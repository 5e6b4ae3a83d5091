// Base64 as `openssl enc -a` writes and reads it, streamed: 64-character lines each ending in a newline (`-A`: one
// line, no newline at all), and on input any line length, whitespace ignored. The 3-byte <-> 4-character blocks are
// OpenSSL's EVP_EncodeBlock / EVP_DecodeBlock.
#pragma once
#include <functional>

#include "cryptaccel/types.hpp"
#include "stream_input.hpp"

namespace cryptaccel::cli {

/// Encodes what is written to it and passes the text on to `out`.
class Base64Sink {
 public:
  Base64Sink(std::function<void(bytes_view)> out, bool one_line) : out_(std::move(out)), one_line_(one_line) {}
  void write(bytes_view data);
  /// The last partial group (padded with '=') and, unless one_line, the last line's newline.
  void finish();

 private:
  void emit_line(const std::uint8_t* data, std::size_t n);
  std::function<void(bytes_view)> out_;
  bool one_line_;
  bytes pending_;  // bytes not encoded yet: fewer than a line (48 bytes), or fewer than a group (3) with one_line
};

/// Decodes base64 read from `in`. A character outside the alphabet, or text after the '=' padding, is an error
/// (std::runtime_error "bad base64 input: ...").
class Base64Source : public ByteSource {
 public:
  explicit Base64Source(ByteSource& in) : in_(in) {}
  std::size_t read(mutable_bytes buffer) override;

 private:
  bool fill();  // decodes more into decoded_; false at the end of the input
  ByteSource& in_;
  bytes decoded_;
  std::size_t decoded_at_ = 0;
  std::string quartet_;  // characters of an incomplete group
  bool ended_ = false, padded_ = false;
};

}  // namespace cryptaccel::cli

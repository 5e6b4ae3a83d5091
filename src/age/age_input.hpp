// Reading an age file: a buffered reader over a StreamReader that gives the header line by line and then the
// payload in blocks, and the ASCII armor's decoder in front of it when the file is armored.
#pragma once
#include <memory>
#include <string>

#include "cryptaccel/age.hpp"
#include "cryptaccel/stream.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::age {

/// Bytes from a StreamReader, with look-ahead and lines.
class AgeInput {
 public:
  explicit AgeInput(StreamReader read) : read_(std::move(read)) {}
  /// Up to `n` bytes ahead without taking them (fewer only at the end of the input).
  bytes_view peek(std::size_t n);
  /// The next line without its '\n'. Throws MalformedFile(`failure`, `what` + "...") at the end of the input or when
  /// no '\n' comes within `max` bytes; with `eof_ends_line`, a last line without '\n' is a line too.
  std::string line(std::size_t max, const char* what, Failure failure, bool eof_ends_line = false);
  /// Fills `out` as far as the input goes (fewer bytes only at its end), as StreamReader does.
  std::size_t read(mutable_bytes out);
  /// Bytes taken so far (lines with their '\n').
  std::uint64_t consumed() const { return consumed_; }

 private:
  bool fill(std::size_t want);  // buffers at least `want` bytes if the input has them; false otherwise
  StreamReader read_;
  bytes buf_;
  std::size_t at_ = 0;  // first unread byte of buf_
  bool ended_ = false;
  std::uint64_t consumed_ = 0;
};

/// A StreamReader that decodes the armor ("-----BEGIN AGE ENCRYPTED FILE-----", 64-column padded base64,
/// "-----END AGE ENCRYPTED FILE-----") from `in`, strictly as age does: whitespace only around the armor, every data
/// line but the last exactly 64 characters, padding only at the end. Throws MalformedFile(Failure::armor, "armor: ...").
StreamReader armor_reader(std::shared_ptr<AgeInput> in);

/// A StreamSink that writes the armor around what it is given; `finish` writes the last line and the end marker.
class ArmorWriter {
 public:
  explicit ArmorWriter(StreamSink out);
  void write(bytes_view data);
  void finish();

 private:
  StreamSink out_;
  bytes pending_;  // fewer than 48 bytes not yet on a line
};

/// The armor's first line.
inline constexpr std::string_view kArmorBegin = "-----BEGIN AGE ENCRYPTED FILE-----";

}  // namespace cryptaccel::age

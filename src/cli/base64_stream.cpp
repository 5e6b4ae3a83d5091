#include "base64_stream.hpp"

#include <openssl/evp.h>

#include <cctype>
#include <stdexcept>
#include <string>

namespace cryptaccel::cli {
namespace {

constexpr std::size_t kLineBytes = 48;  // 64 characters per line, as openssl writes them

}  // namespace

void Base64Sink::emit_line(const std::uint8_t* data, std::size_t n) {
  unsigned char text[kLineBytes / 3 * 4 + 2];
  const int len = EVP_EncodeBlock(text, data, static_cast<int>(n));
  std::size_t size = static_cast<std::size_t>(len);
  if (!one_line_) text[size++] = '\n';
  out_(bytes_view(text, size));
}

void Base64Sink::write(bytes_view data) {
  pending_.insert(pending_.end(), data.begin(), data.end());
  std::size_t at = 0;  // whole lines of 48 bytes (with one_line: the same groups, no newline between them)
  for (; pending_.size() - at >= kLineBytes; at += kLineBytes) emit_line(pending_.data() + at, kLineBytes);
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(at));
}

void Base64Sink::finish() {
  if (!pending_.empty()) emit_line(pending_.data(), pending_.size());
  pending_.clear();
}

bool Base64Source::fill() {
  if (ended_) return false;
  std::uint8_t raw[64 * 1024];
  const std::size_t got = in_.read(mutable_bytes(raw, sizeof raw));
  decoded_.clear();
  decoded_at_ = 0;
  std::string text;
  for (std::size_t i = 0; i < got; ++i) {
    const char c = static_cast<char>(raw[i]);
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    const bool valid = std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=';
    if (!valid) throw std::runtime_error(std::string("bad base64 input: unexpected character (byte ") +
                                         std::to_string(static_cast<unsigned>(raw[i])) + ")");
    if (padded_) throw std::runtime_error("bad base64 input: text after the '=' padding");
    quartet_ += c;
    if (quartet_.size() == 4) {
      // '=' pads only the end of a group: "xx==" or "xxx=" (found by fuzzing: "====" made the length negative).
      if (const std::size_t eq = quartet_.find('='); eq != std::string::npos) {
        if (eq < 2 || (eq == 2 && quartet_[3] != '='))
          throw std::runtime_error("bad base64 input: '=' padding in the middle of a 4-character group");
        padded_ = true;
      }
      text += quartet_;
      quartet_.clear();
    }
  }
  if (got < sizeof raw) {
    ended_ = true;
    if (!quartet_.empty()) throw std::runtime_error("bad base64 input: it ends inside a 4-character group");
  }
  if (!text.empty()) {
    decoded_.resize(text.size() / 4 * 3);
    const int n = EVP_DecodeBlock(decoded_.data(), reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    if (n < 0) throw std::runtime_error("bad base64 input");
    std::size_t len = static_cast<std::size_t>(n);
    // EVP_DecodeBlock counts the '=' padding as zero bytes: take them back.
    for (std::size_t i = text.size(); i-- > 0 && text[i] == '=';) --len;
    decoded_.resize(len);
  }
  return !decoded_.empty() || !ended_;
}

std::size_t Base64Source::read(mutable_bytes buffer) {
  std::size_t done = 0;
  while (done < buffer.size()) {
    if (decoded_at_ == decoded_.size() && !fill()) break;
    const std::size_t n = std::min(buffer.size() - done, decoded_.size() - decoded_at_);
    std::copy_n(decoded_.begin() + static_cast<std::ptrdiff_t>(decoded_at_), n, buffer.begin() + done);
    decoded_at_ += n;
    done += n;
  }
  return done;
}

}  // namespace cryptaccel::cli

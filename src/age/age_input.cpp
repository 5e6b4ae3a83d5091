#include "age/age_input.hpp"

#include <algorithm>
#include <cstring>

#include "age/age_base64.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel::age {
namespace {

constexpr std::size_t kReadBlock = 64 * 1024;
constexpr std::string_view kArmorEnd = "-----END AGE ENCRYPTED FILE-----";
constexpr std::size_t kArmorColumns = 64;

bool is_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

[[noreturn]] void bad_armor(const char* why) { throw MalformedFile(Failure::armor, std::string("armor: ") + why); }

}  // namespace

bool AgeInput::fill(std::size_t want) {
  while (buf_.size() - at_ < want && !ended_) {
    if (at_ > 0 && at_ == buf_.size()) buf_.clear(), at_ = 0;
    const std::size_t old = buf_.size();
    buf_.resize(old + kReadBlock);
    const std::size_t got = read_(mutable_bytes(buf_.data() + old, kReadBlock));
    buf_.resize(old + got);
    if (got < kReadBlock) ended_ = true;
  }
  return buf_.size() - at_ >= want;
}

bytes_view AgeInput::peek(std::size_t n) {
  fill(n);
  return bytes_view(buf_.data() + at_, std::min(n, buf_.size() - at_));
}

std::string AgeInput::line(std::size_t max, const char* what, Failure failure, bool eof_ends_line) {
  for (std::size_t scanned = 0;;) {
    const auto begin = buf_.begin() + static_cast<std::ptrdiff_t>(at_);
    const auto nl = std::find(begin + static_cast<std::ptrdiff_t>(scanned), buf_.end(), '\n');
    if (nl != buf_.end()) {
      const std::size_t len = static_cast<std::size_t>(nl - begin);
      if (len > max) break;
      std::string out(begin, nl);
      at_ += len + 1;
      consumed_ += len + 1;
      return out;
    }
    scanned = buf_.size() - at_;
    if (scanned > max) break;
    if (!fill(scanned + 1)) {
      if (eof_ends_line && scanned > 0) {  // fill() may have moved the buffer: `begin` is stale
        std::string out(buf_.begin() + static_cast<std::ptrdiff_t>(at_), buf_.end());
        at_ = buf_.size();
        consumed_ += scanned;
        return out;
      }
      throw MalformedFile(failure, std::string(what) + " ends too early (the file is truncated)");
    }
  }
  throw MalformedFile(failure, std::string(what) + " has a line longer than " + std::to_string(max) + " bytes");
}

std::size_t AgeInput::read(mutable_bytes out) {
  std::size_t done = std::min(out.size(), buf_.size() - at_);
  std::memcpy(out.data(), buf_.data() + at_, done);
  at_ += done;
  if (done < out.size() && !ended_) {  // straight from the reader, no copy through buf_
    const std::size_t want = out.size() - done;
    const std::size_t got = read_(out.subspan(done));
    if (got < want) ended_ = true;
    done += got;
  }
  consumed_ += done;
  return done;
}

namespace {

/// Consumes the rest of `in`, which may hold only whitespace.
void expect_only_whitespace(AgeInput& in) {
  for (bytes_view rest = in.peek(4096); !rest.empty(); rest = in.peek(4096)) {
    for (const std::uint8_t c : rest)
      if (!is_space(c)) bad_armor("data after the END line");
    std::uint8_t sink[4096];
    in.read(mutable_bytes(sink, rest.size()));
  }
}

/// The next armor line, without '\n' (or "\r\n"); the END line may end the file without one.
std::string armor_line(AgeInput& in, std::size_t max) {
  std::string l = in.line(max + 1, "armor", Failure::armor, true);
  if (!l.empty() && l.back() == '\r') l.pop_back();
  return l;
}

}  // namespace

StreamReader armor_reader(std::shared_ptr<AgeInput> in) {
  struct State {
    std::shared_ptr<AgeInput> in;
    bool started = false, ended = false;
    bytes decoded;
    std::size_t at = 0;
  };
  auto st = std::make_shared<State>();
  st->in = std::move(in);
  return [st](mutable_bytes out) -> std::size_t {
    AgeInput& in = *st->in;
    std::size_t done = 0;
    while (done < out.size()) {
      if (st->at < st->decoded.size()) {
        const std::size_t n = std::min(out.size() - done, st->decoded.size() - st->at);
        std::memcpy(out.data() + done, st->decoded.data() + st->at, n);
        st->at += n, done += n;
        continue;
      }
      if (st->ended) break;
      if (!st->started) {
        for (bytes_view c = in.peek(1); !c.empty() && is_space(c[0]); c = in.peek(1)) {
          std::uint8_t skip;
          in.read(mutable_bytes(&skip, 1));
        }
        if (armor_line(in, kArmorBegin.size()) != kArmorBegin) bad_armor("no BEGIN line");
        st->started = true;
      }
      const std::string l = armor_line(in, kArmorColumns);
      if (l == kArmorEnd) {
        expect_only_whitespace(in);
        st->ended = true;
        break;
      }
      if (l.empty() || l.size() > kArmorColumns) bad_armor("a data line of the wrong length");
      auto data = base64_decode(l, true);
      if (!data) bad_armor("malformed base64");
      if (l.size() < kArmorColumns || l.back() == '=') {  // the last data line: the END line follows
        if (armor_line(in, kArmorEnd.size()) != kArmorEnd) bad_armor("no END line after the data");
        expect_only_whitespace(in);
        st->ended = true;
      }
      st->decoded = std::move(*data), st->at = 0;
    }
    return done;
  };
}

ArmorWriter::ArmorWriter(StreamSink out) : out_(std::move(out)) {
  const std::string begin = std::string(kArmorBegin) + "\n";
  out_(bytes_view(reinterpret_cast<const std::uint8_t*>(begin.data()), begin.size()));
}

void ArmorWriter::write(bytes_view data) {
  constexpr std::size_t kLineBytes = kArmorColumns / 4 * 3;  // 48
  std::string text;
  auto emit = [&](bytes_view line) { text += base64_encode(line, true) + "\n"; };
  if (!pending_.empty()) {
    const std::size_t take = std::min(kLineBytes - pending_.size(), data.size());
    pending_.insert(pending_.end(), data.begin(), data.begin() + static_cast<std::ptrdiff_t>(take));
    data = data.subspan(take);
    if (pending_.size() < kLineBytes) return;
    emit(pending_);
    pending_.clear();
  }
  std::size_t at = 0;
  for (; at + kLineBytes <= data.size(); at += kLineBytes) emit(data.subspan(at, kLineBytes));
  pending_.assign(data.begin() + static_cast<std::ptrdiff_t>(at), data.end());
  if (!text.empty()) out_(bytes_view(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

void ArmorWriter::finish() {
  std::string text;
  if (!pending_.empty()) text += base64_encode(pending_, true) + "\n";
  text += std::string(kArmorEnd) + "\n";
  out_(bytes_view(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace cryptaccel::age

#include "age/header.hpp"

#include "age/age_base64.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel::age {
namespace {

constexpr std::string_view kVersionLine = "age-encryption.org/v1";
constexpr std::size_t kBodyColumns = 64;
/// Longest header line read (an argument line of a plugin stanza can be long; 64 KiB is far beyond any real one).
constexpr std::size_t kMaxLine = 64 * 1024;
/// Most header bytes read before giving up (a denial-of-service bound; real headers are hundreds of bytes).
constexpr std::size_t kMaxHeader = 16 * 1024 * 1024;

[[noreturn]] void bad(const std::string& why) { throw MalformedFile(Failure::header, "age header: " + why); }

bool is_arg_char(char c) { return c >= 0x21 && c <= 0x7e; }

}  // namespace

std::string header_mac_input(const std::vector<Stanza>& stanzas) {
  std::string text = std::string(kVersionLine) + "\n";
  for (const Stanza& s : stanzas) {
    text += "-> " + s.type;
    for (const std::string& a : s.args) text += " " + a;
    text += "\n";
    const std::string body = base64_encode(s.body, false);
    std::size_t at = 0;
    for (; at + kBodyColumns <= body.size(); at += kBodyColumns) text += body.substr(at, kBodyColumns) + "\n";
    text += body.substr(at) + "\n";  // the last line is shorter than 64 columns, possibly empty
  }
  return text + "---";
}

Header read_header(AgeInput& in) {
  Header h;
  auto next = [&] {
    std::string l = in.line(kMaxLine, "age header", Failure::header);
    h.mac_input += l + "\n";
    if (h.mac_input.size() > kMaxHeader) bad("longer than 16 MiB");
    return l;
  };
  if (next() != kVersionLine) bad("not an age file (the first line is not \"age-encryption.org/v1\")");
  for (;;) {
    const std::string l = next();
    if (l.rfind("--- ", 0) == 0) {
      h.mac_input.resize(h.mac_input.size() - l.size() - 1);
      h.mac_input += "---";
      const auto mac = base64_decode(std::string_view(l).substr(4), false);
      if (!mac || mac->size() != 32) bad("malformed MAC line");
      std::copy(mac->begin(), mac->end(), h.mac.begin());
      if (h.stanzas.empty()) bad("no recipient stanza");
      return h;
    }
    if (l.rfind("-> ", 0) != 0) bad("expected a stanza (\"-> \") or the MAC line (\"--- \")");
    Stanza s;
    std::size_t at = 3;
    for (;;) {  // arguments: non-empty runs of visible ASCII separated by single spaces
      const std::size_t end = l.find(' ', at);
      const std::string arg = l.substr(at, end == std::string::npos ? std::string::npos : end - at);
      if (arg.empty()) bad("empty stanza argument");
      for (const char c : arg)
        if (!is_arg_char(c)) bad("stanza argument with a character outside visible ASCII");
      (s.type.empty() ? s.type : s.args.emplace_back()) = arg;
      if (end == std::string::npos) break;
      at = end + 1;
    }
    std::string body;
    for (;;) {
      const std::string b = next();
      if (b.size() > kBodyColumns) bad("stanza body line longer than 64 columns");
      body += b;
      if (b.size() < kBodyColumns) break;
    }
    auto decoded = base64_decode(body, false);
    if (!decoded) bad("malformed stanza body (not canonical unpadded base64)");
    s.body = std::move(*decoded);
    h.stanzas.push_back(std::move(s));
  }
}

}  // namespace cryptaccel::age

// PEM block scanning (see the header).
#include "rsa/pem_blocks.hpp"

#include <string>

namespace cryptaccel::rsa {

bool looks_like_pem(std::string_view text) { return text.find("-----BEGIN ") != std::string_view::npos; }

std::vector<PemBlock> pem_blocks(std::string_view text) {
  static constexpr std::string_view kBegin = "-----BEGIN ", kDashes = "-----";
  std::vector<PemBlock> blocks;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t begin = text.find(kBegin, pos);
    if (begin == std::string_view::npos) break;
    const std::size_t label_at = begin + kBegin.size();
    const std::size_t label_end = text.find(kDashes, label_at);
    if (label_end == std::string_view::npos) break;
    const std::string_view label = text.substr(label_at, label_end - label_at);
    const std::string end_line = "-----END " + std::string(label) + "-----";
    const std::size_t end = text.find(end_line, label_end + kDashes.size());
    if (end == std::string_view::npos) {
      blocks.push_back({label, text.substr(begin)});
      break;
    }
    blocks.push_back({label, text.substr(begin, end + end_line.size() - begin)});
    pos = end + end_line.size();
  }
  return blocks;
}

}  // namespace cryptaccel::rsa

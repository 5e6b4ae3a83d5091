// The PEM blocks of a text, as key-file readers see them (decode_key: the first block of the kind asked for).
#pragma once
#include <string_view>
#include <vector>

namespace cryptaccel::rsa {

/// One PEM block: its label ("PRIVATE KEY") and its text from the BEGIN line to the end of the END line.
struct PemBlock {
  std::string_view label;
  std::string_view text;
};

/// Whether `text` has a "-----BEGIN " line (then it is read as PEM when the encoding is detected).
bool looks_like_pem(std::string_view text);

/// The PEM blocks of `text`, in order (text outside them is skipped, as PEM readers do). A block without its END
/// line runs to the end of the text (the decoder then says it is malformed).
std::vector<PemBlock> pem_blocks(std::string_view text);

}  // namespace cryptaccel::rsa

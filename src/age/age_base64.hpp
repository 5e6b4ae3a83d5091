// Base64 as the age format writes it: the standard alphabet, strict and canonical. Header arguments and stanza
// bodies use it without padding (Go's RawStdEncoding.Strict()), the armor with padding. Not the CLI's `enc -a`
// codec (src/cli/base64_stream.hpp), which follows openssl's lenient reading (any line length, whitespace skipped):
// age refuses every non-canonical encoding so that a file has exactly one header MAC.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "cryptaccel/types.hpp"

namespace cryptaccel::age {

/// `data` in base64, with '=' padding or without.
std::string base64_encode(bytes_view data, bool padded);

/// Decodes `text` (no whitespace): with `padded`, a length that is a multiple of 4 with the right '=' count;
/// without, no '=' at all. Nullopt for a character outside the alphabet, an impossible length, or unused bits that
/// are not zero (a non-canonical encoding).
std::optional<bytes> base64_decode(std::string_view text, bool padded);

}  // namespace cryptaccel::age

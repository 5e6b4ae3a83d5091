// Hexadecimal: strict decoding for key and IV arguments, and encoding.
#pragma once
#include <string>
#include <string_view>

#include "cryptaccel/types.hpp"

namespace cryptaccel::cli {

/// Decodes `text`: two hex digits per byte, either case, nothing else (no "0x", no spaces). An empty string gives no
/// bytes. Throws std::invalid_argument with a one-line reason (odd length, or the first non-hex character).
bytes parse_hex(std::string_view text);

/// Encodes `data` as two hex digits per byte, lower case (upper case when `upper`).
std::string to_hex(bytes_view data, bool upper = false);

}  // namespace cryptaccel::cli

// cryptaccel — hexadecimal, the one implementation the library, the CLI and Python share.
#pragma once
#include <string>
#include <string_view>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// Two hex digits per byte of `data`, lower case (upper case when `upper`).
std::string to_hex(bytes_view data, bool upper = false);

/// Decodes two hex digits per byte, either case, nothing else (no "0x", no spaces); an empty string gives no bytes.
/// The digits are decoded without branches or table lookups on their values (hex keys are secrets). Throws
/// InvalidArgument with a one-line reason: "not a hex digit: 'g' at position 3" or "odd number of hex digits (5)".
bytes from_hex(std::string_view text);

}  // namespace cryptaccel

// Bech32 (BIP 173; not Bech32m), the text form of age's keys: "age1..." recipients and "AGE-SECRET-KEY-1..."
// identities. age lifts BIP 173's 90-character limit (an identity is 74 characters, a post-quantum key far longer).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel::age {

/// A decoded Bech32 string: the human-readable part as written (lower- or upper-case) and the data bytes.
struct Bech32 {
  std::string hrp;
  std::vector<std::uint8_t> data;
};

/// Encodes `data` (8-bit bytes, regrouped into 5-bit symbols) under `hrp`; `upper` writes the whole string in capitals
/// (age's identities).
std::string bech32_encode(std::string_view hrp, const std::vector<std::uint8_t>& data, bool upper = false);

/// Decodes a Bech32 string, or nullopt: mixed case, a character outside the charset, a bad checksum, or padding bits
/// that are not zero (BIP 173's rules, without the length limit).
std::optional<Bech32> bech32_decode(std::string_view text);

}  // namespace cryptaccel::age

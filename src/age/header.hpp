// The age header (age-encryption.org/v1 §"Header"): the version line, stanzas ("-> TYPE ARGS..." and a base64 body
// in 64-column lines ending with a shorter one) and the MAC line ("--- " + base64 of HMAC-SHA-256).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "age/age_input.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::age {

/// One recipient stanza.
struct Stanza {
  std::string type;
  std::vector<std::string> args;
  bytes body;
};

/// A parsed header: its stanzas, the exact bytes the MAC covers (from the version line to "---" inclusive) and the
/// MAC.
struct Header {
  std::vector<Stanza> stanzas;
  std::string mac_input;
  std::array<std::uint8_t, 32> mac{};
};

/// The header text up to and including "---" for `stanzas` (what the MAC covers).
std::string header_mac_input(const std::vector<Stanza>& stanzas);

/// Reads a header from `in`, strictly (the version line, argument characters, canonical base64, body line lengths).
/// Throws MalformedFile(Failure::header, "age header: ...").
Header read_header(AgeInput& in);

}  // namespace cryptaccel::age

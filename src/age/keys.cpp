// age's X25519 recipients and identities, their Bech32 text forms, and identity / recipients files.
#include <ctime>
#include <string>

#include "age/age_primitives.hpp"
#include "age/bech32.hpp"
#include "cryptaccel/age.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel::age {
namespace {

constexpr std::string_view kRecipientHrp = "age";
constexpr std::string_view kIdentityHrp = "AGE-SECRET-KEY-";

/// Lines of `text` without comments ('#' first) and blank lines, each with its 1-based line number.
template <class F>
void for_each_key_line(std::string_view text, F f) {
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    f(line, number);
  }
}

}  // namespace

Recipient Recipient::parse(std::string_view text) {
  const auto decoded = bech32_decode(text);
  if (!decoded || decoded->hrp != kRecipientHrp)
    throw InvalidArgument("not an age recipient (expected age1..., an X25519 public key): '" + std::string(text) + "'");
  if (decoded->data.size() != 32)
    throw InvalidArgument("an age1 recipient must hold 32 bytes, this one holds " +
                          std::to_string(decoded->data.size()));
  std::array<std::uint8_t, 32> key{};
  std::copy(decoded->data.begin(), decoded->data.end(), key.begin());
  return Recipient(key);
}

std::string Recipient::to_string() const {
  return bech32_encode(kRecipientHrp, std::vector<std::uint8_t>(key_.begin(), key_.end()));
}

Identity Identity::generate() {
  std::array<std::uint8_t, 32> secret{};
  random_fill(secret);
  Identity id(secret);
  secure_wipe(secret.data(), secret.size());
  return id;
}

Identity Identity::parse(std::string_view text) {
  auto decoded = bech32_decode(text);
  if (!decoded || decoded->hrp != kIdentityHrp)
    throw InvalidArgument("not an age identity (expected AGE-SECRET-KEY-1..., an X25519 secret key)");
  if (decoded->data.size() != 32) {
    secure_wipe(decoded->data.data(), decoded->data.size());
    throw InvalidArgument("an AGE-SECRET-KEY-1 identity must hold 32 bytes");
  }
  std::array<std::uint8_t, 32> secret{};
  std::copy(decoded->data.begin(), decoded->data.end(), secret.begin());
  secure_wipe(decoded->data.data(), decoded->data.size());
  Identity id(secret);
  secure_wipe(secret.data(), secret.size());
  return id;
}

Identity::~Identity() { secure_wipe(secret_.data(), secret_.size()); }

std::string Identity::to_string() const {
  std::vector<std::uint8_t> data(secret_.begin(), secret_.end());
  std::string text = bech32_encode(kIdentityHrp, data, true);
  secure_wipe(data.data(), data.size());
  return text;
}

Recipient Identity::recipient() const { return Recipient(x25519_public(secret_)); }

std::vector<Identity> parse_identities(std::string_view text) {
  std::vector<Identity> out;
  for_each_key_line(text, [&](std::string_view line, std::size_t number) {
    try {
      out.push_back(Identity::parse(line));
    } catch (const InvalidArgument&) {
      throw InvalidArgument("identity file line " + std::to_string(number) +
                            ": not an AGE-SECRET-KEY-1... identity (nor a '#' comment)");
    }
  });
  if (out.empty()) throw InvalidArgument("no identity in the identity file");
  return out;
}

std::vector<Recipient> parse_recipients(std::string_view text) {
  std::vector<Recipient> out;
  for_each_key_line(text, [&](std::string_view line, std::size_t number) {
    try {
      out.push_back(Recipient::parse(line));
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("recipients file line " + std::to_string(number) + ": " + e.what());
    }
  });
  if (out.empty()) throw InvalidArgument("no recipient in the recipients file");
  return out;
}

std::string identity_file(const Identity& identity) {
  char when[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string("# created: ") + when + "\n# public key: " + identity.recipient().to_string() + "\n" +
         identity.to_string() + "\n";
}

}  // namespace cryptaccel::age

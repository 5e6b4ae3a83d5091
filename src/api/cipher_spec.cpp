#include <algorithm>
#include <cctype>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel {
namespace {

struct NamedCipher {
  const char* name;
  BlockCipher cipher;
};
constexpr NamedCipher kCiphers[] = {
    {"aes-128", BlockCipher::aes128}, {"aes-192", BlockCipher::aes192}, {"aes-256", BlockCipher::aes256}, {"sm4", BlockCipher::sm4},
    {"chacha20", BlockCipher::chacha20}};

struct NamedMode {
  const char* name;
  Mode mode;
};
constexpr NamedMode kModes[] = {{"ecb", Mode::ecb}, {"cbc", Mode::cbc}, {"ctr", Mode::ctr}, {"gcm", Mode::gcm}, {"xts", Mode::xts},
                                {"poly1305", Mode::poly1305}};

/// XTS is defined for AES-128 and AES-256 only (IEEE 1619); ChaCha20 comes only as ChaCha20-Poly1305, and Poly1305
/// only with it; every other pair is supported.
bool is_supported(BlockCipher c, Mode m) {
  if ((c == BlockCipher::chacha20) != (m == Mode::poly1305)) return false;
  return m != Mode::xts || c == BlockCipher::aes128 || c == BlockCipher::aes256;
}

}  // namespace

std::size_t block_cipher_key_size(BlockCipher c) {
  switch (c) {
    case BlockCipher::aes128: return 16;
    case BlockCipher::aes192: return 24;
    case BlockCipher::aes256: return 32;
    case BlockCipher::sm4: return 16;
    case BlockCipher::chacha20: return 32;
  }
  return 0;
}

CipherSpec CipherSpec::parse(std::string_view text) {
  std::string name(text);
  if (!name.empty() && name.front() == '-') name.erase(0, 1);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  for (const auto& c : kCiphers) {
    const std::string prefix = std::string(c.name) + "-";
    if (name.rfind(prefix, 0) != 0) continue;
    for (const auto& m : kModes) {
      if (name.substr(prefix.size()) == m.name && is_supported(c.cipher, m.mode)) return CipherSpec{c.cipher, m.mode, true};
    }
  }
  throw InvalidArgument("unknown or unsupported cipher '" + std::string(text) + "'");
}

std::string CipherSpec::name() const {
  std::string out;
  for (const auto& c : kCiphers)
    if (c.cipher == cipher) out = c.name;
  for (const auto& m : kModes)
    if (m.mode == mode) out += std::string("-") + m.name;
  return out;
}

std::size_t CipherSpec::key_size() const {
  return block_cipher_key_size(cipher) * (mode == Mode::xts ? 2 : 1);
}

std::size_t CipherSpec::iv_size() const {
  switch (mode) {
    case Mode::ecb: return 0;
    case Mode::gcm:
    case Mode::poly1305: return 12;
    default: return 16;
  }
}

std::vector<std::string> cipher_names() {
  std::vector<std::string> names;
  for (const auto& c : kCiphers)
    for (const auto& m : kModes)
      if (is_supported(c.cipher, m.mode)) names.push_back(std::string(c.name) + "-" + m.name);
  return names;
}

}  // namespace cryptaccel

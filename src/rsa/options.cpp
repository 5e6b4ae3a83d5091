// The RSA options vocabulary shared by `cryptaccel pkeyutl`, Python and C++ callers: padding names and the PSS salt
// policy (include/cryptaccel/rsa.hpp).
#include <charconv>
#include <string>

#include "cryptaccel/error.hpp"
#include "cryptaccel/rsa.hpp"

namespace cryptaccel::rsa {

SignaturePadding parse_signature_padding(std::string_view name) {
  if (name == "pkcs1" || name == "pkcs1v15") return SignaturePadding::pkcs1v15;
  if (name == "pss") return SignaturePadding::pss;
  throw InvalidArgument("unknown signature padding '" + std::string(name) + "' (use 'pkcs1', 'pkcs1v15' or 'pss')");
}

EncryptionPadding parse_encryption_padding(std::string_view name) {
  if (name == "oaep") return EncryptionPadding::oaep;
  if (name == "pkcs1" || name == "pkcs1v15") return EncryptionPadding::pkcs1v15;
  throw InvalidArgument("unknown encryption padding '" + std::string(name) + "' (use 'oaep', 'pkcs1' or 'pkcs1v15')");
}

void set_pss_salt(SignOptions& options, std::string_view text) {
  if (text == "digest" || text == "-1") {
    options.salt = PssSalt::digest;
  } else if (text == "max" || text == "-3") {
    options.salt = PssSalt::max;
  } else if (text == "auto" || text == "-2") {
    options.salt = PssSalt::auto_max;
  } else if (text == "auto-digestmax" || text == "-4") {
    options.salt = PssSalt::auto_digestmax;
  } else {
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      throw InvalidArgument("PSS salt length '" + std::string(text) +
                            "' is not a number, digest, max, auto or auto-digestmax");
    options.salt = PssSalt::given;
    options.salt_length = n;
    return;
  }
  options.salt_length.reset();
}

std::size_t max_pss_salt(std::size_t bits, HashAlgorithm hash) {
  const std::size_t em_len = (bits - 1 + 7) / 8, h_len = digest_size(hash);
  return em_len >= h_len + 2 ? em_len - h_len - 2 : 0;
}

std::optional<std::size_t> pss_salt_length(const SignOptions& options, std::size_t bits, bool signing) {
  const std::size_t h_len = digest_size(options.hash), max = max_pss_salt(bits, options.hash);
  switch (options.salt) {
    case PssSalt::given:
      if (options.salt_length) return options.salt_length;
      return signing ? std::optional<std::size_t>(h_len) : std::nullopt;
    case PssSalt::digest: return h_len;
    case PssSalt::max: return max;
    case PssSalt::auto_max: return signing ? std::optional<std::size_t>(max) : std::nullopt;
    case PssSalt::auto_digestmax:
      return signing ? std::optional<std::size_t>(std::min(h_len, max)) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace cryptaccel::rsa

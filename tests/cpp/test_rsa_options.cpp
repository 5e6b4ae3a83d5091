// The RSA options vocabulary (include/cryptaccel/rsa.hpp): padding names and openssl's rsa_pss_saltlen words, as
// `cryptaccel pkeyutl` and Python read them.
#include <gtest/gtest.h>

#include "cryptaccel/error.hpp"
#include "cryptaccel/rsa.hpp"

namespace rsa = cryptaccel::rsa;
using cryptaccel::HashAlgorithm;

TEST(RsaOptions, PaddingNames) {
  EXPECT_EQ(rsa::parse_signature_padding("pkcs1"), rsa::SignaturePadding::pkcs1v15);
  EXPECT_EQ(rsa::parse_signature_padding("pkcs1v15"), rsa::SignaturePadding::pkcs1v15);
  EXPECT_EQ(rsa::parse_signature_padding("pss"), rsa::SignaturePadding::pss);
  EXPECT_EQ(rsa::parse_encryption_padding("pkcs1"), rsa::EncryptionPadding::pkcs1v15);
  EXPECT_EQ(rsa::parse_encryption_padding("oaep"), rsa::EncryptionPadding::oaep);
  EXPECT_THROW(rsa::parse_signature_padding("oaep"), cryptaccel::InvalidArgument);
  EXPECT_THROW(rsa::parse_encryption_padding("pss"), cryptaccel::InvalidArgument);
}

TEST(RsaOptions, PssSaltWordsResolvePerKey) {
  // RFC 8017 9.1.1: emLen - hLen - 2, emLen = ceil((bits - 1) / 8).
  EXPECT_EQ(rsa::max_pss_salt(2048, HashAlgorithm::sha256), 256u - 32 - 2);
  EXPECT_EQ(rsa::max_pss_salt(1025, HashAlgorithm::sha512), 128u - 64 - 2);
  EXPECT_EQ(rsa::max_pss_salt(1024, HashAlgorithm::sha512), 128u - 64 - 2);
  EXPECT_EQ(rsa::max_pss_salt(500, HashAlgorithm::sha512), 0u);  // too small for the hash

  const auto resolve = [](const char* word, std::size_t bits, bool signing) {
    rsa::SignOptions o;
    rsa::set_pss_salt(o, word);
    return rsa::pss_salt_length(o, bits, signing);
  };
  for (const std::size_t bits : {1024u, 2048u, 4096u}) {
    const std::size_t max = rsa::max_pss_salt(bits, HashAlgorithm::sha256);
    EXPECT_EQ(resolve("max", bits, true), max);
    EXPECT_EQ(resolve("-3", bits, false), max);
    EXPECT_EQ(resolve("digest", bits, true), 32u);
    EXPECT_EQ(resolve("-1", bits, false), 32u);
    EXPECT_EQ(resolve("auto", bits, true), max);
    EXPECT_EQ(resolve("-2", bits, false), std::nullopt);
    EXPECT_EQ(resolve("auto-digestmax", bits, true), 32u);
    EXPECT_EQ(resolve("-4", bits, false), std::nullopt);
    EXPECT_EQ(resolve("20", bits, true), 20u);
    EXPECT_EQ(resolve("0", bits, false), 0u);
  }
  rsa::SignOptions unset;  // no word: the digest length when signing, any when verifying
  EXPECT_EQ(rsa::pss_salt_length(unset, 2048, true), 32u);
  EXPECT_EQ(rsa::pss_salt_length(unset, 2048, false), std::nullopt);
  rsa::SignOptions o;
  for (const char* bad : {"", "most", "-5", "1x", "+3"}) EXPECT_THROW(rsa::set_pss_salt(o, bad), cryptaccel::InvalidArgument) << bad;
}

// rsa::decode_key (include/cryptaccel/rsa_key_decode.hpp), the key-file reader of `cryptaccel pkeyutl -inkey`: PEM and
// DER, private and public keys and certificates, passwords, RSA-PSS restrictions, and the typed error for every
// kind of failure (wrong password, garbage, another kind of object, the wrong encoding, a non-RSA key).
#include <gtest/gtest.h>
#include <openssl/encoder.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "cryptaccel/rsa.hpp"
#include "cryptaccel/rsa_key_decode.hpp"

namespace cryptaccel {
namespace {

using rsa::KeyDecodeError;
using rsa::KeyDecodeFailure;
using rsa::KeyEncoding;
using rsa::KeySource;

struct PkeyDel {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyDel>;

/// `pkey` encoded by OpenSSL: `selection` (EVP_PKEY_KEYPAIR / EVP_PKEY_PUBLIC_KEY) as `type` ("PEM", "DER") in
/// `structure` ("PrivateKeyInfo", "SubjectPublicKeyInfo", "type-specific").
bytes encode(EVP_PKEY* pkey, int selection, const char* type, const char* structure) {
  OSSL_ENCODER_CTX* ctx = OSSL_ENCODER_CTX_new_for_pkey(pkey, selection, type, structure, nullptr);
  unsigned char* data = nullptr;
  std::size_t len = 0;
  const bool ok = ctx && OSSL_ENCODER_to_data(ctx, &data, &len) == 1;
  OSSL_ENCODER_CTX_free(ctx);
  if (!ok) throw std::runtime_error("cannot encode a test key");
  bytes out(data, data + len);
  OPENSSL_free(data);
  return out;
}

bytes as_bytes(const std::string& s) { return bytes(s.begin(), s.end()); }

/// A self-signed certificate for `pkey` (PEM, or DER).
bytes certificate(EVP_PKEY* pkey, bool pem) {
  X509* x = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), 0);
  X509_gmtime_adj(X509_getm_notAfter(x), 3600);
  X509_set_pubkey(x, pkey);
  X509_NAME* name = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("test"), -1, -1, 0);
  X509_set_issuer_name(x, name);
  EXPECT_GT(X509_sign(x, pkey, EVP_sha256()), 0);
  bytes out;
  if (pem) {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, x);
    char* p = nullptr;
    const long n = BIO_get_mem_data(bio, &p);
    out.assign(p, p + n);
    BIO_free(bio);
  } else {
    unsigned char* der = nullptr;
    const int n = i2d_X509(x, &der);
    out.assign(der, der + n);
    OPENSSL_free(der);
  }
  X509_free(x);
  return out;
}

/// One 1024-bit RSA key for the whole file.
EVP_PKEY* test_pkey() {
  static Pkey key(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(1024)));
  return key.get();
}

/// The failure decode_key reports for these arguments (nullopt, and a test failure, when it succeeds).
std::optional<KeyDecodeError> failure_of(const bytes& data, KeySource source, KeyEncoding encoding = KeyEncoding::detect,
                                         const rsa::PasswordSource& password = {}) {
  try {
    (void)rsa::decode_key(data, source, encoding, password);
  } catch (const KeyDecodeError& e) {
    return e;
  }
  ADD_FAILURE() << "decode_key succeeded";
  return std::nullopt;
}

rsa::PasswordSource password(const std::string& value) {
  return [value] { return value; };
}

TEST(RsaKeyDecode, PrivateKeysInEveryEncoding) {
  EVP_PKEY* pkey = test_pkey();
  const bytes spki = encode(pkey, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo");
  const rsa::PublicKey expected = rsa::PublicKey::from_der(spki);
  for (const char* structure : {"PrivateKeyInfo", "type-specific"}) {
    for (const char* type : {"PEM", "DER"}) {
      const bytes data = encode(pkey, EVP_PKEY_KEYPAIR, type, structure);
      for (KeyEncoding encoding : {KeyEncoding::detect, std::string(type) == "PEM" ? KeyEncoding::pem : KeyEncoding::der}) {
        const rsa::DecodedKey key = rsa::decode_key(data, KeySource::private_key, encoding);
        ASSERT_TRUE(key.private_key) << structure << " " << type;
        EXPECT_EQ(key.private_key->public_key().n(), expected.n());
        EXPECT_EQ(key.public_key.n(), expected.n());
        EXPECT_EQ(key.public_key.e(), expected.e());
        EXPECT_FALSE(key.rsa_pss);
        EXPECT_FALSE(key.pss);
      }
      // Asked for a public key, a private key's data is refused (as by openssl -pubin), naming what it holds.
      const auto e = failure_of(data, KeySource::public_key);
      ASSERT_TRUE(e);
      EXPECT_EQ(e->failure(), KeyDecodeFailure::other_kind) << e->what();
      EXPECT_EQ(e->holds(), KeySource::private_key);
    }
  }
  // The decoded key signs like the original.
  const rsa::DecodedKey key =
      rsa::decode_key(encode(pkey, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo"), KeySource::private_key);
  const bytes msg = {1, 2, 3};
  EXPECT_TRUE(rsa::verify(expected, msg, rsa::sign(*key.private_key, msg)));
}

TEST(RsaKeyDecode, PublicKeysAndCertificates) {
  EVP_PKEY* pkey = test_pkey();
  const rsa::PublicKey expected = rsa::PublicKey::from_der(encode(pkey, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo"));
  for (const char* structure : {"SubjectPublicKeyInfo", "type-specific"}) {
    for (const char* type : {"PEM", "DER"}) {
      const rsa::DecodedKey key =
          rsa::decode_key(encode(pkey, EVP_PKEY_PUBLIC_KEY, type, structure), KeySource::public_key);
      EXPECT_FALSE(key.private_key);
      EXPECT_EQ(key.public_key.n(), expected.n()) << structure << " " << type;
    }
  }
  for (bool pem : {true, false}) {
    const bytes cert = certificate(pkey, pem);
    const rsa::DecodedKey key = rsa::decode_key(cert, KeySource::certificate);
    EXPECT_EQ(key.public_key.n(), expected.n());
    const auto e = failure_of(cert, KeySource::public_key);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->failure(), KeyDecodeFailure::other_kind) << e->what();
    EXPECT_EQ(e->holds(), KeySource::certificate);
    EXPECT_EQ(e->pem(), pem);
  }
  // A PEM file with a certificate and then its key: each source finds its own block.
  bytes both = certificate(pkey, true);
  const bytes private_pem = encode(pkey, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo");
  both.insert(both.end(), private_pem.begin(), private_pem.end());
  EXPECT_TRUE(rsa::decode_key(both, KeySource::private_key).private_key);
  EXPECT_EQ(rsa::decode_key(both, KeySource::certificate).public_key.n(), expected.n());
}

TEST(RsaKeyDecode, Passwords) {
  const rsa::PrivateKey key = rsa::PrivateKey::from_der(encode(test_pkey(), EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo"));
  const bytes encrypted = as_bytes(key.to_pem("correct horse"));
  EXPECT_EQ(rsa::decode_key(encrypted, KeySource::private_key, KeyEncoding::detect, password("correct horse"))
                .private_key->public_key()
                .n(),
            key.public_key().n());

  auto e = failure_of(encrypted, KeySource::private_key, KeyEncoding::detect, password("wrong"));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::undecodable);
  EXPECT_STREQ(e->what(), "wrong password, or malformed");

  e = failure_of(encrypted, KeySource::private_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::needs_password);

  // The password source is asked once, for private keys only, and its exception reaches the caller unchanged.
  int asked = 0;
  const rsa::PasswordSource counting = [&] {
    ++asked;
    return std::string("correct horse");
  };
  (void)rsa::decode_key(encrypted, KeySource::private_key, KeyEncoding::detect, counting);
  EXPECT_EQ(asked, 1);
  (void)rsa::decode_key(as_bytes(key.public_key().to_pem()), KeySource::public_key, KeyEncoding::detect, counting);
  EXPECT_EQ(asked, 1);
  const rsa::PasswordSource throwing = []() -> std::string { throw std::runtime_error("no terminal"); };
  EXPECT_THROW((void)rsa::decode_key(encrypted, KeySource::private_key, KeyEncoding::detect, throwing),
               std::runtime_error);
}

TEST(RsaKeyDecode, GarbageAndWrongEncodings) {
  const bytes garbage = as_bytes("this is not a key at all");
  auto e = failure_of(garbage, KeySource::private_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::not_found);
  EXPECT_FALSE(e->pem());
  e = failure_of(garbage, KeySource::public_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::not_found);
  EXPECT_STREQ(e->what(), "not a public key in DER, or malformed");
  // A PEM block of the right kind whose body is not a key.
  e = failure_of(as_bytes("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"), KeySource::private_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::undecodable);
  EXPECT_TRUE(e->pem());
  // PEM without the block asked for.
  e = failure_of(as_bytes("-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n"), KeySource::public_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::not_found);
  EXPECT_STREQ(e->what(), "not a public key: no PUBLIC KEY PEM block in it");
  // The encoding forced the wrong way.
  const bytes pem = encode(test_pkey(), EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo");
  const bytes der = encode(test_pkey(), EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo");
  e = failure_of(pem, KeySource::private_key, KeyEncoding::der);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::wrong_encoding);
  e = failure_of(der, KeySource::private_key, KeyEncoding::pem);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::wrong_encoding);
  // Every failure is an InvalidArgument too.
  EXPECT_THROW((void)rsa::decode_key(garbage, KeySource::certificate), InvalidArgument);
}

TEST(RsaKeyDecode, OtherKeyTypesAndUnusableKeys) {
  Pkey ec(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  auto e = failure_of(encode(ec.get(), EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo"), KeySource::private_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::not_rsa);
  EXPECT_STREQ(e->what(), "not an RSA key (EC)");
  Pkey small(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(512)));
  e = failure_of(encode(small.get(), EVP_PKEY_PUBLIC_KEY, "PEM", "SubjectPublicKeyInfo"), KeySource::public_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure(), KeyDecodeFailure::unusable);
}

TEST(RsaKeyDecode, RsaPssKeysCarryTheirRestrictions) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA-PSS", nullptr);
  ASSERT_TRUE(ctx);
  EVP_PKEY* raw = nullptr;
  ASSERT_EQ(EVP_PKEY_keygen_init(ctx), 1);
  ASSERT_EQ(EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, 1024), 1);
  ASSERT_EQ(EVP_PKEY_CTX_set_rsa_pss_keygen_md(ctx, EVP_sha256()), 1);
  ASSERT_EQ(EVP_PKEY_CTX_set_rsa_pss_keygen_mgf1_md(ctx, EVP_sha384()), 1);
  ASSERT_EQ(EVP_PKEY_CTX_set_rsa_pss_keygen_saltlen(ctx, 20), 1);
  ASSERT_EQ(EVP_PKEY_generate(ctx, &raw), 1);
  EVP_PKEY_CTX_free(ctx);
  Pkey pss(raw);
  const rsa::DecodedKey key =
      rsa::decode_key(encode(pss.get(), EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo"), KeySource::private_key);
  EXPECT_TRUE(key.rsa_pss);
  ASSERT_TRUE(key.pss);
  EXPECT_EQ(key.pss->hash, HashAlgorithm::sha256);
  EXPECT_EQ(key.pss->mgf1_hash, HashAlgorithm::sha384);
  EXPECT_EQ(key.pss->min_salt, 20u);
  ASSERT_TRUE(key.private_key);  // a plain RSA key with the same numbers
  EXPECT_EQ(key.private_key->public_key().n(), key.public_key.n());
}

}  // namespace
}  // namespace cryptaccel

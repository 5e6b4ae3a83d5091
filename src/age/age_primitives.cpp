#include "age/age_primitives.hpp"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <memory>
#include <string>

#include "cryptaccel/error.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::age {
namespace {

[[noreturn]] void fail(const std::string& what) {
  ERR_clear_error();
  throw Error("age: " + what + " failed (OpenSSL)");
}

PkeyPtr private_key(const Key32& secret) {
  PkeyPtr k(EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, secret.data(), secret.size()));
  if (!k) fail("X25519 key set-up");
  return k;
}

}  // namespace

void random_fill(mutable_bytes out) {
  if (!out.empty() && RAND_bytes(out.data(), static_cast<int>(out.size())) != 1) fail("RAND_bytes");
}

Key32 x25519_public(const Key32& secret) {
  const PkeyPtr k = private_key(secret);
  Key32 pub{};
  std::size_t len = pub.size();
  if (EVP_PKEY_get_raw_public_key(k.get(), pub.data(), &len) != 1 || len != pub.size()) fail("X25519 public key");
  return pub;
}

std::optional<Key32> x25519_shared(const Key32& secret, const Key32& peer) {
  const PkeyPtr mine = private_key(secret);
  const PkeyPtr theirs(EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, peer.data(), peer.size()));
  if (!theirs) fail("X25519 peer key");
  PkeyCtxPtr ctx(EVP_PKEY_CTX_new(mine.get(), nullptr));
  Key32 shared{};
  std::size_t len = shared.size();
  // OpenSSL itself refuses an all-zero result (a low-order point) in EVP_PKEY_derive.
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer(ctx.get(), theirs.get()) != 1 ||
      EVP_PKEY_derive(ctx.get(), shared.data(), &len) != 1 || len != shared.size()) {
    ERR_clear_error();
    return std::nullopt;
  }
  unsigned char any = 0;
  for (const std::uint8_t b : shared) any |= b;
  if (!any) return std::nullopt;
  return shared;
}

void hkdf_sha256(bytes_view ikm, bytes_view salt, std::string_view info, mutable_bytes out) {
  static EVP_KDF* const kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  if (!kdf) fail("HKDF fetch");
  KdfCtxPtr ctx(EVP_KDF_CTX_new(kdf));
  char digest[] = "SHA256";
  // An empty salt is left out: HKDF then uses HashLen zero bytes, which RFC 5869 defines as the same thing.
  OSSL_PARAM params[5];
  std::size_t n = 0;
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0);
  params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(ikm.data()), ikm.size());
  if (!salt.empty())
    params[n++] =
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<std::uint8_t*>(salt.data()), salt.size());
  params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(info.data()), info.size());
  params[n] = OSSL_PARAM_construct_end();
  if (!ctx || EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) != 1) fail("HKDF-SHA-256");
}

Key32 hmac_sha256(bytes_view key, bytes_view data) {
  Key32 mac{};
  unsigned len = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), data.data(), data.size(), mac.data(), &len) ||
      len != mac.size())
    fail("HMAC-SHA-256");
  return mac;
}

Key32 scrypt_key(std::string_view passphrase, bytes_view salt, unsigned log2_n) {
  Key32 key{};
  const std::uint64_t n = std::uint64_t{1} << log2_n;
  // Memory: 128 r N bytes = 2^(log2_n + 10); max_mem a little above it.
  const std::uint64_t max_mem = (std::uint64_t{128} * 8 * n) + (std::uint64_t{1} << 20);
  if (EVP_PBE_scrypt(passphrase.data(), passphrase.size(), salt.data(), salt.size(), n, 8, 1, max_mem, key.data(),
                     key.size()) != 1)
    fail("scrypt");
  return key;
}

}  // namespace cryptaccel::age

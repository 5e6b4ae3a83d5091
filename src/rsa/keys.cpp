// RSA keys: parsed, generated and written by OpenSSL libcrypto (OSSL_DECODER through pkey_decode.hpp, EVP_PKEY, PEM;
// no ASN.1 by hand; key files as openssl pkeyutl reads them: key_decode.cpp);
// the numbers are taken out with EVP_PKEY_get_bn_param into wiped limb storage with their Montgomery constants.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "common/secret_buffer.hpp"
#include "rsa/key_impl.hpp"
#include "rsa/pkey_decode.hpp"
#include "common/openssl_error.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::rsa {
namespace {

/// A BIGNUM parameter of `pkey`, or null when the key lacks it.
BnPtr get_bn(const EVP_PKEY* pkey, const char* name) {
  BIGNUM* b = nullptr;
  if (EVP_PKEY_get_bn_param(pkey, name, &b) != 1) return nullptr;
  return BnPtr(b);
}

/// Big-endian bytes of a BIGNUM, exactly `len` bytes (it must fit).
void bn_to(const BIGNUM* b, std::uint8_t* out, std::size_t len) {
  if (BN_bn2binpad(b, out, static_cast<int>(len)) < 0) throw InvalidArgument("rsa: key number out of range");
}

/// `b` as wiped limbs of `limbs` limbs (it must fit, or InvalidArgument).
Limbs bn_limbs(const BIGNUM* b, std::size_t limbs) {
  if (static_cast<std::size_t>(BN_num_bits(b)) > 64 * limbs) throw InvalidArgument("rsa: key number out of range");
  SecretBuffer buf(8 * limbs);
  bn_to(b, buf.data.data(), buf.data.size());
  return limbs_from_bytes(buf.data, limbs);
}

/// A modulus from a BIGNUM (a CRT prime: secret, wiped on the way).
Modulus bn_modulus(const BIGNUM* b, std::size_t limbs) {
  if (static_cast<std::size_t>(BN_num_bits(b)) > 64 * limbs) throw InvalidArgument("rsa: key number out of range");
  SecretBuffer buf(8 * limbs);
  bn_to(b, buf.data.data(), buf.data.size());
  return make_modulus(buf.data, limbs);
}

bytes bn_bytes(const BIGNUM* b) {
  bytes out(static_cast<std::size_t>(BN_num_bytes(b)));
  BN_bn2bin(b, out.data());
  return out;
}

/// Why OpenSSL refused, for an error message: ": reason" ("" when OpenSSL said nothing); clears its queue.
std::string openssl_reason() {
  const std::string reason = openssl_last_reason();
  return reason.empty() ? "" : ": " + reason;
}

/// A public-only EVP_PKEY from (n, e).
PkeyPtr public_pkey(bytes_view n, bytes_view e) {
  BnPtr bn_n(BN_bin2bn(n.data(), static_cast<int>(n.size()), nullptr));
  BnPtr bn_e(BN_bin2bn(e.data(), static_cast<int>(e.size()), nullptr));
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM* params = nullptr;
  EVP_PKEY* pkey = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  const bool ok = bn_n && bn_e && bld && ctx && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n.get()) &&
                  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e.get()) &&
                  (params = OSSL_PARAM_BLD_to_param(bld)) != nullptr && EVP_PKEY_fromdata_init(ctx) == 1 &&
                  EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1;
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  EVP_PKEY_CTX_free(ctx);
  if (!ok) throw InvalidArgument("rsa: cannot build a public key" + openssl_reason());
  return PkeyPtr(pkey);
}

bytes_view as_bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

std::string bio_string(BIO* bio) {
  char* p = nullptr;
  const long n = BIO_get_mem_data(bio, &p);
  return std::string(p, static_cast<std::size_t>(n));
}

PublicKey public_from_pkey(const EVP_PKEY* pkey) {
  BnPtr n = get_bn(pkey, OSSL_PKEY_PARAM_RSA_N), e = get_bn(pkey, OSSL_PKEY_PARAM_RSA_E);
  if (!n || !e) throw InvalidArgument("rsa: not an RSA public key");
  return PublicKey::from_numbers(bn_bytes(n.get()), bn_bytes(e.get()));
}

}  // namespace

// ---- PublicKey ----

PublicKey PublicKey::from_numbers(bytes_view n, bytes_view e) {
  auto impl = std::make_shared<Impl>();
  impl->bits = bit_length(n);
  if (impl->bits < 1024 || impl->bits > 8192)
    throw InvalidArgument("rsa: unsupported key size " + std::to_string(impl->bits) +
                          " bits (1024 to 8192 bits are supported)");
  const std::size_t len = (impl->bits + 7) / 8;
  impl->n_be.assign(n.end() - static_cast<std::ptrdiff_t>(len), n.end());
  const std::size_t e_bits = bit_length(e);
  const std::size_t e_len = (e_bits + 7) / 8;
  impl->e_be.assign(e.end() - static_cast<std::ptrdiff_t>(e_len), e.end());
  if (e_bits < 2 || (impl->e_be.back() & 1) == 0 || e_bits > impl->bits)
    throw InvalidArgument("rsa: the public exponent must be odd, greater than 1 and less than the modulus");
  const std::size_t limbs = limbs_for_bits(impl->bits);
  impl->mod = make_modulus(impl->n_be, limbs);
  impl->e = limbs_from_bytes(impl->e_be, limbs);
  if (!with_limbs(limbs, [&](auto L) { return bn::less_than<decltype(L)::value>(impl->e.data(), impl->mod.n.data()); }))
    throw InvalidArgument("rsa: the public exponent must be less than the modulus");
  impl->pkey = public_pkey(impl->n_be, impl->e_be);
  return PublicKey(std::move(impl));
}

PublicKey PublicKey::from_pem(std::string_view pem) {
  PkeyPtr pkey = decode_pkey(as_bytes(pem), "PEM", "RSA", EVP_PKEY_PUBLIC_KEY, std::nullopt);
  if (!pkey) throw InvalidArgument("rsa: cannot read an RSA public key from the PEM data (SPKI or PKCS#1 expected)");
  return public_from_pkey(pkey.get());
}

PublicKey PublicKey::from_der(bytes_view der) {
  PkeyPtr pkey = decode_pkey(der, "DER", "RSA", EVP_PKEY_PUBLIC_KEY, std::nullopt);
  if (!pkey) throw InvalidArgument("rsa: cannot read an RSA public key from the DER data (SPKI or PKCS#1 expected)");
  return public_from_pkey(pkey.get());
}

std::size_t PublicKey::bits() const { return impl_->bits; }
std::size_t PublicKey::size() const { return impl_->size(); }
bytes PublicKey::n() const { return impl_->n_be; }
bytes PublicKey::e() const { return impl_->e_be; }

std::string PublicKey::to_pem() const {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), impl_->pkey.get()) != 1) throw Error("rsa: cannot write PEM" + openssl_reason());
  return bio_string(bio.get());
}

// ---- PrivateKey ----

namespace {

/// Everything a private operation needs, from an OpenSSL private key.
std::shared_ptr<PrivateKey::Impl> private_impl(PkeyPtr pkey) {
  auto impl = std::make_shared<PrivateKey::Impl>(public_from_pkey(pkey.get()));
  const PublicKey::Impl& pub = impl->pubi();
  const std::size_t limbs = pub.mod.limbs, half = limbs / 2;
  BnPtr d = get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_D);
  if (!d || BN_is_zero(d.get())) throw InvalidArgument("rsa: the key has no private exponent");
  impl->d = bn_limbs(d.get(), limbs);
  BnPtr p = get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_FACTOR1), q = get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_FACTOR2);
  BnPtr dp = get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_EXPONENT1), dq = get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_EXPONENT2);
  BnPtr qinv = get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_COEFFICIENT1);
  BnPtr p3 = get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_FACTOR3);
  // CRT with two primes that each fit half the limbs (every key OpenSSL generates); anything else (multi-prime,
  // unbalanced or missing factors) uses d over the full modulus, still constant time, blinded and checked.
  const auto fits = [&](const BnPtr& b) {
    return b && !BN_is_zero(b.get()) && static_cast<std::size_t>(BN_num_bits(b.get())) <= 64 * half;
  };
  if (!p3 && fits(p) && fits(q) && fits(dp) && fits(dq) && fits(qinv) && BN_is_odd(p.get()) && BN_is_odd(q.get()) &&
      BN_cmp(qinv.get(), p.get()) < 0) {
    impl->p = bn_modulus(p.get(), half);
    impl->q = bn_modulus(q.get(), half);
    impl->dp = bn_limbs(dp.get(), half);
    impl->dq = bn_limbs(dq.get(), half);
    impl->qinv = bn_limbs(qinv.get(), half);
    impl->crt = true;
  }
  impl->pkey = std::move(pkey);
  return impl;
}

}  // namespace

PrivateKey PrivateKey::from_pem(std::string_view pem, std::optional<std::string_view> password) {
  PkeyPtr pkey = decode_pkey(as_bytes(pem), "PEM", "RSA", EVP_PKEY_KEYPAIR, password);
  if (!pkey) {
    if (!password && pem.find("ENCRYPTED") != std::string_view::npos)
      throw InvalidArgument("rsa: the private key is encrypted: a password is needed");
    throw InvalidArgument(password ? "rsa: cannot read the RSA private key (wrong password, not RSA, or malformed)"
                                   : "rsa: cannot read an RSA private key from the PEM data (not RSA, or malformed)");
  }
  return PrivateKey(private_impl(std::move(pkey)));
}

PrivateKey PrivateKey::from_der(bytes_view der) {
  PkeyPtr pkey = decode_pkey(der, "DER", "RSA", EVP_PKEY_KEYPAIR, std::nullopt);
  if (!pkey) throw InvalidArgument("rsa: cannot read an RSA private key from the DER data (PKCS#1 or PKCS#8 expected)");
  return PrivateKey(private_impl(std::move(pkey)));
}

PrivateKey PrivateKey::generate(std::size_t bits, std::uint32_t public_exponent) {
  if (bits < 1024 || bits > 8192)
    throw InvalidArgument("rsa: unsupported key size " + std::to_string(bits) + " bits (1024 to 8192 bits are supported)");
  if (public_exponent < 3 || public_exponent % 2 == 0)
    throw InvalidArgument("rsa: the public exponent must be odd and at least 3");
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  BnPtr e(BN_new());
  EVP_PKEY* pkey = nullptr;
  const bool ok = ctx && e && BN_set_word(e.get(), public_exponent) && EVP_PKEY_keygen_init(ctx) == 1 &&
                  EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, static_cast<int>(bits)) == 1 &&
                  EVP_PKEY_CTX_set1_rsa_keygen_pubexp(ctx, e.get()) == 1 && EVP_PKEY_generate(ctx, &pkey) == 1;
  EVP_PKEY_CTX_free(ctx);
  if (!ok) {
    EVP_PKEY_free(pkey);
    throw Error("rsa: key generation failed" + openssl_reason());
  }
  return PrivateKey(private_impl(PkeyPtr(pkey)));
}

std::size_t PrivateKey::bits() const { return impl_->pubi().bits; }
std::size_t PrivateKey::size() const { return impl_->pubi().size(); }
PublicKey PrivateKey::public_key() const { return impl_->pub; }

std::string PrivateKey::to_pem(std::optional<std::string_view> password) const {
  BioPtr bio(BIO_new(BIO_s_secmem()));  // the unencrypted PEM is secret: a buffer OpenSSL clears when freed
  int ok = 0;
  if (bio) {
    if (password)
      ok = PEM_write_bio_PrivateKey(bio.get(), impl_->pkey.get(), EVP_aes_256_cbc(),
                                    reinterpret_cast<const unsigned char*>(password->data()),
                                    static_cast<int>(password->size()), nullptr, nullptr);
    else
      ok = PEM_write_bio_PrivateKey(bio.get(), impl_->pkey.get(), nullptr, nullptr, 0, nullptr, nullptr);
  }
  if (ok != 1) throw Error("rsa: cannot write PEM" + openssl_reason());
  std::string out = bio_string(bio.get());
  return out;
}

}  // namespace cryptaccel::rsa

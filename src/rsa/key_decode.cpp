// decode_key (include/cryptaccel/rsa_key_decode.hpp): key data as openssl pkeyutl reads it. Keys are decoded with
// OpenSSL as any key type (pkey_decode.hpp), so that RSA-PSS keys, certificates and wrong kinds of data are told
// apart, and handed to PrivateKey / PublicKey as RSA numbers.
#include "cryptaccel/rsa_key_decode.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

#include "rsa/key_impl.hpp"
#include "rsa/pem_blocks.hpp"
#include "rsa/pkey_decode.hpp"
#include "rsa/pss_key.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::rsa {
namespace {

std::string_view as_text(bytes_view data) { return {reinterpret_cast<const char*>(data.data()), data.size()}; }
bytes_view as_bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

/// What data (or one PEM block) holds, as far as decode_key cares.
enum class Holds { other, private_key, public_key, certificate };

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

/// "RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE", "TRUSTED CERTIFICATE"...
Holds pem_kind(std::string_view label) {
  if (ends_with(label, "PRIVATE KEY")) return Holds::private_key;
  if (ends_with(label, "PUBLIC KEY")) return Holds::public_key;
  if (ends_with(label, "CERTIFICATE")) return Holds::certificate;
  return Holds::other;
}

Holds holds_of(KeySource source) {
  return source == KeySource::private_key  ? Holds::private_key
         : source == KeySource::public_key ? Holds::public_key
                                           : Holds::certificate;
}

/// The public key of an X.509 certificate (`pem`: a PEM text whose first CERTIFICATE block is read; else DER);
/// null when it is not a certificate.
PkeyPtr certificate_key(std::string_view data, bool pem) {
  X509Ptr cert;
  if (pem) {
    BioPtr bio(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())));
    if (bio) cert.reset(PEM_read_bio_X509(bio.get(), nullptr, [](char*, int, int, void*) { return 0; }, nullptr));
  } else {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(data.data());
    cert.reset(d2i_X509(nullptr, &p, static_cast<long>(data.size())));
  }
  ERR_clear_error();
  return PkeyPtr(cert ? X509_get_pubkey(cert.get()) : nullptr);
}

/// What DER data holds (tried as a certificate, a public key, an unencrypted private key).
Holds der_kind(std::string_view data) {
  if (certificate_key(data, false)) return Holds::certificate;
  if (decode_pkey(as_bytes(data), "DER", nullptr, EVP_PKEY_PUBLIC_KEY, std::nullopt)) return Holds::public_key;
  if (decode_pkey(as_bytes(data), "DER", nullptr, EVP_PKEY_KEYPAIR, std::nullopt)) return Holds::private_key;
  return Holds::other;
}

/// The error for data in which nothing of the kind `source` asks for was found (`pem`: read as PEM; `password`: a
/// password source was given): the wrong encoding, another kind of object, or nothing recognisable.
KeyDecodeError not_found(std::string_view text, bool pem, KeySource source, KeyEncoding encoding, bool password) {
  const bool text_is_pem = looks_like_pem(text);
  if (encoding == KeyEncoding::der && text_is_pem)
    return KeyDecodeError(KeyDecodeFailure::wrong_encoding, "DER expected, but the data is PEM", pem);
  if (encoding == KeyEncoding::pem && !text_is_pem)
    return KeyDecodeError(KeyDecodeFailure::wrong_encoding, "PEM expected, but the data has no PEM block (DER?)", pem);
  Holds holds = Holds::other;
  if (pem) {
    for (const PemBlock& b : pem_blocks(text))
      if (holds == Holds::other) holds = pem_kind(b.label);
  } else {
    holds = der_kind(text);
  }
  const std::string expected = source == KeySource::private_key  ? "not a private key"
                               : source == KeySource::public_key ? "not a public key"
                                                                 : "not a certificate";
  const auto other = [&](KeySource found, const char* what) {
    return KeyDecodeError(KeyDecodeFailure::other_kind, expected + ": it holds " + what, pem, found);
  };
  switch (holds) {
    case Holds::certificate: return other(KeySource::certificate, "a certificate");
    case Holds::public_key: return other(KeySource::public_key, "a public key");
    case Holds::private_key:
      if (source == KeySource::private_key) break;  // it was found, but could not be read
      return other(KeySource::private_key, "a private key");
    case Holds::other: break;
  }
  std::string why;
  if (pem) {
    why = expected + ": no " +
          (source == KeySource::private_key  ? "PRIVATE KEY"
           : source == KeySource::public_key ? "PUBLIC KEY"
                                             : "CERTIFICATE") + " PEM block in it";
  } else if (source != KeySource::private_key) {
    why = expected + " in DER, or malformed";
  } else {
    why = password ? "wrong password, or not a private key in DER, or malformed"
                   : "not a private key in DER, or malformed (an encrypted key needs a password)";
  }
  return KeyDecodeError(KeyDecodeFailure::not_found, why, pem);
}

/// Big-endian bytes of a BIGNUM parameter of `pkey`; throws when the key lacks it.
bytes bn_param(const EVP_PKEY* pkey, const char* name, bool pem) {
  BIGNUM* raw = nullptr;
  if (EVP_PKEY_get_bn_param(pkey, name, &raw) != 1)
    throw KeyDecodeError(KeyDecodeFailure::not_rsa, "not an RSA key (no " + std::string(name) + ")", pem);
  const BnPtr bn(raw);
  bytes out(static_cast<std::size_t>(BN_num_bytes(bn.get())));
  BN_bn2bin(bn.get(), out.data());
  return out;
}

/// The library's private key from a plain RSA key (through PKCS#1 DER, wiped afterwards).
PrivateKey private_key_of(PkeyPtr pkey) {
  unsigned char* der = nullptr;
  const int len = i2d_PrivateKey(pkey.get(), &der);
  if (len <= 0) throw InvalidArgument("cannot encode the private key");
  struct ClearFree {
    unsigned char* p;
    std::size_t n;
    ~ClearFree() { OPENSSL_clear_free(p, n); }
  } clear_free{der, static_cast<std::size_t>(len)};
  return PrivateKey::from_der(bytes_view(der, static_cast<std::size_t>(len)));
}

/// Wipes the password's copy when decoding ends, however it ends.
struct WipedPassword {
  std::optional<std::string> value;
  ~WipedPassword() {
    if (value && !value->empty()) secure_wipe(value->data(), value->size());
  }
};

/// The decoded key of an RSA or RSA-PSS `pkey` (the private key when `source` asks for it). Throws KeyDecodeError.
DecodedKey to_decoded(PkeyPtr pkey, KeySource source, bool pem) {
  if (EVP_PKEY_is_a(pkey.get(), "RSA") != 1 && EVP_PKEY_is_a(pkey.get(), "RSA-PSS") != 1) {
    const char* type = EVP_PKEY_get0_type_name(pkey.get());
    throw KeyDecodeError(KeyDecodeFailure::not_rsa,
                         std::string("not an RSA key (") + (type ? type : "unknown type") + ")", pem);
  }
  const bool rsa_pss = EVP_PKEY_is_a(pkey.get(), "RSA-PSS") == 1;
  try {
    const bytes n = bn_param(pkey.get(), OSSL_PKEY_PARAM_RSA_N, pem);
    const bytes e = bn_param(pkey.get(), OSSL_PKEY_PARAM_RSA_E, pem);
    DecodedKey key{std::nullopt, PublicKey::from_numbers(n, e), rsa_pss,
                   rsa_pss ? pss_restrictions(pkey.get()) : std::nullopt};
    if (source == KeySource::private_key)
      key.private_key = private_key_of(rsa_pss ? plain_rsa(pkey.get()) : std::move(pkey));
    return key;
  } catch (const KeyDecodeError&) {
    throw;
  } catch (const InvalidArgument& e) {  // the key's size or exponent, a PSS digest cryptaccel lacks, ...
    ERR_clear_error();
    throw KeyDecodeError(KeyDecodeFailure::unusable, e.what(), pem);
  }
}

}  // namespace

DecodedKey decode_key(bytes_view data, KeySource source, KeyEncoding encoding, const PasswordSource& password) {
  const std::string_view text = as_text(data);
  const bool pem = encoding == KeyEncoding::pem || (encoding == KeyEncoding::detect && looks_like_pem(text));
  const bool has_password = static_cast<bool>(password);

  // The data to decode: DER data whole, or the first PEM block of the kind asked for.
  std::string_view body = text;
  if (pem) {
    const std::vector<PemBlock> blocks = pem_blocks(text);
    const auto block = std::find_if(blocks.begin(), blocks.end(),
                                    [&](const PemBlock& b) { return pem_kind(b.label) == holds_of(source); });
    if (block == blocks.end()) throw not_found(text, true, source, encoding, has_password);
    body = block->text;
    const bool encrypted = block->label == "ENCRYPTED PRIVATE KEY" ||  // PKCS#8, or a traditional key's header
                           block->text.find("Proc-Type: 4,ENCRYPTED") != std::string_view::npos;
    if (source == KeySource::private_key && !has_password && encrypted)
      throw KeyDecodeError(KeyDecodeFailure::needs_password, "the key is encrypted: a password is needed", pem);
  }
  WipedPassword pw;
  if (source == KeySource::private_key && has_password) pw.value = password();  // its exceptions pass unchanged

  PkeyPtr pkey;
  if (source == KeySource::certificate) {
    pkey = certificate_key(body, pem);
  } else {
    pkey = decode_pkey(as_bytes(body), pem ? "PEM" : "DER", nullptr,
                       source == KeySource::private_key ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                       pw.value ? std::optional<std::string_view>(*pw.value) : std::nullopt);
  }
  if (!pkey) {
    if (!pem) throw not_found(text, false, source, encoding, pw.value.has_value());
    throw KeyDecodeError(KeyDecodeFailure::undecodable,
                         pw.value ? "wrong password, or malformed" : "malformed, or not supported", pem);
  }
  return to_decoded(std::move(pkey), source, pem);
}

}  // namespace cryptaccel::rsa

// `cryptaccel pkeyutl`: inputs and keys (see the header). Keys are decoded here with OpenSSL (any key type, so that
// RSA-PSS keys, certificates and wrong kinds of file are told apart) and handed to the library as RSA numbers.
#include "pkeyutl_io.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "cryptaccel/error.hpp"
#include "cryptaccel/file.hpp"
#include "password_source.hpp"

namespace cryptaccel::cli::pkeyutl {
namespace {

bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

std::string_view as_text(const bytes& data) { return {reinterpret_cast<const char*>(data.data()), data.size()}; }

bool looks_like_pem(const bytes& data) {
  const std::string_view text = as_text(data);
  return text.find("-----BEGIN ") != std::string_view::npos;
}

/// Wipes a buffer that held a password or a private key file when it goes.
struct Wiped {
  bytes data;
  ~Wiped() {
    if (!data.empty()) secure_wipe(data.data(), data.size());
  }
};

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
struct BnFree {
  void operator()(BIGNUM* b) const { BN_clear_free(b); }
};
using BnPtr = std::unique_ptr<BIGNUM, BnFree>;
struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;

/// What a file (or one PEM block) holds, as far as -inkey cares.
enum class Holds { other, private_key, public_key, certificate };

/// One PEM block: its label ("PRIVATE KEY") and its text from the BEGIN line to the end of the END line.
struct PemBlock {
  std::string_view label;
  std::string_view text;
};

/// The PEM blocks of `text`, in order (text outside them is skipped, as PEM readers do). A block without its END
/// line runs to the end of the text (the decoder then says it is malformed).
std::vector<PemBlock> pem_blocks(std::string_view text) {
  static constexpr std::string_view kBegin = "-----BEGIN ", kDashes = "-----";
  std::vector<PemBlock> blocks;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t begin = text.find(kBegin, pos);
    if (begin == std::string_view::npos) break;
    const std::size_t label_at = begin + kBegin.size();
    const std::size_t label_end = text.find(kDashes, label_at);
    if (label_end == std::string_view::npos) break;
    const std::string_view label = text.substr(label_at, label_end - label_at);
    const std::string end_line = "-----END " + std::string(label) + "-----";
    const std::size_t end = text.find(end_line, label_end + kDashes.size());
    if (end == std::string_view::npos) {
      blocks.push_back({label, text.substr(begin)});
      break;
    }
    blocks.push_back({label, text.substr(begin, end + end_line.size() - begin)});
    pos = end + end_line.size();
  }
  return blocks;
}

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

/// Decodes `data` ("PEM" or "DER") into a key of any type with `selection` (EVP_PKEY_KEYPAIR: a private key;
/// EVP_PKEY_PUBLIC_KEY: SubjectPublicKeyInfo or PKCS#1 RSAPublicKey; a private key is not taken for a public one, as
/// in openssl); null on failure. Never prompts: without `password` an encrypted key is refused.
PkeyPtr decode_key(std::string_view data, const char* input_type, int selection,
                   const std::optional<std::string>& password) {
  EVP_PKEY* pkey = nullptr;
  OSSL_DECODER_CTX* ctx =
      OSSL_DECODER_CTX_new_for_pkey(&pkey, input_type, nullptr, nullptr, selection, nullptr, nullptr);
  if (!ctx) return nullptr;
  if (password)
    OSSL_DECODER_CTX_set_passphrase(ctx, reinterpret_cast<const unsigned char*>(password->data()), password->size());
  else
    OSSL_DECODER_CTX_set_passphrase_cb(
        ctx, [](char*, size_t, size_t*, const OSSL_PARAM[], void*) -> int { return 0; }, nullptr);
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t len = data.size();
  const int ok = OSSL_DECODER_from_data(ctx, &p, &len);
  OSSL_DECODER_CTX_free(ctx);
  ERR_clear_error();
  if (ok != 1) {
    EVP_PKEY_free(pkey);
    return nullptr;
  }
  return PkeyPtr(pkey);
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

/// What a DER file holds (tried as a certificate, a public key, an unencrypted private key).
Holds der_kind(std::string_view data) {
  if (certificate_key(data, false)) return Holds::certificate;
  if (decode_key(data, "DER", EVP_PKEY_PUBLIC_KEY, std::nullopt)) return Holds::public_key;
  if (decode_key(data, "DER", EVP_PKEY_KEYPAIR, std::nullopt)) return Holds::private_key;
  return Holds::other;
}

/// Why nothing of the kind `source` asks for was found in `text` (`pem`: read as PEM; `password`: -passin was given),
/// with a hint to the option that reads what it holds, or to the -keyform that would read it.
std::string not_found(std::string_view text, bool pem, KeySource source, KeyForm form, bool password) {
  const bool text_is_pem = text.find("-----BEGIN ") != std::string_view::npos;
  if (form == KeyForm::der && text_is_pem) return "-keyform DER given, but the file is PEM";
  if (form == KeyForm::pem && !text_is_pem) return "-keyform PEM given, but the file has no PEM block (DER?)";
  Holds holds = Holds::other;
  if (pem) {
    for (const PemBlock& b : pem_blocks(text))
      if (holds == Holds::other) holds = pem_kind(b.label);
  } else {
    holds = der_kind(text);
  }
  const char* const expected = source == KeySource::private_key  ? "not a private key"
                               : source == KeySource::public_key ? "not a public key"
                                                                 : "not a certificate";
  switch (holds) {
    case Holds::certificate: return std::string(expected) + ": it holds a certificate (use -certin for a certificate)";
    case Holds::public_key: return std::string(expected) + ": it holds a public key (add -pubin)";
    case Holds::private_key:
      if (source == KeySource::private_key) break;  // it was found, but could not be read
      return std::string(expected) + ": it holds a private key (leave out " +
             (source == KeySource::public_key ? "-pubin" : "-certin") + ")";
    case Holds::other: break;
  }
  if (pem) return std::string(expected) + ": no " +
                  (source == KeySource::private_key  ? "PRIVATE KEY"
                   : source == KeySource::public_key ? "PUBLIC KEY"
                                                     : "CERTIFICATE") + " PEM block in it";
  if (source != KeySource::private_key) return std::string(expected) + " in DER, or malformed";
  return password ? "wrong password, or not a private key in DER, or malformed"
                  : "not a private key in DER, or malformed (an encrypted key needs -passin)";
}

/// Big-endian bytes of a BIGNUM parameter of `pkey`; throws when the key lacks it.
bytes bn_param(const EVP_PKEY* pkey, const char* name) {
  BIGNUM* raw = nullptr;
  if (EVP_PKEY_get_bn_param(pkey, name, &raw) != 1)
    throw InvalidArgument("not an RSA key (no " + std::string(name) + ")");
  const BnPtr bn(raw);
  bytes out(static_cast<std::size_t>(BN_num_bytes(bn.get())));
  BN_bn2bin(bn.get(), out.data());
  return out;
}

/// The library's public key from an RSA or RSA-PSS key's n and e.
rsa::PublicKey public_key_of(const EVP_PKEY* pkey) {
  return rsa::PublicKey::from_numbers(bn_param(pkey, OSSL_PKEY_PARAM_RSA_N), bn_param(pkey, OSSL_PKEY_PARAM_RSA_E));
}

/// An RSA digest from OpenSSL's name of it ("SHA2-256", "SHA1", "SHA512-224", "SHA3-256").
HashAlgorithm digest_from_openssl(const std::string& name) {
  EVP_MD* md = EVP_MD_fetch(nullptr, name.c_str(), nullptr);
  const char* sn = md ? OBJ_nid2sn(EVP_MD_get_type(md)) : nullptr;
  const std::string short_name = sn ? sn : name;
  EVP_MD_free(md);
  ERR_clear_error();
  try {
    return rsa::parse_digest(short_name);
  } catch (const InvalidArgument&) {
    throw InvalidArgument("the RSA-PSS key requires the digest " + name + ", which cryptaccel does not offer");
  }
}

/// The restrictions of an RSA-PSS key; none for an unrestricted one. OpenSSL reports the parameters of a restricted
/// key only: the salt length always, the hash and MGF1 hash unless they are RFC 4055's default, SHA-1.
std::optional<PssRestrictions> pss_restrictions(const EVP_PKEY* pkey) {
  int salt = 0;
  if (EVP_PKEY_get_int_param(pkey, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, &salt) != 1) {
    ERR_clear_error();
    return std::nullopt;
  }
  const auto name_param = [&](const char* param) {
    char name[80] = {};
    std::size_t len = 0;
    if (EVP_PKEY_get_utf8_string_param(pkey, param, name, sizeof name, &len) != 1) {
      ERR_clear_error();
      return std::string("SHA1");
    }
    return std::string(name, len);
  };
  if (salt < 0) throw InvalidArgument("the RSA-PSS key has a negative salt length");
  return PssRestrictions{digest_from_openssl(name_param(OSSL_PKEY_PARAM_RSA_DIGEST)),
                         digest_from_openssl(name_param(OSSL_PKEY_PARAM_RSA_MGF1_DIGEST)),
                         static_cast<std::size_t>(salt)};
}

/// The same private key as a plain RSA key (its numbers without the RSA-PSS parameters), which the library reads.
PkeyPtr plain_rsa(const EVP_PKEY* pss_key) {
  OSSL_PARAM* all = nullptr;
  if (EVP_PKEY_todata(pss_key, EVP_PKEY_KEYPAIR, &all) != 1) throw InvalidArgument("cannot export the RSA-PSS key");
  struct WipeFree {  // OpenSSL 3.0 has no OSSL_PARAM_clear_free: the secret numbers are cleansed here
    OSSL_PARAM* params;
    ~WipeFree() {
      for (OSSL_PARAM* p = params; p->key; ++p)
        if (p->data) OPENSSL_cleanse(p->data, p->data_size);
      OSSL_PARAM_free(params);
    }
  } wipe_all{all};
  std::vector<OSSL_PARAM> numbers;  // shallow copies of n, e, d and the CRT numbers (rsa-factor1, ...)
  for (const OSSL_PARAM* p = all; p->key; ++p) {
    const std::string_view key = p->key;
    if (key == OSSL_PKEY_PARAM_RSA_N || key == OSSL_PKEY_PARAM_RSA_E || key == OSSL_PKEY_PARAM_RSA_D ||
        key.rfind("rsa-factor", 0) == 0 || key.rfind("rsa-exponent", 0) == 0 || key.rfind("rsa-coefficient", 0) == 0)
      numbers.push_back(*p);
  }
  numbers.push_back(OSSL_PARAM_construct_end());
  EVP_PKEY* rsa = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  const bool ok = ctx && EVP_PKEY_fromdata_init(ctx) == 1 &&
                  EVP_PKEY_fromdata(ctx, &rsa, EVP_PKEY_KEYPAIR, numbers.data()) == 1;
  EVP_PKEY_CTX_free(ctx);
  if (!ok) {
    EVP_PKEY_free(rsa);
    throw InvalidArgument("cannot convert the RSA-PSS key");
  }
  return PkeyPtr(rsa);
}

/// The library's private key from a plain RSA key (through PKCS#1 DER, wiped afterwards).
rsa::PrivateKey private_key_of(PkeyPtr pkey) {
  unsigned char* der = nullptr;
  const int len = i2d_PrivateKey(pkey.get(), &der);
  if (len <= 0) throw InvalidArgument("cannot encode the private key");
  struct ClearFree {
    unsigned char* p;
    std::size_t n;
    ~ClearFree() { OPENSSL_clear_free(p, n); }
  } clear_free{der, static_cast<std::size_t>(len)};
  return rsa::PrivateKey::from_der(bytes_view(der, static_cast<std::size_t>(len)));
}

}  // namespace

bytes read_input(const std::string& path) { return read_whole_file(is_stdio(path) ? "-" : path); }

LoadedKey load_key(const std::string& path, KeySource source, KeyForm form,
                   const std::optional<std::string>& passin) {
  if (path.empty()) throw InvalidArgument("-inkey is required");
  const char* const what = source == KeySource::private_key  ? "private key"
                           : source == KeySource::public_key ? "public key"
                                                             : "certificate";
  Wiped file{read_input(path)};
  try {
    const std::string_view text = as_text(file.data);
    const bool pem = form == KeyForm::pem || (form == KeyForm::detect && looks_like_pem(file.data));
    std::optional<std::string> password;
    struct WipePassword {
      std::optional<std::string>& p;
      ~WipePassword() {
        if (p && !p->empty()) secure_wipe(p->data(), p->size());
      }
    } wipe_password{password};

    // The data to decode: a DER file whole, or the first PEM block of the kind asked for.
    std::string_view data = text;
    if (pem) {
      const std::vector<PemBlock> blocks = pem_blocks(text);
      const Holds wanted = source == KeySource::private_key  ? Holds::private_key
                           : source == KeySource::public_key ? Holds::public_key
                                                             : Holds::certificate;
      const auto block = std::find_if(blocks.begin(), blocks.end(),
                                      [&](const PemBlock& b) { return pem_kind(b.label) == wanted; });
      if (block == blocks.end()) throw InvalidArgument(not_found(text, true, source, form, passin.has_value()));
      data = block->text;
      const bool encrypted = block->label == "ENCRYPTED PRIVATE KEY" ||  // PKCS#8, or a traditional key's header
                             block->text.find("Proc-Type: 4,ENCRYPTED") != std::string_view::npos;
      if (source == KeySource::private_key && !passin && encrypted)
        throw InvalidArgument("the key is encrypted: give its password with -passin (pass:X, env:VAR, file:PATH)");
    }
    if (source == KeySource::private_key && passin) password = read_password(*passin, "-passin");

    PkeyPtr pkey;
    if (source == KeySource::certificate) {
      pkey = certificate_key(data, pem);
    } else {
      pkey = decode_key(data, pem ? "PEM" : "DER",
                        source == KeySource::private_key ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, password);
    }
    if (!pkey) {
      if (!pem) throw InvalidArgument(not_found(text, false, source, form, password.has_value()));
      throw InvalidArgument(password ? "wrong password, or malformed" : "malformed, or not supported");
    }
    if (EVP_PKEY_is_a(pkey.get(), "RSA") != 1 && EVP_PKEY_is_a(pkey.get(), "RSA-PSS") != 1) {
      const char* type = EVP_PKEY_get0_type_name(pkey.get());
      throw InvalidArgument(std::string("not an RSA key (") + (type ? type : "unknown type") + ")");
    }
    const bool rsa_pss = EVP_PKEY_is_a(pkey.get(), "RSA-PSS") == 1;
    LoadedKey key{std::nullopt, public_key_of(pkey.get()), rsa_pss,
                  rsa_pss ? pss_restrictions(pkey.get()) : std::nullopt};
    if (source == KeySource::private_key)
      key.private_key = private_key_of(rsa_pss ? plain_rsa(pkey.get()) : std::move(pkey));
    return key;
  } catch (const InvalidArgument& e) {
    ERR_clear_error();
    throw InvalidArgument(std::string("cannot load ") + what + " from '" + path + "': " + e.what());
  }
}

}  // namespace cryptaccel::cli::pkeyutl

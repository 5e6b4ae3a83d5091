// RSA-PSS keys' parameters and numbers (see the header).
#include "rsa/pss_key.hpp"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/params.h>

#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel::rsa {
namespace {

/// An RSA digest from OpenSSL's name of it ("SHA2-256", "SHA1", "SHA512-224", "SHA3-256").
HashAlgorithm digest_from_openssl(const std::string& name) {
  EVP_MD* md = EVP_MD_fetch(nullptr, name.c_str(), nullptr);
  const char* sn = md ? OBJ_nid2sn(EVP_MD_get_type(md)) : nullptr;
  const std::string short_name = sn ? sn : name;
  EVP_MD_free(md);
  ERR_clear_error();
  try {
    return parse_digest(short_name);
  } catch (const InvalidArgument&) {
    throw InvalidArgument("the RSA-PSS key requires the digest " + name + ", which cryptaccel does not offer");
  }
}

}  // namespace

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

}  // namespace cryptaccel::rsa

// Owning pointers to OpenSSL objects, in one place: each frees its object with OpenSSL's function for it (the
// secret-holding ones cleanse first: BN_clear_free, EVP_CIPHER_CTX_free and EVP_PKEY_free wipe what they free).
#pragma once
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/x509.h>

#include <memory>

namespace cryptaccel {

/// Calls `Free` on a non-null pointer (the deleter of the pointers below).
template <auto Free>
struct OpenSslFree {
  template <class T>
  void operator()(T* p) const {
    Free(p);
  }
};

using BnPtr = std::unique_ptr<BIGNUM, OpenSslFree<BN_clear_free>>;  ///< cleansed: BIGNUMs here are often secret
using BnCtxPtr = std::unique_ptr<BN_CTX, OpenSslFree<BN_CTX_free>>;
using BioPtr = std::unique_ptr<BIO, OpenSslFree<BIO_free>>;
using X509Ptr = std::unique_ptr<X509, OpenSslFree<X509_free>>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, OpenSslFree<EVP_PKEY_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, OpenSslFree<EVP_PKEY_CTX_free>>;
using KdfCtxPtr = std::unique_ptr<EVP_KDF_CTX, OpenSslFree<EVP_KDF_CTX_free>>;
using CipherPtr = std::unique_ptr<EVP_CIPHER, OpenSslFree<EVP_CIPHER_free>>;
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, OpenSslFree<EVP_CIPHER_CTX_free>>;
using MdPtr = std::unique_ptr<EVP_MD, OpenSslFree<EVP_MD_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, OpenSslFree<EVP_MD_CTX_free>>;

}  // namespace cryptaccel

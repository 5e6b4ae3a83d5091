// The OSSL_DECODER set-up of RSA key parsing (see the header).
#include "rsa/pkey_decode.hpp"

#include <openssl/decoder.h>
#include <openssl/err.h>

namespace cryptaccel::rsa {

PkeyPtr decode_pkey(bytes_view data, const char* input_type, const char* key_type, int selection,
                    std::optional<std::string_view> password) {
  EVP_PKEY* pkey = nullptr;
  OSSL_DECODER_CTX* ctx =
      OSSL_DECODER_CTX_new_for_pkey(&pkey, input_type, nullptr, key_type, selection, nullptr, nullptr);
  if (!ctx) return nullptr;
  if (password)
    OSSL_DECODER_CTX_set_passphrase(ctx, reinterpret_cast<const unsigned char*>(password->data()), password->size());
  else  // never prompt on a terminal: an encrypted key without a password is simply refused
    OSSL_DECODER_CTX_set_passphrase_cb(
        ctx, [](char*, size_t, size_t*, const OSSL_PARAM[], void*) -> int { return 0; }, nullptr);
  const unsigned char* p = data.data();
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

}  // namespace cryptaccel::rsa

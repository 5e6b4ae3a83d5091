// The speed harness's OpenSSL side, cipher family: OpenSSL EVP encryption of the same messages, in this process.
#include "evp_cipher.hpp"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <stdexcept>
#include <utility>

#include "openssl_fail.hpp"
#include "common/openssl_ptr.hpp"

#if OPENSSL_VERSION_NUMBER < 0x30000000L
#error "the speed harness needs OpenSSL 3.0 or later (EVP_CIPHER_fetch)"
#endif

namespace cryptaccel::bench {
namespace {

/// OpenSSL's name of a cipher: "AES-256-GCM", "SM4-CTR".
std::string evp_name(const CipherSpec& spec) {
  std::string name = spec.name();
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  return name;
}

/// The cipher from the default provider, or null (the failed fetch leaves nothing on the error queue).
CipherPtr fetch(const CipherSpec& spec) {
  ERR_set_mark();
  CipherPtr cipher(EVP_CIPHER_fetch(nullptr, evp_name(spec).c_str(), nullptr));
  ERR_pop_to_mark();
  return cipher;
}

const unsigned char* ptr_or_null(bytes_view b) { return b.empty() ? nullptr : b.data(); }

/// An EVP context set up for encrypting with `spec`: cipher chosen, no padding; key and IV come per message.
CipherCtxPtr make_context(const CipherSpec& spec, const EVP_CIPHER* cipher) {
  CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
  if (!ctx) openssl_fail("EVP_CIPHER_CTX_new");
  if (EVP_EncryptInit_ex(ctx.get(), cipher, nullptr, nullptr, nullptr) != 1) openssl_fail("EVP_EncryptInit_ex");
  if (EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1) openssl_fail("EVP_CIPHER_CTX_set_padding");
  if (spec.is_aead() &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(spec.iv_size()), nullptr) != 1) {
    openssl_fail("EVP_CTRL_AEAD_SET_IVLEN");
  }
  return ctx;
}

/// One whole encryption on a prepared context: key and IV, AAD (GCM), data, final, tag (GCM). Returns the number of
/// bytes written to `out` (which has room for input.size() + 16).
std::size_t encrypt_one(EVP_CIPHER_CTX* ctx, bool gcm, bytes_view key, bytes_view iv, bytes_view aad, bytes_view input,
                        unsigned char* out, unsigned char* tag) {
  if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, key.data(), ptr_or_null(iv)) != 1) openssl_fail("EVP_EncryptInit_ex");
  int len = 0;
  if (!aad.empty() && EVP_EncryptUpdate(ctx, nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1) {
    openssl_fail("EVP_EncryptUpdate (AAD)");
  }
  len = 0;
  if (EVP_EncryptUpdate(ctx, out, &len, input.data(), static_cast<int>(input.size())) != 1) {
    openssl_fail("EVP_EncryptUpdate");
  }
  int final_len = 0;
  if (EVP_EncryptFinal_ex(ctx, out + len, &final_len) != 1) openssl_fail("EVP_EncryptFinal_ex");
  if (gcm && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(kSpeedTagLen), tag) != 1) {
    openssl_fail("EVP_CTRL_AEAD_GET_TAG");
  }
  return static_cast<std::size_t>(len) + static_cast<std::size_t>(final_len);
}

class EvpCell final : public Cell {
 public:
  EvpCell(CipherMessages messages, CipherPtr cipher)
      : m_(std::move(messages)),
        cipher_(std::move(cipher)),
        ctx_(make_context(m_.spec, cipher_.get())),
        gcm_(m_.spec.is_aead()) {
    m_.output.resize(m_.output.size() + 16);  // slack: a stray final block must not run past the buffer
  }

  void run() override {
    for (std::size_t i = 0; i < m_.count; ++i) {
      const std::size_t n = encrypt_one(ctx_.get(), gcm_, m_.key(i), m_.iv(i), {}, m_.in(i), m_.out(i).data(),
                                        gcm_ ? m_.tag(i).data() : nullptr);
      if (n != m_.size) {
        throw std::runtime_error("OpenSSL wrote " + std::to_string(n) + " bytes for a " + std::to_string(m_.size) +
                                 "-byte message");
      }
    }
  }

 private:
  CipherMessages m_;
  CipherPtr cipher_;
  CipherCtxPtr ctx_;
  bool gcm_;
};

}  // namespace

std::string evp_unsupported(const CipherSpec& spec) {
  if (fetch(spec)) return {};
  return std::string(OpenSSL_version(OPENSSL_VERSION)) + " does not offer " + evp_name(spec);
}

std::string evp_unsupported_size(const CipherSpec& spec, std::size_t size) {
  if (size > static_cast<std::size_t>(INT_MAX) - 32) return "too large for one EVP call";
  // OpenSSL 3 refuses XTS data units of more than 2^20 blocks (IEEE 1619-2018).
  if (spec.mode == Mode::xts && size > (std::size_t{16} << 20)) return "OpenSSL limits an XTS data unit to 16 MiB";
  return {};
}

bytes evp_encrypt(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view aad, bytes_view input) {
  const CipherPtr cipher = fetch(spec);
  if (!cipher) throw std::runtime_error(evp_unsupported(spec));
  const CipherCtxPtr ctx = make_context(spec, cipher.get());
  const bool gcm = spec.is_aead();  // GCM or ChaCha20-Poly1305: a tag
  bytes out(input.size() + 16 + kSpeedTagLen);
  unsigned char tag[kSpeedTagLen] = {};
  out.resize(encrypt_one(ctx.get(), gcm, key, iv, aad, input, out.data(), tag));
  if (gcm) out.insert(out.end(), tag, tag + kSpeedTagLen);
  return out;
}

std::unique_ptr<Cell> make_evp_cell(CipherMessages messages) {
  CipherPtr cipher = fetch(messages.spec);
  if (!cipher) throw std::runtime_error(evp_unsupported(messages.spec));
  return std::make_unique<EvpCell>(std::move(messages), std::move(cipher));
}

}  // namespace cryptaccel::bench

// Differential fuzzing (cryptofuzz's idea, our code): the fuzzer's bytes are decoded into one operation — a cipher
// (any supported name, key, IV of any length GCM takes, AAD, tag length, XTS data units, padding or not, a message),
// a hash (any algorithm, SHAKE output lengths, a batch of messages), an RSA operation on a fixed 2048-bit key (sign,
// verify of arbitrary signatures, decrypt of arbitrary ciphertexts; PKCS#1 v1.5, PSS, OAEP) or a SHA-crypt hash
// (any salt, rounds, password) — which runs on the `ref` and `cpu` engines and on OpenSSL (libxcrypt's crypt_r for
// SHA-crypt) where it has the algorithm. Any difference in output or in the kind of error aborts; so does a
// decryption that fails to give the plaintext back, a signature OpenSSL rejects, or an accepted AEAD forgery.
#include <crypt.h>
#include <fuzzer/FuzzedDataProvider.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/rsa.hpp"
#include "cryptaccel/shacrypt.hpp"
#include "fuzz_checks.hpp"
#include "rsa_test_key.hpp"

namespace ca = cryptaccel;
using ca::bytes;

namespace {

constexpr const char* kEngines[] = {"ref", "cpu"};

/// The output of an operation, or the kind of error it threw.
struct Outcome {
  bytes out;
  std::string error;  // "" on success; else the error's type
  bool operator==(const Outcome&) const = default;
};

template <typename F>
Outcome outcome_of(F&& f) {
  Outcome o;
  o.error = fuzz::error_kind([&] { o.out = f(); });
  return o;
}

struct EvpCtxFree {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
struct EvpCipherFree {
  void operator()(EVP_CIPHER* c) const { EVP_CIPHER_free(c); }
};

/// OpenSSL's encryption of the same operation (ciphertext || tag for AEAD), or nothing where OpenSSL cannot say:
/// an algorithm it lacks, XTS with data units, a parameter it refuses.
std::optional<bytes> openssl_encrypt(const ca::CipherSpec& spec, const ca::CipherParams& p, const bytes& pt) {
  if (spec.mode == ca::Mode::xts && p.xts_unit != 0 && p.xts_unit < pt.size()) return std::nullopt;
  std::string name = spec.name();
  if (spec.mode == ca::Mode::ctr && spec.cipher == ca::BlockCipher::sm4) name = "sm4-ctr";
  const std::unique_ptr<EVP_CIPHER, EvpCipherFree> cipher(EVP_CIPHER_fetch(nullptr, name.c_str(), nullptr));
  if (!cipher) return std::nullopt;
  const std::unique_ptr<EVP_CIPHER_CTX, EvpCtxFree> ctx(EVP_CIPHER_CTX_new());
  const bool gcm = spec.mode == ca::Mode::gcm, chacha = spec.mode == ca::Mode::poly1305;
  if (EVP_EncryptInit_ex2(ctx.get(), cipher.get(), nullptr, nullptr, nullptr) != 1) return std::nullopt;
  if ((gcm || chacha) &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(p.iv.size()), nullptr) != 1)
    return std::nullopt;
  if (EVP_EncryptInit_ex2(ctx.get(), nullptr, p.key.data(), p.iv.empty() ? nullptr : p.iv.data(), nullptr) != 1)
    return std::nullopt;
  EVP_CIPHER_CTX_set_padding(ctx.get(), spec.pads() ? 1 : 0);
  int n = 0;
  if ((gcm || chacha) && !p.aad.empty() &&
      EVP_EncryptUpdate(ctx.get(), nullptr, &n, p.aad.data(), static_cast<int>(p.aad.size())) != 1)
    return std::nullopt;
  bytes out(pt.size() + 32);
  int total = 0;
  if (EVP_EncryptUpdate(ctx.get(), out.data(), &n, pt.data(), static_cast<int>(pt.size())) != 1) return std::nullopt;
  total += n;
  if (EVP_EncryptFinal_ex(ctx.get(), out.data() + total, &n) != 1) return std::nullopt;
  total += n;
  out.resize(static_cast<std::size_t>(total));
  if (gcm || chacha) {
    std::uint8_t tag[16];
    if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1) return std::nullopt;
    out.insert(out.end(), tag, tag + p.tag_len);
  }
  return out;
}

void fuzz_cipher(FuzzedDataProvider& in) {
  static const std::vector<std::string> names = ca::cipher_names();
  ca::CipherSpec spec = ca::CipherSpec::parse(names[in.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)]);
  const bool block_mode = spec.mode == ca::Mode::ecb || spec.mode == ca::Mode::cbc;
  if (block_mode) spec.padding = in.ConsumeBool();
  const bytes key = in.ConsumeBytes<std::uint8_t>(spec.key_size());
  if (key.size() != spec.key_size()) return;
  std::size_t iv_len = spec.iv_size();
  if (spec.mode == ca::Mode::gcm && in.ConsumeBool()) iv_len = in.ConsumeIntegralInRange<std::size_t>(1, 80);
  const bytes iv = in.ConsumeBytes<std::uint8_t>(iv_len);
  if (iv.size() != iv_len) return;
  bytes aad;
  if (spec.is_aead()) aad = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 300));
  ca::CipherParams p{key, iv, aad};
  if (spec.mode == ca::Mode::gcm) p.tag_len = in.ConsumeIntegralInRange<std::size_t>(4, 16);
  if (spec.mode == ca::Mode::xts && in.ConsumeBool()) p.xts_unit = in.ConsumeIntegralInRange<std::size_t>(16, 600);
  const std::size_t tamper = in.ConsumeIntegral<std::size_t>();
  bytes pt = in.ConsumeRemainingBytes<std::uint8_t>();
  if (block_mode && !spec.padding) pt.resize(pt.size() / 16 * 16);

  std::optional<Outcome> first;
  for (const char* engine : kEngines) {
    const Outcome o = outcome_of([&] { return ca::encrypt(spec, p, pt, engine); });
    FUZZ_CHECK(!first || o == *first);
    if (!first) first = o;
  }
  if (!first->error.empty()) return;  // refused alike by every engine (e.g. equal XTS key halves)
  const bytes& ct = first->out;
  if (const auto ref = openssl_encrypt(spec, p, pt)) FUZZ_CHECK(*ref == ct);

  for (const char* engine : kEngines) {
    const Outcome o = outcome_of([&] { return ca::decrypt(spec, p, ct, engine); });
    FUZZ_CHECK(o.error.empty() && o.out == pt);
  }
  if (spec.is_aead() && !ct.empty()) {
    bytes bad = ct;
    bad[tamper % bad.size()] ^= static_cast<std::uint8_t>(1u << (tamper / bad.size() % 8));
    for (const char* engine : kEngines) {
      const Outcome o = outcome_of([&] { return ca::decrypt(spec, p, bad, engine); });
      FUZZ_CHECK(o.error == "AuthenticationFailed");  // a forgery accepted
    }
  }
}

/// OpenSSL's digest (XOF: `out_len` bytes), or nothing when OpenSSL lacks the algorithm.
std::optional<bytes> openssl_digest(const ca::HashInfo& info, const bytes& msg, std::size_t out_len) {
  static const char* const kNames[][2] = {{"sha512_224", "SHA512-224"}, {"sha512_256", "SHA512-256"},
                                          {"sha3_224", "SHA3-224"},     {"sha3_256", "SHA3-256"},
                                          {"sha3_384", "SHA3-384"},     {"sha3_512", "SHA3-512"},
                                          {"shake_128", "SHAKE128"},    {"shake_256", "SHAKE256"}};
  std::string name(info.name);
  for (const auto& [ours, theirs] : kNames)
    if (name == ours) name = theirs;
  EVP_MD* md = EVP_MD_fetch(nullptr, name.c_str(), nullptr);
  if (!md) return std::nullopt;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bytes out(out_len);
  unsigned n = 0;
  const bool ok = EVP_DigestInit_ex2(ctx, md, nullptr) == 1 && EVP_DigestUpdate(ctx, msg.data(), msg.size()) == 1 &&
                  (info.xof ? EVP_DigestFinalXOF(ctx, out.data(), out.size()) == 1
                            : EVP_DigestFinal_ex(ctx, out.data(), &n) == 1 && n == out_len);
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
  if (!ok) return std::nullopt;
  return out;
}

void fuzz_hash(FuzzedDataProvider& in) {
  static const std::vector<std::string> names = ca::hash_names();
  const ca::HashInfo& info =
      ca::hash_info(ca::parse_hash(names[in.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)]));
  const std::size_t out_len = info.xof ? in.ConsumeIntegralInRange<std::size_t>(1, 600) : info.digest_size;
  const std::size_t pieces = in.ConsumeIntegralInRange<std::size_t>(1, 9);
  std::vector<bytes> msgs;
  for (std::size_t i = 0; i + 1 < pieces; ++i)
    msgs.push_back(in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 700)));
  msgs.push_back(in.ConsumeRemainingBytes<std::uint8_t>());

  for (const bytes& m : msgs) {
    const bytes ours = ca::hash(info.algorithm, m, out_len, "ref");
    FUZZ_CHECK(ca::hash(info.algorithm, m, out_len, "cpu") == ours);
    if (const auto ref = openssl_digest(info, m, out_len)) FUZZ_CHECK(*ref == ours);
  }
  for (const char* engine : kEngines) {
    std::vector<bytes> digests(msgs.size(), bytes(out_len));
    std::vector<ca::HashJob> jobs(msgs.size());
    for (std::size_t i = 0; i < msgs.size(); ++i) jobs[i].in = msgs[i], jobs[i].digest = digests[i];
    ca::BatchOptions options;
    options.engine = engine;
    options.threads = 1;
    ca::hash_batch(info.algorithm, jobs, options);
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      FUZZ_CHECK(jobs[i].status == ca::JobStatus::ok);
      FUZZ_CHECK(digests[i] == ca::hash(info.algorithm, msgs[i], out_len, "ref"));
    }
  }
}

const ca::rsa::PrivateKey& rsa_key() {
  static const ca::rsa::PrivateKey key = ca::rsa::PrivateKey::from_pem(kFuzzRsaKeyPem);
  return key;
}

/// OpenSSL's verdict on a PKCS#1 v1.5 or PSS signature by rsa_key().
bool openssl_verifies(const ca::rsa::SignOptions& o, const bytes& msg, const bytes& sig) {
  struct Free {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
    void operator()(BIO* b) const { BIO_free(b); }
  };
  static EVP_PKEY* const key = [] {
    std::unique_ptr<BIO, Free> bio(BIO_new_mem_buf(kFuzzRsaKeyPem, -1));
    return PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr);
  }();
  std::unique_ptr<EVP_MD_CTX, Free> ctx(EVP_MD_CTX_new());
  EVP_PKEY_CTX* pctx = nullptr;
  const std::string md = ca::rsa::digest_name(o.hash);
  FUZZ_CHECK(EVP_DigestVerifyInit_ex(ctx.get(), &pctx, md.c_str(), nullptr, nullptr, key, nullptr) == 1);
  if (o.padding == ca::rsa::SignaturePadding::pss) {
    EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING);
    EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_AUTO);
  }
  return EVP_DigestVerify(ctx.get(), sig.data(), sig.size(), msg.data(), msg.size()) == 1;
}

void fuzz_rsa(FuzzedDataProvider& in) {
  static const ca::HashAlgorithm kHashes[] = {ca::HashAlgorithm::sha224, ca::HashAlgorithm::sha256,
                                              ca::HashAlgorithm::sha384, ca::HashAlgorithm::sha512};
  const ca::rsa::PrivateKey& key = rsa_key();
  const ca::rsa::PublicKey pub = key.public_key();
  const int op = in.ConsumeIntegralInRange<int>(0, 2);
  if (op == 2) {  // decrypt an arbitrary ciphertext: every engine gives the same plaintext or the same refusal
    ca::rsa::EncryptOptions o;
    o.padding = in.ConsumeBool() ? ca::rsa::EncryptionPadding::oaep : ca::rsa::EncryptionPadding::pkcs1v15;
    o.hash = kHashes[in.ConsumeIntegralInRange<std::size_t>(0, 3)];
    bytes ct = in.ConsumeBytes<std::uint8_t>(key.size());
    if (in.ConsumeBool()) ct = ca::rsa::encrypt(pub, in.ConsumeRemainingBytes<std::uint8_t>(), o);  // may not fit
    std::optional<Outcome> first;
    for (const char* engine : kEngines) {
      o.engine = engine;
      const Outcome r = outcome_of([&] { return ca::rsa::decrypt(key, ct, o); });
      FUZZ_CHECK(!first || r == *first);
      if (!first) first = r;
    }
    return;
  }
  ca::rsa::SignOptions o;
  o.padding = in.ConsumeBool() ? ca::rsa::SignaturePadding::pss : ca::rsa::SignaturePadding::pkcs1v15;
  o.hash = kHashes[in.ConsumeIntegralInRange<std::size_t>(0, 3)];
  if (op == 1) {  // verify an arbitrary signature: every engine and OpenSSL agree
    const bytes sig = in.ConsumeBytes<std::uint8_t>(key.size());
    const bytes msg = in.ConsumeRemainingBytes<std::uint8_t>();
    std::optional<bool> first;
    for (const char* engine : kEngines) {
      o.engine = engine;
      bool ok = false;
      try {
        ok = ca::rsa::verify(pub, msg, sig, o);
      } catch (const ca::InvalidArgument&) {
      }
      FUZZ_CHECK(!first || ok == *first);
      first = ok;
    }
    FUZZ_CHECK(*first == openssl_verifies(o, msg, sig));
    return;
  }
  const bytes msg = in.ConsumeRemainingBytes<std::uint8_t>();
  std::optional<bytes> first;
  for (const char* engine : kEngines) {
    o.engine = engine;
    const bytes sig = ca::rsa::sign(key, msg, o);
    FUZZ_CHECK(openssl_verifies(o, msg, sig) && ca::rsa::verify(pub, msg, sig, o));
    // PKCS#1 v1.5 is deterministic: the engines' signatures are equal.
    FUZZ_CHECK(o.padding != ca::rsa::SignaturePadding::pkcs1v15 || !first || sig == *first);
    first = sig;
  }
}

void fuzz_shacrypt(FuzzedDataProvider& in) {
  ca::ShaCryptSetting setting;
  setting.variant = in.ConsumeBool() ? ca::ShaCryptVariant::sha512 : ca::ShaCryptVariant::sha256;
  setting.rounds = in.ConsumeIntegralInRange<std::uint32_t>(ca::kShaCryptMinRounds, ca::kShaCryptMinRounds + 500);
  setting.rounds_explicit = in.ConsumeBool() || setting.rounds != ca::kShaCryptDefaultRounds;
  for (const char c : in.ConsumeBytesAsString(in.ConsumeIntegralInRange<std::size_t>(0, ca::kShaCryptMaxSalt)))
    if (c != '$' && c != ':' && c != '\n' && c != '\0') setting.salt += c;
  std::string password = in.ConsumeRemainingBytesAsString();
  password.erase(std::find(password.begin(), password.end(), '\0'), password.end());  // crypt() takes a C string
  const ca::bytes_view pw(reinterpret_cast<const std::uint8_t*>(password.data()), password.size());
  const std::string ours = ca::shacrypt_hash(pw, setting, "ref");
  FUZZ_CHECK(ca::shacrypt_hash(pw, setting, "cpu") == ours);
  // libxcrypt: the setting string up to the salt's end.
  const std::string prefix = ours.substr(0, ours.rfind('$') + 1);
  crypt_data scratch{};
  const char* theirs = crypt_r(password.c_str(), prefix.c_str(), &scratch);
  // libxcrypt refuses salts outside its alphabet ('*0'); we take any byte but '$', ':' and newline.
  if (theirs && theirs[0] == '*') return;
  if (!theirs || ours != theirs) {
    std::fprintf(stderr, "ours %s\ncrypt_r(%zu-byte password, \"%s\") = %s\n", ours.c_str(), password.size(),
                 prefix.c_str(), theirs ? theirs : "(null)");
    FUZZ_CHECK(false);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: fuzz_cipher(in); break;
    case 1: fuzz_hash(in); break;
    case 2: fuzz_rsa(in); break;
    default: fuzz_shacrypt(in); break;
  }
  return 0;
}

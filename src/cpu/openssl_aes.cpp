#include "cpu/openssl_aes.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <array>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "algo/bits.hpp"
#include "algo/block_modes.hpp"
#include "common/ct.hpp"
#include "cpu/aes_ecb_cbc_vaes.hpp"
#include "cpu/aes_ctr_vaes.hpp"
#include "cpu/ghash_pclmul.hpp"
#include "engine/gcm_split.hpp"
#include "common/copy_bytes.hpp"
#include "common/openssl_error.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::cpu {

struct EvpContext::Impl {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  const EVP_CIPHER* cipher = nullptr;  ///< the cipher ctx is set up for (nullptr: none, or after an error)
  int gcm_iv_len = -1;                 ///< the IV length set on a GCM ctx
  bool keyed = false;                  ///< a caller's key may be in ctx
  ~Impl() { EVP_CIPHER_CTX_free(ctx); }  // EVP_CIPHER_CTX_free cleanses the key schedule
};

EvpContext::EvpContext() : impl_(std::make_unique<Impl>()) {
  if (!impl_->ctx) throw std::bad_alloc();
}
EvpContext::~EvpContext() = default;

EvpContext& EvpContext::for_this_thread() {
  thread_local EvpContext context;
  return context;
}

void EvpContext::wipe_key() noexcept {
  Impl& s = *impl_;
  if (!s.keyed) return;
  s.keyed = false;
  // Re-keying overwrites the schedule in place; XTS refuses equal key halves, hence the second half of 0xff.
  std::uint8_t dummy[64] = {};
  const int key_len = s.cipher ? EVP_CIPHER_get_key_length(s.cipher) : 0;
  if (key_len > 0 && key_len <= static_cast<int>(sizeof dummy)) {
    std::memset(dummy + key_len / 2, 0xff, static_cast<std::size_t>(key_len / 2));
    if (EVP_CipherInit_ex2(s.ctx, nullptr, dummy, nullptr, 1, nullptr) == 1) return;
  }
  ERR_clear_error();
  EVP_CIPHER_CTX_reset(s.ctx);  // cleanses; the next job sets the cipher up again
  s.cipher = nullptr;
  s.gcm_iv_len = -1;
}

namespace {

constexpr std::size_t kBlock = 16;
constexpr std::size_t kMaxUpdate = std::size_t{1} << 30;  // EVP lengths are ints
constexpr std::size_t kMaxEvpGcmIv = 128;  // OpenSSL's GCM provider refuses longer IVs (GCM_IV_MAX_SIZE)

/// The EVP cipher for an AES spec, fetched once per (key size, mode) and kept for the process.
const EVP_CIPHER* evp_cipher(const CipherSpec& spec) {
  static const auto table = [] {
    std::array<std::array<EVP_CIPHER*, 5>, 3> t{};
    const char* bits[] = {"128", "192", "256"};
    const char* modes[] = {"ECB", "CBC", "CTR", "GCM", "XTS"};
    for (int b = 0; b < 3; ++b)
      for (int m = 0; m < 5; ++m)
        t[b][m] = EVP_CIPHER_fetch(nullptr, ("AES-" + std::string(bits[b]) + "-" + modes[m]).c_str(), nullptr);
    return t;  // AES-192-XTS does not exist: nullptr
  }();
  const int b = spec.cipher == BlockCipher::aes128 ? 0 : spec.cipher == BlockCipher::aes192 ? 1 : 2;
  const int m = spec.mode == Mode::ecb ? 0 : spec.mode == Mode::cbc ? 1 : spec.mode == Mode::ctr ? 2
              : spec.mode == Mode::gcm ? 3 : 4;
  return table[b][m];
}

void fail(CipherJob& job, JobStatus status, std::string why) {
  job.status = status;
  job.out_len = 0;
  job.error = std::move(why);
}

/// EVP_CipherUpdate over any length (EVP takes int lengths). Returns false on an EVP error.
bool update(EVP_CIPHER_CTX* ctx, std::uint8_t* out, const std::uint8_t* in, std::size_t len) {
  for (std::size_t pos = 0; pos < len; pos += kMaxUpdate) {
    const int n = static_cast<int>(std::min(kMaxUpdate, len - pos));
    int written = 0;
    if (EVP_CipherUpdate(ctx, out ? out + pos : nullptr, &written, in + pos, n) != 1) return false;
  }
  return true;
}

std::string openssl_error() { return "OpenSSL: " + openssl_error_text(); }

void ecb_cbc(EVP_CIPHER_CTX* ctx, const CipherSpec& spec, Direction dir, CipherJob& job) {
  const std::size_t len = job.in.size();  // EVP's padding is off (set with the cipher): PKCS#7 is done here
  if (dir == Direction::encrypt) {
    const std::size_t full = len / kBlock * kBlock;
    if (!update(ctx, job.out.data(), job.in.data(), full)) return fail(job, JobStatus::invalid_argument, openssl_error());
    job.out_len = full;
    if (spec.padding) {
      std::uint8_t last[kBlock];
      const std::size_t rem = len - full;
      copy_bytes(last, job.in.data() + full, rem);
      std::memset(last + rem, static_cast<int>(kBlock - rem), kBlock - rem);
      const bool ok = update(ctx, job.out.data() + full, last, kBlock);
      secure_wipe(last, sizeof last);
      if (!ok) return fail(job, JobStatus::invalid_argument, openssl_error());
      job.out_len += kBlock;
    }
  } else {
    if (aes_cbc_vaes_serves(spec)) {  // sixteen blocks at a time on VAES where the CPU has it
      aes_cbc_vaes_decrypt(job.key, job.iv.data(), job.in.data(), job.out.data(), len);
    } else if (!update(ctx, job.out.data(), job.in.data(), len)) {
      return fail(job, JobStatus::invalid_argument, openssl_error());
    }
    job.out_len = len;
    if (spec.padding) {
      const std::size_t pad = ct::pkcs7_pad_length(job.out.data() + len - kBlock);
      if (pad == 0) {
        secure_wipe(job.out.data(), len);  // no plaintext is released with a padding error
        return fail(job, JobStatus::bad_decrypt, "bad decrypt: invalid padding");
      }
      job.out_len = len - pad;
    }
  }
  job.status = JobStatus::ok;
}

void gcm(EVP_CIPHER_CTX* ctx, Direction dir, CipherJob& job) {
  const std::size_t len = job.in.size();
  if (dir == Direction::decrypt &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, static_cast<int>(job.tag.size()), job.tag.data()) != 1)
    return fail(job, JobStatus::invalid_argument, openssl_error());
  if (!update(ctx, nullptr, job.aad.data(), job.aad.size()) || !update(ctx, job.out.data(), job.in.data(), len))
    return fail(job, JobStatus::invalid_argument, openssl_error());
  int written = 0;
  std::uint8_t unused[kBlock];
  if (EVP_CipherFinal_ex(ctx, unused, &written) != 1) {
    if (dir == Direction::decrypt) {
      ERR_clear_error();
      secure_wipe(job.out.data(), len);  // decrypted before the tag was known: wiped, never released
      return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
    }
    return fail(job, JobStatus::invalid_argument, openssl_error());
  }
  if (dir == Direction::encrypt &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(job.tag.size()), job.tag.data()) != 1)
    return fail(job, JobStatus::invalid_argument, openssl_error());
  job.out_len = len;
  job.status = JobStatus::ok;
}

void xts(EVP_CIPHER_CTX* ctx, Direction dir, CipherJob& job, std::size_t unit) {
  const std::size_t len = job.in.size();
  if (unit == 0) unit = len;
  std::uint8_t tweak[kBlock];
  std::memcpy(tweak, job.iv.data(), kBlock);
  for (std::size_t pos = 0; pos < len; pos += unit) {
    // EVP's XTS takes one data unit per update; a new IV keeps the key schedules.
    const std::size_t n = std::min(unit, len - pos);
    if (EVP_CipherInit_ex2(ctx, nullptr, nullptr, tweak, dir == Direction::encrypt, nullptr) != 1 ||
        !update(ctx, job.out.data() + pos, job.in.data() + pos, n))
      return fail(job, JobStatus::invalid_argument, openssl_error());
    algo::le128_add(tweak, 1);
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

/// x <- x^-1 in GCM's GF(2^128) (x != 0): x^(2^128 - 2), the product of x^(2^i) for i = 1..127.
void gf128_inverse_pclmul(std::uint8_t x[16]) {
  std::uint8_t power[kBlock], result[kBlock] = {0x80};  // 1 in GCM's bit order
  std::memcpy(power, x, kBlock);
  for (int i = 1; i < 128; ++i) {
    std::uint8_t square[kBlock];
    std::memcpy(square, power, kBlock);
    gf128_mul_pclmul(power, square);
    gf128_mul_pclmul(result, power);
    secure_wipe(square, sizeof square);
  }
  std::memcpy(x, result, kBlock);
  secure_wipe(power, sizeof power);
  secure_wipe(result, sizeof result);
}

class AesGcmSplitKey final : public engine::GcmSplitKey {
 public:
  AesGcmSplitKey(BlockCipher cipher, bytes_view key) : key_size_(key.size()) {
    CipherSpec spec{cipher, Mode::ecb, false};
    ecb_ = evp_cipher(spec);
    spec.mode = Mode::ctr;
    ctr_ = evp_cipher(spec);
    ctr_spec_ = spec;
    spec.mode = Mode::gcm;
    gcm_ = evp_cipher(spec);
    std::memcpy(key_, key.data(), key_size_);
    std::uint8_t h[kBlock] = {};
    encrypt_block(h, h);
    ghash_pclmul_init(ghash_, h);
    static constexpr std::uint8_t kZero[kBlock] = {};
    h_nonzero_ = !ct::equal(h, kZero, kBlock);  // E_K(0) = 0: probability 2^-128, but then H has no inverse
    std::memcpy(h_inverse_, h, kBlock);
    if (h_nonzero_) gf128_inverse_pclmul(h_inverse_);
    secure_wipe(h, sizeof h);
  }
  ~AesGcmSplitKey() override {
    secure_wipe(key_, sizeof key_);
    secure_wipe(h_inverse_, sizeof h_inverse_);
  }

  /// OpenSSL's stitched AES-GCM (counter mode and GHASH in one pass, ~1.4x our two passes) made to run one chunk of
  /// a longer message, though EVP only starts a message at its beginning. Two facts of SP 800-38D do it:
  ///  - a 16-byte IV X gives J0 = GHASH_H(X || L16) = (X*H ^ L16)*H, with L16 = [0]_64 || [128]_64; so the IV
  ///    X = (J0'*H^-1 ^ L16)*H^-1 makes EVP start its counter mode where the chunk starts (J0' = counter - 1: EVP
  ///    encrypts from inc32(J0'));
  ///  - its tag is T = E(J0') ^ (Y ^ Lc)*H, with Y = GHASH_H(0, C) the chunk's partial hash and Lc = [0]_64 ||
  ///    [8*len]_64 (no AAD); so Y = (T ^ E(J0'))*H^-1 ^ Lc.
  /// The inc32 wrap of the counter's low word is GCM's in both, and EVP pads a partial last block with zeros as
  /// ghash() does. Everything here is constant time (PCLMULQDQ multiplies, no branch on data).
  void encrypt_and_hash(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                        std::uint8_t hash[16]) const override {
    // Where our VAES CTR serves the key, its counter mode then our GHASH over the output (two passes over a chunk in
    // cache) beat this one-pass AES-NI kernel: 8.6-10.0 vs 7.3-8.3 GB/s for AES-GCM on both cores of the Xeon of
    // bench/results/2026-11-27-xeon-2c-ifma-vaes (speed --threads 2 --bytes 1M, two runs each; a whole 1 GiB
    // `enc -aes-256-gcm` from the page cache, memory-bound, was level: 0.27 vs 0.28 s, medians of 9 interleaved).
    if (!h_nonzero_ || len > kMaxUpdate || aes_ctr_vaes_serves(ctr_spec_))
      return GcmSplitKey::encrypt_and_hash(counter, in, out, len, hash);
    std::uint8_t j0[kBlock], iv[kBlock], mask[kBlock], tag[kBlock];
    std::memcpy(j0, counter, kBlock);
    algo::ctr32_add(j0, 0xffffffffu);  // counter - 1 in the low 32 bits
    std::memcpy(iv, j0, kBlock);
    gf128_mul_pclmul(iv, h_inverse_);
    iv[15] ^= 0x80;  // ^ L16: the bit length 128 in the last byte
    gf128_mul_pclmul(iv, h_inverse_);
    encrypt_block(j0, mask);
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    if (!ctx) throw std::bad_alloc();
    if (EVP_EncryptInit_ex2(ctx.get(), gcm_, nullptr, nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kBlock), nullptr) != 1 ||
        EVP_EncryptInit_ex2(ctx.get(), nullptr, key_, iv, nullptr) != 1 || !update(ctx.get(), out, in, len)) {
      secure_wipe(mask, sizeof mask);
      throw std::runtime_error(openssl_error());
    }
    int final_len = 0;
    if (EVP_EncryptFinal_ex(ctx.get(), out + len, &final_len) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(kBlock), tag) != 1) {
      secure_wipe(mask, sizeof mask);
      throw std::runtime_error(openssl_error());
    }
    for (std::size_t i = 0; i < kBlock; ++i) hash[i] = tag[i] ^ mask[i];
    gf128_mul_pclmul(hash, h_inverse_);
    std::uint8_t lengths[kBlock] = {};
    algo::store_be64(lengths + 8, static_cast<std::uint64_t>(len) * 8);
    for (std::size_t i = 0; i < kBlock; ++i) hash[i] ^= lengths[i];
    secure_wipe(j0, sizeof j0);
    secure_wipe(iv, sizeof iv);
    secure_wipe(mask, sizeof mask);
    secure_wipe(tag, sizeof tag);
  }

  void encrypt_block(const std::uint8_t in[16], std::uint8_t out[16]) const override {
    run(ecb_, nullptr, in, out, kBlock);
  }
  void ctr32(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
             std::size_t len) const override {
    // EVP's CTR increments all 128 bits; GCM's inc32 only the low 32. Cut where the low word wraps to 0.
    std::uint8_t c[kBlock];
    std::memcpy(c, counter, kBlock);
    const std::uint64_t low =
        (std::uint64_t{c[12]} << 24) | (std::uint64_t{c[13]} << 16) | (std::uint64_t{c[14]} << 8) | c[15];
    const std::uint64_t before_wrap = ((std::uint64_t{1} << 32) - low) * kBlock;  // bytes until the low word wraps
    const std::size_t first = static_cast<std::size_t>(std::min<std::uint64_t>(len, before_wrap));
    ctr_piece(c, in, out, first);
    if (first < len) {
      c[12] = c[13] = c[14] = c[15] = 0;
      ctr_piece(c, in + first, out + first, len - first);
    }
    secure_wipe(c, sizeof c);
  }
  void ghash(std::uint8_t y[16], const std::uint8_t* data, std::size_t len) const override {
    ghash_pclmul(ghash_, y, data, len);
  }
  void gf_mul(std::uint8_t x[16], const std::uint8_t y[16]) const override { gf128_mul_pclmul(x, y); }

 private:
  /// One EVP context per call: calls come from several threads at once.
  void run(const EVP_CIPHER* cipher, const std::uint8_t* iv, const std::uint8_t* in, std::uint8_t* out,
           std::size_t len) const {
    if (len == 0) return;
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    if (!ctx) throw std::bad_alloc();
    if (EVP_CipherInit_ex2(ctx.get(), cipher, key_, iv, 1, nullptr) != 1 || !update(ctx.get(), out, in, len))
      throw std::runtime_error(openssl_error());
  }

  /// CTR over one piece that does not wrap GCM's 32-bit counter word (there, a 128-bit increment is inc32): our VAES
  /// kernel where it serves the key size (aes_ctr_vaes.hpp), else EVP.
  void ctr_piece(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out, std::size_t len) const {
    if (len == 0) return;
    if (aes_ctr_vaes_serves(ctr_spec_)) {
      CipherJob job{bytes_view(key_, key_size_), bytes_view(counter, kBlock), bytes_view(in, len),
                    mutable_bytes(out, len)};
      aes_ctr_vaes_run(ctr_spec_, job);
      return;
    }
    run(ctr_, counter, in, out, len);
  }

  const EVP_CIPHER* ecb_;
  const EVP_CIPHER* ctr_;
  const EVP_CIPHER* gcm_;
  CipherSpec ctr_spec_;
  std::uint8_t key_[32];
  std::size_t key_size_;
  GhashPclmulKey ghash_;
  std::uint8_t h_inverse_[kBlock];  // H^-1 (see encrypt_and_hash)
  bool h_nonzero_;
};

}  // namespace

std::unique_ptr<engine::GcmSplitKey> openssl_aes_gcm_split_key(BlockCipher cipher, bytes_view key) {
  if (cipher == BlockCipher::sm4 || !ghash_pclmul_available()) return nullptr;
  return std::make_unique<AesGcmSplitKey>(cipher, key);
}

bool openssl_aes_supports(const CipherSpec& spec) {
  return spec.cipher != BlockCipher::sm4 && evp_cipher(spec) != nullptr;
}

void openssl_aes_run(EvpContext& context, const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t xts_unit) {
  if (spec.mode == Mode::gcm && job.iv.size() > kMaxEvpGcmIv) {
    // SP 800-38D allows IVs up to 2^64 bits; OpenSSL stops at 128 bytes. Such IVs are rare: J0 = GHASH(IV) on
    // PCLMULQDQ, then GCM from that counter on this engine's split building blocks (one chunk, this thread).
    const AesGcmSplitKey key(spec.cipher, job.key);
    engine::run_split_gcm_job(key, dir, job, 1, job.in.size());
    return;
  }
  EvpContext::Impl& state = context.impl();
  EVP_CIPHER_CTX* ctx = state.ctx;
  const int enc = dir == Direction::encrypt;
  const EVP_CIPHER* cipher = evp_cipher(spec);
  if (state.cipher != cipher) {  // set up for another cipher (allocates); otherwise only key and IV are loaded
    state.cipher = nullptr;
    state.gcm_iv_len = -1;
    if (EVP_CipherInit_ex2(ctx, cipher, nullptr, nullptr, enc, nullptr) != 1)
      return fail(job, JobStatus::invalid_argument, openssl_error());
    // ECB/CBC: PKCS#7 is ours (constant-time check on decryption). The setting stays with the context through later
    // key and IV loads, so it is made once here, not per job (per job it was a parameter lookup by name each time).
    if (spec.mode == Mode::ecb || spec.mode == Mode::cbc) EVP_CIPHER_CTX_set_padding(ctx, 0);
    state.cipher = cipher;
  }
  bool ok = true;
  if (spec.mode == Mode::gcm && state.gcm_iv_len != static_cast<int>(job.iv.size())) {
    ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(job.iv.size()), nullptr) == 1;
    state.gcm_iv_len = ok ? static_cast<int>(job.iv.size()) : -1;
  }
  state.keyed = true;
  ok = ok && EVP_CipherInit_ex2(ctx, nullptr, job.key.data(),
                                spec.mode == Mode::ecb || spec.mode == Mode::xts ? nullptr : job.iv.data(), enc,
                                nullptr) == 1;
  if (!ok) state.cipher = nullptr;  // set up afresh next time
  if (!ok) return fail(job, JobStatus::invalid_argument, openssl_error());
  switch (spec.mode) {
    case Mode::ecb:
    case Mode::cbc: return ecb_cbc(ctx, spec, dir, job);
    case Mode::ctr:
      if (!update(ctx, job.out.data(), job.in.data(), job.in.size()))
        return fail(job, JobStatus::invalid_argument, openssl_error());
      job.out_len = job.in.size();
      job.status = JobStatus::ok;
      return;
    case Mode::gcm: return gcm(ctx, dir, job);
    case Mode::xts: return xts(ctx, dir, job, xts_unit);
    case Mode::poly1305: return fail(job, JobStatus::invalid_argument, "not an AES mode");  // cpu_engine routes it
  }
}

}  // namespace cryptaccel::cpu

#include "cpu/sm4_modes.hpp"

#include <algorithm>
#include <cstring>

#include "algo/bits.hpp"
#include "algo/block_modes.hpp"
#include "common/ct.hpp"
#include "common/cpu_features.hpp"
#include "cpu/ghash_pclmul.hpp"
#include "cpu/sm4_aesni.hpp"
#include "cpu/sm4_cbc_gfni.hpp"
#include "common/copy_bytes.hpp"

namespace cryptaccel::cpu {
namespace {

constexpr std::size_t kBlock = 16;
/// Bytes processed per step where two passes share the data (CBC decryption's saved ciphertext, GCM's CTR then
/// GHASH): small enough to stay in L1.
constexpr std::size_t kStep = 2048;

void fail(CipherJob& job, JobStatus status, const char* why) {
  job.status = status;
  job.out_len = 0;
  job.error = why;
}

void xor_bytes(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] ^ b[i];
}

void ecb(const Sm4CpuKey& key, const CipherSpec& spec, Direction dir, CipherJob& job) {
  const std::size_t len = job.in.size();
  if (dir == Direction::encrypt) {
    const std::size_t full = len / kBlock;
    key.encrypt(job.in.data(), job.out.data(), full);
    job.out_len = full * kBlock;
    if (spec.padding) {
      std::uint8_t last[kBlock];
      const std::size_t rem = len - full * kBlock;
      copy_bytes(last, job.in.data() + full * kBlock, rem);
      std::memset(last + rem, static_cast<int>(kBlock - rem), kBlock - rem);
      key.encrypt(last, job.out.data() + full * kBlock, 1);
      secure_wipe(last, sizeof last);
      job.out_len += kBlock;
    }
  } else {
    key.decrypt(job.in.data(), job.out.data(), len / kBlock);
    job.out_len = len;
  }
}

void cbc(const Sm4CpuKey& key, const CipherSpec& spec, Direction dir, CipherJob& job) {
  const std::size_t len = job.in.size();
  std::uint8_t chain[kBlock];
  std::memcpy(chain, job.iv.data(), kBlock);
  if (dir == Direction::encrypt) {  // serial by nature: one block at a time
    const std::size_t full = len / kBlock, rem = len - full * kBlock;
    key.cbc_encrypt(chain, job.in.data(), job.out.data(), full);
    job.out_len = full * kBlock;
    if (spec.padding) {  // the PKCS#7 block
      std::uint8_t last[kBlock];
      copy_bytes(last, job.in.data() + full * kBlock, rem);
      std::memset(last + rem, static_cast<int>(kBlock - rem), kBlock - rem);
      key.cbc_encrypt(chain, last, job.out.data() + full * kBlock, 1);
      secure_wipe(last, sizeof last);
      job.out_len += kBlock;
    }
  } else {
    // Blocks decrypt in parallel; the ciphertext of each step is saved first, as `out` may overwrite `in`.
    std::uint8_t saved[kStep];
    for (std::size_t pos = 0; pos < len; pos += kStep) {
      const std::size_t n = std::min(kStep, len - pos);
      std::memcpy(saved, job.in.data() + pos, n);
      std::uint8_t* out = job.out.data() + pos;
      key.decrypt(saved, out, n / kBlock);
      xor_bytes(out, out, chain, kBlock);
      xor_bytes(out + kBlock, out + kBlock, saved, n - kBlock);
      std::memcpy(chain, saved + n - kBlock, kBlock);
    }
    job.out_len = len;
  }
  secure_wipe(chain, sizeof chain);
}

/// The GCM state of one job: the GHASH key and J0.
struct GcmSetup {
  GhashPclmulKey ghash;
  std::uint8_t j0[kBlock] = {};
  ~GcmSetup() { secure_wipe(j0, sizeof j0); }
};

void gcm_setup(const Sm4CpuKey& key, bytes_view iv, GcmSetup& s) {
  std::uint8_t h[kBlock] = {};
  key.encrypt(h, h, 1);
  ghash_pclmul_init(s.ghash, h);
  secure_wipe(h, sizeof h);
  if (iv.size() == 12) {  // J0 = IV || 0^31 || 1
    std::memcpy(s.j0, iv.data(), 12);
    s.j0[15] = 1;
  } else {  // J0 = GHASH(IV || 0-pad || [0]_64 || [len(IV)]_64)
    ghash_pclmul(s.ghash, s.j0, iv.data(), iv.size());
    std::uint8_t lengths[kBlock] = {};
    algo::store_be64(lengths + 8, static_cast<std::uint64_t>(iv.size()) * 8);
    ghash_pclmul(s.ghash, s.j0, lengths, kBlock);
  }
}

void gcm(const Sm4CpuKey& key, Direction dir, CipherJob& job) {
  GcmSetup s;
  gcm_setup(key, job.iv, s);
  const std::size_t len = job.in.size();
  std::uint8_t counter[kBlock], y[kBlock] = {};
  std::memcpy(counter, s.j0, kBlock);
  algo::ctr32_add(counter, 1);
  ghash_pclmul(s.ghash, y, job.aad.data(), job.aad.size());
  // One step at a time, CTR and GHASH share the data while it is in L1. Steps are whole blocks but the last, so
  // only the last is zero-padded by GHASH.
  for (std::size_t pos = 0; pos < len; pos += kStep) {
    const std::size_t n = std::min(kStep, len - pos);
    const std::uint8_t* in = job.in.data() + pos;
    std::uint8_t* out = job.out.data() + pos;
    if (dir == Direction::encrypt) {
      key.ctr(counter, true, in, out, n);
      ghash_pclmul(s.ghash, y, out, n);
    } else {  // hash the ciphertext before the keystream may overwrite it
      ghash_pclmul(s.ghash, y, in, n);
      key.ctr(counter, true, in, out, n);
    }
  }
  std::uint8_t block[kBlock];
  algo::store_be64(block, static_cast<std::uint64_t>(job.aad.size()) * 8);
  algo::store_be64(block + 8, static_cast<std::uint64_t>(len) * 8);
  ghash_pclmul(s.ghash, y, block, kBlock);
  key.encrypt(s.j0, block, 1);  // E(J0)
  xor_bytes(y, y, block, kBlock);
  secure_wipe(block, sizeof block);
  bool ok = true;
  if (dir == Direction::encrypt) std::memcpy(job.tag.data(), y, job.tag.size());
  else ok = ct::equal(y, job.tag.data(), job.tag.size());
  secure_wipe(y, sizeof y);
  secure_wipe(counter, sizeof counter);
  if (!ok) {
    secure_wipe(job.out.data(), len);  // decrypted before the tag was known: wiped, never released
    return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

/// SM4-GCM building blocks for jobs split over threads.
class Sm4GcmSplitKey final : public engine::GcmSplitKey {
 public:
  explicit Sm4GcmSplitKey(bytes_view key) : key_(key.data()) {
    std::uint8_t h[kBlock] = {};
    key_.encrypt(h, h, 1);
    ghash_pclmul_init(ghash_, h);
    secure_wipe(h, sizeof h);
  }
  void encrypt_block(const std::uint8_t in[16], std::uint8_t out[16]) const override { key_.encrypt(in, out, 1); }
  void ctr32(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
             std::size_t len) const override {
    std::uint8_t c[kBlock];
    std::memcpy(c, counter, kBlock);
    key_.ctr(c, true, in, out, len);
    secure_wipe(c, sizeof c);
  }
  void ghash(std::uint8_t y[16], const std::uint8_t* data, std::size_t len) const override {
    ghash_pclmul(ghash_, y, data, len);
  }
  void gf_mul(std::uint8_t x[16], const std::uint8_t y[16]) const override { gf128_mul_pclmul(x, y); }

 private:
  Sm4CpuKey key_;
  GhashPclmulKey ghash_;
};

}  // namespace

Sm4CpuKey::Sm4CpuKey(const std::uint8_t key[16], const Sm4Simd* simd)
    : simd_(simd ? simd : sm4_simd_best()), small_(&sm4_simd_small()), cbc_gfni_(sm4_cbc_gfni_available()) {
  sm4_aesni_expand_key(key, enc_);
  for (int i = 0; i < 32; ++i) dec_[i] = enc_[31 - i];
}
Sm4CpuKey::~Sm4CpuKey() {
  secure_wipe(enc_, sizeof enc_);
  secure_wipe(dec_, sizeof dec_);
}
// Up to 4 blocks (CBC encryption, short messages) take a 128-bit kernel's single register group: the least work.
void Sm4CpuKey::encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const {
  (nblocks <= 4 ? *small_ : *simd_).crypt(enc_, in, out, nblocks);
}
void Sm4CpuKey::cbc_encrypt(std::uint8_t chain[16], const std::uint8_t* in, std::uint8_t* out,
                            std::size_t nblocks) const {
  if (cbc_gfni_) {
    sm4_cbc_encrypt_gfni(enc_, chain, in, out, nblocks);
    return;
  }
  for (std::size_t b = 0; b < nblocks; ++b) {
    xor_bytes(chain, chain, in + b * kBlock, kBlock);
    small_->crypt(enc_, chain, chain, 1);
    std::memcpy(out + b * kBlock, chain, kBlock);
  }
}
void Sm4CpuKey::decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const {
  (nblocks <= 4 ? *small_ : *simd_).crypt(dec_, in, out, nblocks);
}
void Sm4CpuKey::ctr(std::uint8_t counter[16], bool inc32, const std::uint8_t* in, std::uint8_t* out,
                    std::size_t len) const {
  (len <= 64 ? *small_ : *simd_).ctr(enc_, counter, inc32, in, out, len);
}

bool sm4_cpu_supports(const CipherSpec& spec) {
  return spec.cipher == BlockCipher::sm4 && spec.mode != Mode::xts && sm4_simd_best() != nullptr &&
         ghash_pclmul_available();
}

void sm4_cpu_run(const CipherSpec& spec, Direction dir, CipherJob& job) {
  const Sm4CpuKey key(job.key.data());
  switch (spec.mode) {
    case Mode::ecb: ecb(key, spec, dir, job); break;
    case Mode::cbc: cbc(key, spec, dir, job); break;
    case Mode::ctr: {
      std::uint8_t counter[kBlock];
      std::memcpy(counter, job.iv.data(), kBlock);
      key.ctr(counter, false, job.in.data(), job.out.data(), job.in.size());
      secure_wipe(counter, sizeof counter);
      job.out_len = job.in.size();
      break;
    }
    case Mode::gcm: return gcm(key, dir, job);
    case Mode::xts: return fail(job, JobStatus::invalid_argument, "SM4-XTS is not supported");
    case Mode::poly1305: return fail(job, JobStatus::invalid_argument, "not an SM4 mode");
  }
  if ((spec.mode == Mode::ecb || spec.mode == Mode::cbc) && dir == Direction::decrypt && spec.padding) {
    const std::size_t len = job.in.size();
    const std::size_t pad = ct::pkcs7_pad_length(job.out.data() + len - kBlock);
    if (pad == 0) {
      secure_wipe(job.out.data(), len);  // no plaintext is released with a padding error
      return fail(job, JobStatus::bad_decrypt, "bad decrypt: invalid padding");
    }
    job.out_len = len - pad;
  }
  job.status = JobStatus::ok;
}

std::unique_ptr<engine::GcmSplitKey> sm4_cpu_gcm_split_key(bytes_view key) {
  return std::make_unique<Sm4GcmSplitKey>(key);
}

}  // namespace cryptaccel::cpu

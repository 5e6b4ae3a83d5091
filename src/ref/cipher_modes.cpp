#include "ref/cipher_modes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "algo/block_modes.hpp"
#include "algo/ghash.hpp"
#include "common/ct.hpp"
#include "common/secret_buffer.hpp"
#include "ref/block_cipher.hpp"
#include "ref/chacha20_poly1305.hpp"
#include "common/copy_bytes.hpp"

namespace cryptaccel::ref {
namespace {

constexpr std::size_t kBlock = 16;
// Blocks handed to the block cipher at once: a multiple of every bitsliced width (AES 4, SM4 16).
constexpr std::size_t kChunkBlocks = 16;

void xor_bytes(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] ^ b[i];
}

void fail(CipherJob& job, JobStatus status, const char* why) {
  job.status = status;
  job.out_len = 0;
  job.error = why;
}

// ---- ECB / CBC ------------------------------------------------------------------------------------------------

void ecb_or_cbc_encrypt(const BlockCipherKey& key, const CipherSpec& spec, CipherJob& job) {
  const std::size_t len = job.in.size();
  if (!spec.padding && len % kBlock) return fail(job, JobStatus::invalid_argument, "data length is not a multiple of the block size (16)");
  const std::size_t full = len / kBlock;
  std::uint8_t last[kBlock];  // the PKCS#7-padded final block
  const std::size_t rem = len - full * kBlock;
  copy_bytes(last, job.in.data() + full * kBlock, rem);
  std::memset(last + rem, static_cast<int>(kBlock - rem), kBlock - rem);
  if (spec.mode == Mode::ecb) {
    key.encrypt(job.in.data(), job.out.data(), full);
    if (spec.padding) key.encrypt(last, job.out.data() + full * kBlock, 1);
  } else {  // CBC: serial by nature
    std::uint8_t block[kBlock];
    const std::uint8_t* chain = job.iv.data();
    const std::size_t total = spec.padding ? full + 1 : full;
    for (std::size_t b = 0; b < total; ++b) {
      xor_bytes(block, b < full ? job.in.data() + b * kBlock : last, chain, kBlock);
      key.encrypt(block, job.out.data() + b * kBlock, 1);
      chain = job.out.data() + b * kBlock;
    }
    secure_wipe(block, sizeof block);
  }
  secure_wipe(last, sizeof last);
  job.out_len = (spec.padding ? full + 1 : full) * kBlock;
  job.status = JobStatus::ok;
}

/// Decrypts ECB or CBC without touching padding; `out` may equal `in`.
void ecb_or_cbc_decrypt_raw(const BlockCipherKey& key, const CipherSpec& spec, bytes_view iv, const std::uint8_t* in,
                            std::uint8_t* out, std::size_t nblocks) {
  std::uint8_t prev[kBlock] = {};
  if (spec.mode == Mode::cbc) std::memcpy(prev, iv.data(), kBlock);
  std::uint8_t cipher[kChunkBlocks * kBlock], plain[kChunkBlocks * kBlock];
  for (std::size_t b = 0; b < nblocks; b += kChunkBlocks) {
    const std::size_t n = std::min(kChunkBlocks, nblocks - b);
    std::memcpy(cipher, in + b * kBlock, n * kBlock);  // keep ciphertext: out may overwrite in
    key.decrypt(cipher, plain, n);
    if (spec.mode == Mode::cbc) {
      xor_bytes(plain, plain, prev, kBlock);
      xor_bytes(plain + kBlock, plain + kBlock, cipher, (n - 1) * kBlock);
      std::memcpy(prev, cipher + (n - 1) * kBlock, kBlock);
    }
    std::memcpy(out + b * kBlock, plain, n * kBlock);
  }
  secure_wipe(plain, sizeof plain);
}

void ecb_or_cbc_decrypt(const BlockCipherKey& key, const CipherSpec& spec, CipherJob& job) {
  const std::size_t len = job.in.size();
  if (len % kBlock) return fail(job, JobStatus::bad_decrypt, "ciphertext length is not a multiple of the block size (16)");
  if (!spec.padding) {
    ecb_or_cbc_decrypt_raw(key, spec, job.iv, job.in.data(), job.out.data(), len / kBlock);
    job.out_len = len;
    job.status = JobStatus::ok;
    return;
  }
  if (len == 0) return fail(job, JobStatus::bad_decrypt, "bad decrypt: empty ciphertext has no padding");
  SecretBuffer plain(len);  // nothing is released before the padding is checked
  ecb_or_cbc_decrypt_raw(key, spec, job.iv, job.in.data(), plain.data.data(), len / kBlock);
  const std::size_t pad = ct::pkcs7_pad_length(plain.data.data() + len - kBlock);
  if (pad == 0) return fail(job, JobStatus::bad_decrypt, "bad decrypt: invalid padding");
  std::memcpy(job.out.data(), plain.data.data(), len - pad);
  job.out_len = len - pad;
  job.status = JobStatus::ok;
}

// ---- CTR and GCM's counter mode ------------------------------------------------------------------------------

/// XORs the keystream E(counter), E(counter+1), ... into in -> out. `gcm_inc32` selects GCM's 32-bit increment.
void counter_mode(const BlockCipherKey& key, const std::uint8_t first_counter[kBlock], bool gcm_inc32,
                  const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
  std::uint8_t counter[kBlock], blocks[kChunkBlocks * kBlock], stream[kChunkBlocks * kBlock];
  std::memcpy(counter, first_counter, kBlock);
  for (std::size_t pos = 0; pos < len; pos += kChunkBlocks * kBlock) {
    const std::size_t bytes = std::min(kChunkBlocks * kBlock, len - pos);
    const std::size_t n = (bytes + kBlock - 1) / kBlock;
    for (std::size_t i = 0; i < n; ++i) {
      std::memcpy(blocks + i * kBlock, counter, kBlock);
      if (gcm_inc32) algo::ctr32_add(counter, 1);
      else algo::ctr128_add(counter, 1);
    }
    key.encrypt(blocks, stream, n);
    xor_bytes(out + pos, in + pos, stream, bytes);
  }
  secure_wipe(stream, sizeof stream);
  secure_wipe(counter, sizeof counter);
}

void ctr(const BlockCipherKey& key, CipherJob& job) {
  counter_mode(key, job.iv.data(), false, job.in.data(), job.out.data(), job.in.size());
  job.out_len = job.in.size();
  job.status = JobStatus::ok;
}

// ---- GCM (SP 800-38D) ----------------------------------------------------------------------------------------

struct GcmSetup {
  algo::Ghash ghash;
  std::uint8_t j0[kBlock];
  ~GcmSetup() { secure_wipe(this, sizeof *this); }
};

void gcm_setup(const BlockCipherKey& key, bytes_view iv, GcmSetup& s) {
  std::uint8_t h[kBlock] = {};
  key.encrypt(h, h, 1);
  s.ghash.init(h);
  secure_wipe(h, sizeof h);
  if (iv.size() == 12) {  // J0 = IV || 0^31 || 1
    std::memcpy(s.j0, iv.data(), 12);
    s.j0[12] = s.j0[13] = s.j0[14] = 0, s.j0[15] = 1;
  } else {  // J0 = GHASH(IV || 0-pad || [0]_64 || [len(IV)]_64)
    algo::Ghash g = s.ghash;
    g.update_padded(iv.data(), iv.size());
    g.update_lengths(0, iv.size());
    algo::gf128_store(g.y, s.j0);
  }
}

/// Tag = E(J0) ^ GHASH(A, C), truncated to tag.size().
void gcm_tag(const BlockCipherKey& key, GcmSetup& s, bytes_view aad, const std::uint8_t* ciphertext, std::size_t len,
             std::uint8_t* tag, std::size_t tag_len) {
  algo::Ghash g = s.ghash;
  g.update_padded(aad.data(), aad.size());
  g.update_padded(ciphertext, len);
  g.update_lengths(aad.size(), len);
  std::uint8_t s_bytes[kBlock], ej0[kBlock];
  algo::gf128_store(g.y, s_bytes);
  key.encrypt(s.j0, ej0, 1);
  xor_bytes(s_bytes, s_bytes, ej0, kBlock);
  std::memcpy(tag, s_bytes, tag_len);
  secure_wipe(s_bytes, sizeof s_bytes);
  secure_wipe(ej0, sizeof ej0);
}

void gcm(const BlockCipherKey& key, Direction dir, CipherJob& job) {
  GcmSetup s;
  gcm_setup(key, job.iv, s);
  std::uint8_t first[kBlock];
  std::memcpy(first, s.j0, kBlock);
  algo::ctr32_add(first, 1);
  const std::size_t len = job.in.size();
  if (dir == Direction::encrypt) {
    counter_mode(key, first, true, job.in.data(), job.out.data(), len);
    gcm_tag(key, s, job.aad, job.out.data(), len, job.tag.data(), job.tag.size());
  } else {
    std::uint8_t expected[kBlock];
    gcm_tag(key, s, job.aad, job.in.data(), len, expected, job.tag.size());
    const bool match = ct::equal(expected, job.tag.data(), job.tag.size());
    secure_wipe(expected, sizeof expected);
    if (!match) return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
    counter_mode(key, first, true, job.in.data(), job.out.data(), len);
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

// ---- XTS (IEEE 1619, SP 800-38E) -----------------------------------------------------------------------------

/// Encrypts or decrypts one data unit (>= 16 bytes) with ciphertext stealing; `tweak` is the unit's encrypted tweak T.
void xts_unit(const BlockCipherKey& data_key, Direction dir, std::uint8_t tweak[kBlock], const std::uint8_t* in,
              std::uint8_t* out, std::size_t len) {
  const std::size_t partial = len % kBlock;
  const std::size_t plain_blocks = len / kBlock - (partial ? 1 : 0);  // blocks before any stealing pair
  std::uint8_t buf[kChunkBlocks * kBlock], tweaks[kChunkBlocks * kBlock];
  for (std::size_t b = 0; b < plain_blocks; b += kChunkBlocks) {
    const std::size_t n = std::min(kChunkBlocks, plain_blocks - b);
    for (std::size_t i = 0; i < n; ++i) {
      std::memcpy(tweaks + i * kBlock, tweak, kBlock);
      algo::xts_mul_alpha(tweak);
    }
    xor_bytes(buf, in + b * kBlock, tweaks, n * kBlock);
    if (dir == Direction::encrypt) data_key.encrypt(buf, buf, n);
    else data_key.decrypt(buf, buf, n);
    xor_bytes(out + b * kBlock, buf, tweaks, n * kBlock);
  }
  if (partial) {
    // Last full block m-1 (tweak T_(m-1)) and the partial block m (tweak T_m). Decryption uses them swapped.
    const std::size_t at = plain_blocks * kBlock;
    std::uint8_t t_prev[kBlock], t_last[kBlock], cc[kBlock], tail[kBlock];
    std::memcpy(t_prev, tweak, kBlock);
    std::memcpy(t_last, tweak, kBlock);
    algo::xts_mul_alpha(t_last);
    const std::uint8_t* first_tweak = dir == Direction::encrypt ? t_prev : t_last;
    const std::uint8_t* second_tweak = dir == Direction::encrypt ? t_last : t_prev;
    std::memcpy(tail, in + at + kBlock, partial);  // read the partial input before any write (in-place safe)
    xor_bytes(cc, in + at, first_tweak, kBlock);
    if (dir == Direction::encrypt) data_key.encrypt(cc, cc, 1);
    else data_key.decrypt(cc, cc, 1);
    xor_bytes(cc, cc, first_tweak, kBlock);
    // cc's head becomes the short final output block; its tail is stolen to complete the partial input block.
    std::uint8_t pp[kBlock];
    std::memcpy(pp, tail, partial);
    std::memcpy(pp + partial, cc + partial, kBlock - partial);
    std::memcpy(out + at + kBlock, cc, partial);
    xor_bytes(pp, pp, second_tweak, kBlock);
    if (dir == Direction::encrypt) data_key.encrypt(pp, pp, 1);
    else data_key.decrypt(pp, pp, 1);
    xor_bytes(out + at, pp, second_tweak, kBlock);
    secure_wipe(pp, sizeof pp);
    secure_wipe(cc, sizeof cc);
    secure_wipe(tail, sizeof tail);
  }
  secure_wipe(buf, sizeof buf);
}

void xts(const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t unit) {
  const std::size_t half = job.key.size() / 2;
  auto data_key = make_block_cipher(spec.cipher, job.key.first(half));
  auto tweak_key = make_block_cipher(spec.cipher, job.key.subspan(half));
  const std::size_t len = job.in.size();
  if (unit == 0) unit = len;
  std::uint8_t sequence[kBlock], tweak[kBlock];
  std::memcpy(sequence, job.iv.data(), kBlock);
  for (std::size_t pos = 0; pos < len; pos += unit) {
    tweak_key->encrypt(sequence, tweak, 1);
    xts_unit(*data_key, dir, tweak, job.in.data() + pos, job.out.data() + pos, std::min(unit, len - pos));
    algo::le128_add(sequence, 1);
  }
  secure_wipe(tweak, sizeof tweak);
  job.out_len = len;
  job.status = JobStatus::ok;
}

// ---- GCM building blocks for jobs split over threads -------------------------------------------------------

class GcmSplitKey final : public engine::GcmSplitKey {
 public:
  GcmSplitKey(BlockCipher cipher, bytes_view key) : key_(make_block_cipher(cipher, key)) {
    std::uint8_t h[kBlock] = {};
    key_->encrypt(h, h, 1);
    h_ = algo::gf128_load(h);
    secure_wipe(h, sizeof h);
  }
  ~GcmSplitKey() override { secure_wipe(&h_, sizeof h_); }
  void encrypt_block(const std::uint8_t in[16], std::uint8_t out[16]) const override { key_->encrypt(in, out, 1); }
  void ctr32(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
             std::size_t len) const override {
    counter_mode(*key_, counter, true, in, out, len);
  }
  void ghash(std::uint8_t y[16], const std::uint8_t* data, std::size_t len) const override {
    algo::Ghash g;
    g.h = h_;
    g.y = algo::gf128_load(y);
    g.update_padded(data, len);
    algo::gf128_store(g.y, y);
    secure_wipe(&g, sizeof g);
  }

 private:
  std::unique_ptr<BlockCipherKey> key_;
  algo::Gf128 h_;
};

}  // namespace

std::unique_ptr<engine::GcmSplitKey> make_gcm_split_key(BlockCipher cipher, bytes_view key) {
  return std::make_unique<GcmSplitKey>(cipher, key);
}

void run_cipher_job(const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t xts_unit_size) {
  if (spec.mode == Mode::xts) return xts(spec, dir, job, xts_unit_size);
  if (spec.mode == Mode::poly1305) return chacha20_poly1305(dir, job);
  const auto key = make_block_cipher(spec.cipher, job.key);
  switch (spec.mode) {
    case Mode::ecb:
    case Mode::cbc:
      return dir == Direction::encrypt ? ecb_or_cbc_encrypt(*key, spec, job) : ecb_or_cbc_decrypt(*key, spec, job);
    case Mode::ctr:
      return ctr(*key, job);
    case Mode::gcm:
      return gcm(*key, dir, job);
    case Mode::xts:
    case Mode::poly1305:
      break;
  }
}

}  // namespace cryptaccel::ref

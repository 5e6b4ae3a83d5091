// The body of every cuda-engine kernel, for one work unit: the __global__ kernels (src/cuda/kernels/kernels.cu) call these in
// a grid-stride loop, and the host emulation (src/cuda/host/emulated_device.cpp) calls them in a plain loop, so the CPU
// test suite runs exactly the per-thread code the GPU runs. Every function reads and writes only its own unit's
// bytes (plus read-only shared inputs), so units may run in any order or concurrently.
//
//   op                 units                          does
//   expand_keys        one per key                    key schedule from the raw key
//   ecb                block_units(len, kLanes)       E or D of kLanes blocks
//   ctr                block_units(len, kLanes)       keystream E(counter + i) XORed in; 128-bit counter
//   cbc_gather         block_units(len, kLanes)       saves the ciphertext block before the unit (or the IV)
//   cbc_decrypt        block_units(len, kLanes)       D(C_i) ^ C_(i-1), reading C_(-1) from the saved block
//   cbc_encrypt        one per job                    serial chain (CBC encryption has no parallelism inside a job)
//   xts                xts_units(len, xts_unit)       a run of blocks of one data unit, or its stealing pair
//   gcm_setup          one per GCM parent             H, its powers H^(2^i), J0
//   gcm_ctr            block_units(len, kLanes)       GCM's counter mode (32-bit increment) from J0 + 1 + offset
//   ghash_segments     one per GHASH slot             Horner's rule over kGhashSegmentBlocks blocks (gf128_ctmul.hpp)
//   ghash_combine      slots >> (level + 1)           left · H^(S·2^level) ^ right, one tree level
//   ghash_collect      one per job                    the slice's GHASH into its parent's partial record
//   gcm_finalize       one per GCM parent             combines the slices' partials, length block, tag / check
//   gcm_wipe_failed    block_units(len, kLanes)       zeroes the output of a message whose tag did not match
#pragma once
#include <cstdint>
#include <cstddef>

#include "algo/block_modes.hpp"
#include "algo/ghash.hpp"
#include "algo/hash_message.hpp"
#include "algo/keccak.hpp"
#include "cuda/kernels/cipher_impl.hpp"
#include "cuda/kernels/gf128_ctmul.hpp"
#include "cuda/host/layout.hpp"
#include "cuda/host/work_units.hpp"
#include "cuda/kernels/xts_math.hpp"

namespace cryptaccel::cuda {

/// The job owning `unit`: the last j with begin[j] <= unit (begin[0] = 0, non-decreasing, begin[n] > unit).
CA_HD std::uint32_t find_owner(const std::uint64_t* begin, std::uint32_t n, std::uint64_t unit) {
  std::uint32_t lo = 0, hi = n;
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (begin[mid] <= unit) lo = mid;
    else hi = mid;
  }
  return lo;
}

CA_HD void copy_bytes(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t n) {
#if defined(__CUDA_ARCH__)
  // 16-byte accesses when both sides allow them (device data regions are 256-byte aligned, local buffers alignas 16).
  if (((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) & 15u) == 0) {
    for (; n >= 16; n -= 16, dst += 16, src += 16) *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
  }
#endif
  for (std::uint64_t i = 0; i < n; ++i) dst[i] = src[i];
}

/// out[i] = in[i] ^ ks[i] for i < n (16 bytes at a time on the device when aligned).
CA_HD void xor_bytes(std::uint8_t* out, const std::uint8_t* in, const std::uint8_t* ks, std::uint64_t n) {
#if defined(__CUDA_ARCH__)
  if (((reinterpret_cast<std::uintptr_t>(out) | reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(ks)) & 15u) == 0) {
    for (; n >= 16; n -= 16, out += 16, in += 16, ks += 16) {
      const uint4 a = *reinterpret_cast<const uint4*>(in), k = *reinterpret_cast<const uint4*>(ks);
      *reinterpret_cast<uint4*>(out) = make_uint4(a.x ^ k.x, a.y ^ k.y, a.z ^ k.z, a.w ^ k.w);
    }
  }
#endif
  for (std::uint64_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(in[i] ^ ks[i]);
}
CA_HD void zero_bytes(std::uint8_t* dst, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) dst[i] = 0;
}
CA_HD std::uint64_t min_u64(std::uint64_t a, std::uint64_t b) { return a < b ? a : b; }

template <CipherImpl I>
CA_HD const typename Impl<I>::Key& key_at(const CipherArgs& a, std::uint32_t slot) {
  return static_cast<const typename Impl<I>::Key*>(a.keys)[slot];
}

// ---- keys ------------------------------------------------------------------------------------------------------

template <CipherImpl I>
CA_HD void op_expand_keys(const CipherArgs& a, std::uint64_t k) {
  Impl<I>::expand(a.raw_keys[k], static_cast<typename Impl<I>::Key*>(a.keys)[k]);
}

// ---- block-wise modes ------------------------------------------------------------------------------------------

/// The unit's job and its first block.
struct BlockUnit {
  std::uint32_t job;
  std::uint64_t first_block;
};

template <CipherImpl I>
CA_HD BlockUnit block_unit(const CipherArgs& a, std::uint64_t unit) {
  const std::uint32_t j = find_owner(a.unit_begin, a.njobs, unit);
  return {j, (unit - a.unit_begin[j]) * Impl<I>::kLanes};
}

template <CipherImpl I>
CA_HD void op_ecb(const CipherArgs& a, const TtableView& t, std::uint64_t unit) {
  constexpr int L = Impl<I>::kLanes;
  const BlockUnit u = block_unit<I>(a, unit);
  const DevCipherJob& job = a.jobs[u.job];
  const int n = static_cast<int>(min_u64(L, job.len / kBlock - u.first_block));
  alignas(16) std::uint8_t buf[L * kBlock];
  copy_bytes(buf, job.in + u.first_block * kBlock, n * kBlock);
  if (a.decrypt) Impl<I>::decrypt(t, key_at<I>(a, job.key), buf, buf, n);
  else Impl<I>::encrypt(t, key_at<I>(a, job.key), buf, buf, n);
  copy_bytes(job.out + u.first_block * kBlock, buf, n * kBlock);
  zero_bytes(buf, sizeof buf);
}

/// XORs the keystream for blocks [first_block, first_block + n) of `job` into out; `counter` is the first block's.
template <CipherImpl I>
CA_HD void keystream_xor(const CipherArgs& a, const TtableView& t, const DevCipherJob& job, std::uint64_t first_block,
                         std::uint8_t counter[16], bool inc32) {
  constexpr int L = Impl<I>::kLanes;
  const std::uint64_t at = first_block * kBlock;
  const std::uint64_t bytes = min_u64(static_cast<std::uint64_t>(L) * kBlock, job.len - at);
  const int n = static_cast<int>((bytes + kBlock - 1) / kBlock);
  alignas(16) std::uint8_t ks[L * kBlock];
  for (int i = 0; i < n; ++i) {
    copy_bytes(ks + kBlock * i, counter, kBlock);
    if (inc32) algo::ctr32_add(counter, 1);
    else algo::ctr128_add(counter, 1);
  }
  Impl<I>::encrypt(t, key_at<I>(a, job.key), ks, ks, n);
  xor_bytes(job.out + at, job.in + at, ks, bytes);
  zero_bytes(ks, sizeof ks);
}

template <CipherImpl I>
CA_HD void op_ctr(const CipherArgs& a, const TtableView& t, std::uint64_t unit) {
  const BlockUnit u = block_unit<I>(a, unit);
  const DevCipherJob& job = a.jobs[u.job];
  std::uint8_t counter[16];
  copy_bytes(counter, job.iv, 16);
  algo::ctr128_add(counter, u.first_block);
  keystream_xor<I>(a, t, job, u.first_block, counter, false);
}

template <CipherImpl I>
CA_HD void op_cbc_gather(const CipherArgs& a, std::uint64_t unit) {
  const BlockUnit u = block_unit<I>(a, unit);
  const DevCipherJob& job = a.jobs[u.job];
  const std::uint8_t* prev = u.first_block == 0 ? job.iv : job.in + (u.first_block - 1) * kBlock;
  copy_bytes(a.chain + unit * kBlock, prev, kBlock);
}

template <CipherImpl I>
CA_HD void op_cbc_decrypt(const CipherArgs& a, const TtableView& t, std::uint64_t unit) {
  constexpr int L = Impl<I>::kLanes;
  const BlockUnit u = block_unit<I>(a, unit);
  const DevCipherJob& job = a.jobs[u.job];
  const int n = static_cast<int>(min_u64(L, job.len / kBlock - u.first_block));
  alignas(16) std::uint8_t c[L * kBlock];
  alignas(16) std::uint8_t p[L * kBlock];
  copy_bytes(c, job.in + u.first_block * kBlock, n * kBlock);  // all reads before any write: in == out is fine
  Impl<I>::decrypt(t, key_at<I>(a, job.key), c, p, n);
  const std::uint8_t* prev = a.chain + unit * kBlock;
  for (int i = 0; i < n; ++i)
    for (unsigned k = 0; k < kBlock; ++k) p[kBlock * i + k] ^= (i == 0 ? prev[k] : c[kBlock * (i - 1) + k]);
  copy_bytes(job.out + u.first_block * kBlock, p, n * kBlock);
  zero_bytes(p, sizeof p);
}

template <CipherImpl I>
CA_HD void op_cbc_encrypt(const CipherArgs& a, const TtableView& t, std::uint64_t j) {
  const DevCipherJob& job = a.jobs[j];
  std::uint8_t x[kBlock], chain[kBlock];
  copy_bytes(chain, job.iv, kBlock);
  for (std::uint64_t b = 0; b < job.len / kBlock; ++b) {
    for (unsigned k = 0; k < kBlock; ++k) x[k] = static_cast<std::uint8_t>(job.in[b * kBlock + k] ^ chain[k]);
    Impl<I>::encrypt(t, key_at<I>(a, job.key), x, chain, 1);
    copy_bytes(job.out + b * kBlock, chain, kBlock);
  }
  zero_bytes(x, sizeof x);
}

// ---- XTS (IEEE 1619) -------------------------------------------------------------------------------------------

/// One XTS work unit: a run of up to kXtsRunBlocks blocks of a data unit, or the data unit's stealing pair.
template <CipherImpl I>
CA_HD void op_xts(const CipherArgs& a, const TtableView& t, std::uint64_t unit) {
  constexpr int L = Impl<I>::kLanes;
  const std::uint32_t j = find_owner(a.unit_begin, a.njobs, unit);
  const DevCipherJob& job = a.jobs[j];
  const std::uint64_t k = unit - a.unit_begin[j];
  // Which data unit of the piece, which run of it, and that data unit's bytes.
  const bool whole = job.xts_unit == 0 || job.xts_unit >= job.len;
  std::uint64_t du = 0, run = k, du_len = job.len;
  if (!whole) {
    const std::uint64_t per = xts_runs(job.xts_unit), full = job.len / job.xts_unit;
    if (k < full * per) du = k / per, run = k % per, du_len = job.xts_unit;
    else du = full, run = k - full * per, du_len = job.len % job.xts_unit;
  }
  const std::uint64_t base = whole ? job.block_offset : 0;  // blocks of this data unit before the piece
  const std::uint8_t* in = job.in + du * job.xts_unit;
  std::uint8_t* out = job.out + du * job.xts_unit;

  // T = E_K2(sequence number + du), then advanced to the unit's first block.
  std::uint8_t tweak[kBlock];
  copy_bytes(tweak, job.iv, kBlock);
  algo::le128_add(tweak, du);
  Impl<I>::encrypt(t, key_at<I>(a, job.key + 1), tweak, tweak, 1);
  const auto& key = key_at<I>(a, job.key);
  const std::uint64_t plain = xts_plain_blocks(du_len);
  const std::uint64_t plain_runs = (plain + kXtsRunBlocks - 1) / kXtsRunBlocks;
  std::uint8_t buf[L * kBlock], tw[L * kBlock];
  if (run < plain_runs) {
    const std::uint64_t b0 = run * kXtsRunBlocks, b1 = min_u64(b0 + kXtsRunBlocks, plain);
    xts_mul_alpha_pow(tweak, base + b0, a.xts_alpha_pow);
    for (std::uint64_t b = b0; b < b1; b += L) {
      const int n = static_cast<int>(min_u64(L, b1 - b));
      for (int i = 0; i < n; ++i) {
        copy_bytes(tw + kBlock * i, tweak, kBlock);
        algo::xts_mul_alpha(tweak);
        for (unsigned q = 0; q < kBlock; ++q) buf[kBlock * i + q] = static_cast<std::uint8_t>(in[(b + i) * kBlock + q] ^ tw[kBlock * i + q]);
      }
      if (a.decrypt) Impl<I>::decrypt(t, key, buf, buf, n);
      else Impl<I>::encrypt(t, key, buf, buf, n);
      for (int i = 0; i < n; ++i)
        for (unsigned q = 0; q < kBlock; ++q) out[(b + i) * kBlock + q] = static_cast<std::uint8_t>(buf[kBlock * i + q] ^ tw[kBlock * i + q]);
    }
  } else {
    // Ciphertext stealing over the last whole block (index `plain`) and the partial block after it. Decryption uses
    // the two tweaks in the opposite order.
    const std::uint64_t at = plain * kBlock;
    const unsigned partial = static_cast<unsigned>(du_len % kBlock);
    std::uint8_t t_prev[kBlock], t_last[kBlock], cc[kBlock], pp[kBlock];
    copy_bytes(t_prev, tweak, kBlock);
    xts_mul_alpha_pow(t_prev, base + plain, a.xts_alpha_pow);
    copy_bytes(t_last, t_prev, kBlock);
    algo::xts_mul_alpha(t_last);
    const std::uint8_t* first = a.decrypt ? t_last : t_prev;
    const std::uint8_t* second = a.decrypt ? t_prev : t_last;
    for (unsigned q = 0; q < kBlock; ++q) cc[q] = static_cast<std::uint8_t>(in[at + q] ^ first[q]);
    for (unsigned q = 0; q < partial; ++q) pp[q] = in[at + kBlock + q];  // read before any write (in == out)
    if (a.decrypt) Impl<I>::decrypt(t, key, cc, cc, 1);
    else Impl<I>::encrypt(t, key, cc, cc, 1);
    for (unsigned q = 0; q < kBlock; ++q) cc[q] ^= first[q];
    for (unsigned q = partial; q < kBlock; ++q) pp[q] = cc[q];
    for (unsigned q = 0; q < partial; ++q) out[at + kBlock + q] = cc[q];
    for (unsigned q = 0; q < kBlock; ++q) pp[q] ^= second[q];
    if (a.decrypt) Impl<I>::decrypt(t, key, pp, pp, 1);
    else Impl<I>::encrypt(t, key, pp, pp, 1);
    for (unsigned q = 0; q < kBlock; ++q) out[at + q] = static_cast<std::uint8_t>(pp[q] ^ second[q]);
    zero_bytes(cc, sizeof cc);
    zero_bytes(pp, sizeof pp);
  }
  zero_bytes(buf, sizeof buf);
  zero_bytes(tweak, sizeof tweak);
}

// ---- GCM (SP 800-38D) ------------------------------------------------------------------------------------------

template <CipherImpl I>
CA_HD void op_gcm_setup(const CipherArgs& a, const TtableView& t, std::uint64_t p) {
  const DevGcmParent& parent = a.parents[p];
  GcmState& s = *parent.state;
  std::uint8_t h[kBlock] = {};
  Impl<I>::encrypt(t, key_at<I>(a, parent.key), h, h, 1);
  s.hpow[0] = algo::gf128_load(h);
  for (unsigned i = 1; i < kGcmPowers; ++i) s.hpow[i] = gf128_mul_ct(s.hpow[i - 1], s.hpow[i - 1]);
  if (parent.iv_len == 12) {  // J0 = IV || 0^31 || 1
    copy_bytes(s.j0, parent.iv, 12);
    s.j0[12] = s.j0[13] = s.j0[14] = 0, s.j0[15] = 1;
  } else {  // J0 = GHASH(IV || 0-pad || [0]_64 || [len(IV)]_64)
    algo::Ghash g;
    g.h = s.hpow[0];
    g.y = algo::Gf128{};
    g.update_padded(parent.iv, parent.iv_len);
    g.update_lengths(0, parent.iv_len);
    algo::gf128_store(g.y, s.j0);
  }
  zero_bytes(h, sizeof h);
}

template <CipherImpl I>
CA_HD void op_gcm_ctr(const CipherArgs& a, const TtableView& t, std::uint64_t unit) {
  const BlockUnit u = block_unit<I>(a, unit);
  const DevCipherJob& job = a.jobs[u.job];
  std::uint8_t counter[16];
  copy_bytes(counter, a.parents[job.parent].state->j0, 16);
  algo::ctr32_add(counter, static_cast<std::uint32_t>(1 + job.block_offset + u.first_block));
  keystream_xor<I>(a, t, job, u.first_block, counter, true);
}

/// A whole 16-byte GHASH block as a field element (big-endian halves). On the device an aligned block is one 16-byte
/// load and four byte swaps (PRMT) instead of sixteen byte loads: the GHASH kernel was bound by L1 wavefronts
/// (Nsight Compute, bench/results/2026-11-28-h100/run2/ncu.txt: 99% L1 throughput, 1 of 32 bytes per sector used).
CA_HD algo::Gf128 load_ghash_block(const std::uint8_t* p) {
#if defined(__CUDA_ARCH__)
  if ((reinterpret_cast<std::uintptr_t>(p) & 15u) == 0) {
    const uint4 w = *reinterpret_cast<const uint4*>(p);  // little-endian words: bytes 0-3 in w.x
    auto be = [](unsigned x) { return static_cast<std::uint64_t>(__byte_perm(x, 0, 0x0123)); };
    return algo::Gf128{be(w.x) << 32 | be(w.y), be(w.z) << 32 | be(w.w)};
  }
#endif
  return algo::gf128_load(p);
}

/// Block i of a GCM slice's GHASH input (AAD zero-padded, then text zero-padded).
CA_HD algo::Gf128 ghash_block(const DevCipherJob& job, const std::uint8_t* text, std::uint64_t i) {
  const std::uint64_t aad_blocks = (job.aad_len + kBlock - 1) / kBlock;
  const std::uint8_t* src = text;
  std::uint64_t len = job.len, at = (i - aad_blocks) * kBlock;
  if (i < aad_blocks) src = job.aad, len = job.aad_len, at = i * kBlock;
  if (at + kBlock <= len) return load_ghash_block(src + at);
  std::uint8_t block[kBlock] = {};
  for (std::uint64_t q = 0; at + q < len; ++q) block[q] = src[at + q];
  return algo::gf128_load(block);
}

CA_HD void op_ghash_segments(const CipherArgs& a, std::uint64_t slot) {
  const std::uint32_t k = find_owner(a.slot_begin, a.njobs, slot);
  const DevCipherJob& job = a.jobs[a.slot_job[k]];
  const algo::Gf128 h = a.parents[job.parent].state->hpow[0];
  const std::uint8_t* text = a.decrypt ? job.in : job.out;  // GHASH is over the ciphertext
  const std::uint64_t m = ghash_blocks(job.aad_len, job.len);
  const std::uint64_t pad = static_cast<std::uint64_t>(job.slots) * kGhashSegmentBlocks - m;  // virtual zero blocks
  const std::uint64_t first = (slot - a.slot_begin[k]) * kGhashSegmentBlocks;           // in padded numbering
  algo::Gf128 y{};
  for (std::uint64_t v = first; v < first + kGhashSegmentBlocks; ++v) {
    if (v < pad) continue;  // leading zero blocks: y stays 0
    const algo::Gf128 x = ghash_block(job, text, v - pad);
    y.hi ^= x.hi, y.lo ^= x.lo;
    y = gf128_mul_ct(y, h);
  }
  a.slots[slot] = y;
}

CA_HD void op_ghash_combine(const CipherArgs& a, std::uint64_t pair) {
  const std::uint64_t width = std::uint64_t{1} << (a.level + 1), left = pair * width;
  const std::uint32_t k = find_owner(a.slot_begin, a.njobs, left);
  const DevCipherJob& job = a.jobs[a.slot_job[k]];
  if (job.slots < width) return;  // this slice's tree is already complete (buddy alignment: no straddling otherwise)
  const algo::Gf128 f = a.parents[job.parent].state->hpow[kGhashSegmentLog2 + a.level];  // H^(S·2^level)
  const algo::Gf128 l = gf128_mul_ct(a.slots[left], f), r = a.slots[left + width / 2];
  a.slots[left] = algo::Gf128{l.hi ^ r.hi, l.lo ^ r.lo};
}

CA_HD void op_ghash_collect(const CipherArgs& a, std::uint64_t j) {
  const DevCipherJob& job = a.jobs[j];
  a.parents[job.parent].partials[job.piece] = PiecePartial{a.slots[job.slot_base], ghash_blocks(job.aad_len, job.len)};
}

/// x · H^e for a public e, from H^(2^i).
CA_HD algo::Gf128 mul_h_pow(algo::Gf128 x, std::uint64_t e, const algo::Gf128* hpow) {
  for (unsigned i = 0; i < kGcmPowers && (e >> i) != 0; ++i)
    if ((e >> i) & 1u) x = gf128_mul_ct(x, hpow[i]);
  return x;
}

template <CipherImpl I>
CA_HD void op_gcm_finalize(const CipherArgs& a, const TtableView& t, std::uint64_t p) {
  const DevGcmParent& parent = a.parents[p];
  const GcmState& s = *parent.state;
  algo::Gf128 y{};
  for (std::uint32_t k = 0; k < parent.pieces; ++k) {  // Horner over the slices: y·H^(blocks of slice k) ^ partial_k
    const PiecePartial& part = parent.partials[k];
    y = mul_h_pow(y, part.blocks, s.hpow);
    y.hi ^= part.y.hi, y.lo ^= part.y.lo;
  }
  algo::Ghash g;
  g.h = s.hpow[0];
  g.y = y;
  g.update_lengths(parent.aad_len, parent.text_len);
  std::uint8_t tag[kBlock], ej0[kBlock];
  algo::gf128_store(g.y, tag);
  Impl<I>::encrypt(t, key_at<I>(a, parent.key), s.j0, ej0, 1);
  for (unsigned q = 0; q < kBlock; ++q) tag[q] ^= ej0[q];
  if (a.decrypt) {
    unsigned diff = 0;
    for (unsigned q = 0; q < parent.tag_len; ++q) diff |= static_cast<unsigned>(tag[q] ^ parent.tag[q]);
    *parent.ok = diff == 0 ? 1 : 0;
  } else {
    copy_bytes(parent.tag, tag, parent.tag_len);
  }
  zero_bytes(tag, sizeof tag);
  zero_bytes(ej0, sizeof ej0);
}

template <CipherImpl I>
CA_HD void op_gcm_wipe_failed(const CipherArgs& a, std::uint64_t unit) {
  const BlockUnit u = block_unit<I>(a, unit);
  const DevCipherJob& job = a.jobs[u.job];
  if (*a.parents[job.parent].ok) return;
  const std::uint64_t at = u.first_block * kBlock;
  zero_bytes(job.out + at, min_u64(static_cast<std::uint64_t>(Impl<I>::kLanes) * kBlock, job.len - at));
}

// ---- hashes --------------------------------------------------------------------------------------------------

CA_HD void op_hash(const HashArgs& a, std::uint64_t i) {
  const std::uint64_t begin = a.offsets[i], end = a.offsets[i + 1];
  std::uint8_t* out = a.digests + i * a.digest_len;
  std::uint64_t out_len = a.digest_len;
  if (a.digest_offsets) out = a.digests + a.digest_offsets[i], out_len = a.digest_offsets[i + 1] - a.digest_offsets[i];
  algo::hash_message(static_cast<algo::HashVariant>(a.variant), a.data + begin, end - begin, out, out_len);
}

CA_HD void op_keccak(std::uint64_t* states, std::uint64_t i) { algo::keccak_f1600(states + 25 * i); }

}  // namespace cryptaccel::cuda

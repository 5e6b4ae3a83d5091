// The multi-buffer scheduler: keeps every lane of a kernel busy with messages of different lengths.
// Each lane walks two segments: the message's whole blocks, read in place, then its 1-2 padded final blocks, built
// in the lane's own small buffer when the message starts. Every kernel call absorbs as many blocks as the lane
// nearest the end of its segment has left; lanes that reach the end switch segment, or output their digest and
// take the next message. Scheduling depends on message lengths only, never on their contents.
#include "cpu/hash_lanes.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <emmintrin.h>  // SSE2, in every x86-64 CPU
#include <vector>

#include "algo/hash_message.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel::cpu {
namespace {

using algo::HashFamily;
using algo::HashVariant;

struct Lane {
  HashJob* job = nullptr;           ///< nullptr: idle
  const std::uint8_t* next = nullptr;  ///< next block of the current segment
  std::size_t left = 0;             ///< blocks left in the current segment
  std::size_t final_left = 0;       ///< padded blocks still to come after the current (body) segment
  alignas(32) std::uint8_t pad[kFinalBlocksBytes];
};

}  // namespace

namespace {

/// The `n` (< 16) bytes at `p` in the low bytes of a register, zeros above, reading no byte outside them: two
/// overlapping loads of 8, 4 or 1 bytes (overlapping bytes are equal, so OR merges them). `n` is a length, not a
/// secret.
__m128i load_partial(const std::uint8_t* p, std::size_t n) {
  std::uint64_t lo = 0, hi = 0;
  if (n >= 8) {
    std::memcpy(&lo, p, 8);
    if (n > 8) {
      std::memcpy(&hi, p + n - 8, 8);
      hi >>= 8 * (16 - n);
    }
  } else if (n >= 4) {
    std::uint32_t a, b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    lo = a | (static_cast<std::uint64_t>(b) << (8 * (n - 4)));
  } else if (n > 0) {
    lo = p[0] | (static_cast<std::uint64_t>(p[n / 2]) << (8 * (n / 2))) |
         (static_cast<std::uint64_t>(p[n - 1]) << (8 * (n - 1)));
  }
  return _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo));
}

/// A register with `value` at byte `pos` (< 16) and zeros elsewhere.
__m128i byte_at(std::size_t pos, std::uint8_t value) {
  alignas(16) static constexpr std::uint8_t kMark[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF};
  const __m128i mark = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kMark + 16 - pos));
  return _mm_and_si128(mark, _mm_set1_epi8(static_cast<char>(value)));
}

}  // namespace

// Built in registers and written with one 16-byte store per 16 bytes, so that the block function's loads of the
// result are each served by one store (a load that spans several smaller stores waits for them to reach the cache:
// 48 of the 139 TSC cycles of a 16-byte SHA-256 on the Xeon of bench/results/2026-11-28-xeon-2c-ifma-vaes, when this
// wrote zeros, then the tail, then the marker and length bytes).
std::size_t build_final_blocks(HashAlgorithm algorithm, const std::uint8_t* tail, std::size_t tail_len,
                               std::uint64_t total_bytes, std::uint8_t out[kFinalBlocksBytes]) {
  const HashVariant v = engine::to_variant(algorithm);
  const std::size_t block = algo::hash_block_size(v);
  const bool keccak = algo::hash_family(v) == HashFamily::keccak;
  const bool sha512 = algo::hash_family(v) == HashFamily::sha512;
  const std::size_t length_bytes = sha512 ? 16 : 8;
  const std::size_t blocks = keccak || tail_len + 1 + length_bytes <= block ? 1 : 2;
  const std::size_t end = blocks * block;
  const std::uint8_t marker = !keccak ? 0x80 : (v == HashVariant::shake128 || v == HashVariant::shake256) ? 0x1f : 0x06;
  for (std::size_t at = 0; at < end; at += 16) {  // Keccak's 136- and 168-byte rates end inside the last 16 bytes
    __m128i c = at + 16 <= tail_len ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(tail + at))
                : at < tail_len     ? load_partial(tail + at, tail_len - at)
                                    : _mm_setzero_si128();
    if (at <= tail_len && tail_len < at + 16) c = _mm_or_si128(c, byte_at(tail_len - at, marker));
    if (keccak && at <= block - 1 && block - 1 < at + 16) c = _mm_or_si128(c, byte_at(block - 1 - at, 0x80));
    if (!keccak && at + 16 == end) {  // the bit count, big-endian (SHA-512: its upper half's low byte at end - 9)
      const std::uint64_t upper = sha512 ? (total_bytes >> 61) << 56 : 0;
      c = _mm_or_si128(c, _mm_set_epi64x(static_cast<long long>(__builtin_bswap64(total_bytes << 3)),
                                         static_cast<long long>(upper)));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + at), c);
  }
  return blocks;
}

void write_digest(HashAlgorithm algorithm, std::uint64_t words[25], mutable_bytes out) {
  // Word by word straight into `out` (a memcpy of a variable size would be a library call per message).
  const HashVariant v = engine::to_variant(algorithm);
  std::uint8_t* p = out.data();
  const std::size_t n = out.size();
  std::size_t i = 0;
  switch (algo::hash_family(v)) {
    case HashFamily::sha256:
    case HashFamily::sm3:  // 28 or 32 bytes: whole 32-bit words
      for (; 4 * i < n; ++i) algo::store_be32(p + 4 * i, static_cast<std::uint32_t>(words[i]));
      return;
    case HashFamily::sha512:  // 28, 32, 48 or 64 bytes: SHA-512/224 ends in half a word
      for (; 8 * i + 8 <= n; ++i) algo::store_be64(p + 8 * i, words[i]);
      if (8 * i < n) algo::store_be32(p + 8 * i, static_cast<std::uint32_t>(words[i] >> 32));
      return;
    case HashFamily::keccak:
      if (n > algo::hash_block_size(v)) {  // SHAKE beyond one rate: squeeze
        algo::hash_output(v, words, p, n);
        return;
      }
      for (; 8 * i + 8 <= n; ++i) algo::store_le64(p + 8 * i, words[i]);
      for (std::size_t j = 8 * i; j < n; ++j) p[j] = static_cast<std::uint8_t>(words[i] >> (8 * (j - 8 * i)));
      return;
  }
}

namespace {

/// Pending jobs' indices, longest first. A counting sort on the bit length of the length in 64-byte units: O(n), and
/// within a factor of about two of a full sort, which is all the lanes need to finish close together.
std::vector<std::uint32_t> longest_first(std::span<HashJob> jobs) {
  std::array<std::uint32_t, 66> count{};
  auto key = [](const HashJob& job) { return static_cast<std::size_t>(std::bit_width(job.in.size() >> 6)); };
  std::size_t pending = 0, distinct = 0;
  for (const HashJob& job : jobs)
    if (job.status == JobStatus::pending) distinct += count[key(job)]++ == 0, ++pending;
  if (distinct == 1 && pending == jobs.size()) {  // nothing to reorder (a common case: messages of one size)
    std::vector<std::uint32_t> order(pending);
    for (std::size_t i = 0; i < pending; ++i) order[i] = static_cast<std::uint32_t>(i);
    return order;
  }
  // Start offsets, largest key first.
  std::uint32_t at = 0;
  for (std::size_t k = count.size(); k-- > 0;) {
    const std::uint32_t c = count[k];
    count[k] = at;
    at += c;
  }
  std::vector<std::uint32_t> order(pending);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].status == JobStatus::pending) order[count[key(jobs[i])]++] = static_cast<std::uint32_t>(i);
  return order;
}

/// Whether every job in `order` has the same length.
bool same_length(std::span<const HashJob> jobs, const std::vector<std::uint32_t>& order) {
  const std::size_t len = jobs[order[0]].in.size();
  for (const std::uint32_t i : order)
    if (jobs[i].in.size() != len) return false;
  return true;
}

}  // namespace

void run_lanes(const LaneKernel& kernel, HashAlgorithm algorithm, std::span<HashJob> jobs, const LaneOptions& options) {
  const HashVariant v = engine::to_variant(algorithm);
  const std::size_t block = algo::hash_block_size(v);
  const std::size_t lanes = kernel.lanes;
  const int shift = std::has_single_bit(block) ? std::countr_zero(block) : 0;
  const std::vector<std::uint32_t> order = longest_first(jobs);

  alignas(64) std::uint8_t state[kMaxLaneStateBytes];
  std::array<Lane, kMaxLanes> lane;
  std::uint64_t words[25], initial[25];
  algo::hash_init(v, initial);

  auto start = [&](Lane& l, std::size_t index, HashJob& job) {
    kernel.set_lane(state, index, initial);
    const std::size_t len = job.in.size();
    const std::size_t body = shift ? len >> shift : len / block;  // 64-bit DIV is slow; SHA-2/SM3 blocks are 2^k
    const std::size_t final_blocks =
        build_final_blocks(algorithm, job.in.data() + body * block, len - body * block, len, l.pad);
    l.job = &job;
    if (body) {
      l.next = job.in.data(), l.left = body, l.final_left = final_blocks;
    } else {
      l.next = l.pad, l.left = final_blocks, l.final_left = 0;
    }
  };
  auto finish = [&](Lane& l, std::size_t index) {
    kernel.get_lane(state, index, words);
    write_digest(algorithm, words, l.job->digest);
    l.job->status = JobStatus::ok;
    l.job = nullptr;
  };

  std::size_t queued = 0, active = 0;
  const std::uint8_t* in[kMaxLanes];

  // Messages of one length (a common batch: Merkle tree nodes, fixed-size records) run `lanes` at a time in step:
  // no per-lane bookkeeping, and when the length is a whole number of blocks every lane's final block is the same
  // padding block, built once.
  if (!order.empty() && order.size() >= lanes && same_length(jobs, order)) {
    const std::size_t len = jobs[order[0]].in.size();
    const std::size_t body = shift ? len >> shift : len / block, tail_len = len - body * block;
    std::size_t final_blocks = 0;
    if (tail_len == 0) {
      final_blocks = build_final_blocks(algorithm, nullptr, 0, len, lane[0].pad);
      for (std::size_t i = 0; i < lanes; ++i) in[i] = lane[0].pad;
    }
    for (; queued + lanes <= order.size(); queued += lanes) {
      for (std::size_t i = 0; i < lanes; ++i) kernel.set_lane(state, i, initial);
      if (body) {
        const std::uint8_t* body_in[kMaxLanes];
        for (std::size_t i = 0; i < lanes; ++i) body_in[i] = jobs[order[queued + i]].in.data();
        kernel.blocks(state, body_in, body, block);
      }
      if (tail_len) {
        for (std::size_t i = 0; i < lanes; ++i) {
          final_blocks = build_final_blocks(algorithm, jobs[order[queued + i]].in.data() + body * block, tail_len, len,
                                            lane[i].pad);
          in[i] = lane[i].pad;
        }
      }
      kernel.blocks(state, in, final_blocks, block);
      for (std::size_t i = 0; i < lanes; ++i) {
        HashJob& job = jobs[order[queued + i]];
        kernel.get_lane(state, i, words);
        write_digest(algorithm, words, job.digest);
        job.status = JobStatus::ok;
      }
    }
  }

  for (;;) {
    for (std::size_t i = 0; i < lanes && queued < order.size(); ++i) {
      if (lane[i].job) continue;
      start(lane[i], i, jobs[order[queued++]]);
      ++active;
    }
    if (active == 0) break;
    if (queued == order.size() && active <= options.drain_lanes) {
      // Few lanes left: finish their messages one at a time.
      for (std::size_t i = 0; i < lanes; ++i) {
        Lane& l = lane[i];
        if (!l.job) continue;
        kernel.get_lane(state, i, words);
        options.single(algorithm, words, l.next, l.left);
        if (l.final_left) options.single(algorithm, words, l.pad, l.final_left);
        write_digest(algorithm, words, l.job->digest);
        l.job->status = JobStatus::ok;
        l.job = nullptr;
      }
      break;
    }
    std::size_t n = SIZE_MAX;
    const std::uint8_t* busy = nullptr;  // idle lanes read a busy lane's input, which has n blocks to read
    for (std::size_t i = 0; i < lanes; ++i)
      if (lane[i].job) n = std::min(n, lane[i].left), busy = lane[i].next;
    for (std::size_t i = 0; i < lanes; ++i) in[i] = lane[i].job ? lane[i].next : busy;
    kernel.blocks(state, in, n, block);
    for (std::size_t i = 0; i < lanes; ++i) {
      Lane& l = lane[i];
      if (!l.job) continue;
      l.next += n * block;
      l.left -= n;
      if (l.left) continue;
      if (l.final_left) {
        l.next = l.pad, l.left = l.final_left, l.final_left = 0;
      } else {
        finish(l, i);
        --active;
      }
    }
  }
  // The pads held message tails and the states intermediate values of messages that may be secret.
  for (std::size_t i = 0; i < lanes; ++i) secure_wipe(lane[i].pad, sizeof lane[i].pad);
  secure_wipe(state, kernel.state_bytes);
  secure_wipe(words, sizeof words);
}

}  // namespace cryptaccel::cpu

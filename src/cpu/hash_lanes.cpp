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

std::size_t build_final_blocks(HashAlgorithm algorithm, const std::uint8_t* tail, std::size_t tail_len,
                               std::uint64_t total_bytes, std::uint8_t out[kFinalBlocksBytes]) {
  const HashVariant v = engine::to_variant(algorithm);
  const std::size_t block = algo::hash_block_size(v);
  const bool keccak = algo::hash_family(v) == HashFamily::keccak;
  const std::size_t length_bytes = algo::hash_family(v) == HashFamily::sha512 ? 16 : 8;
  const std::size_t blocks = keccak || tail_len + 1 + length_bytes <= block ? 1 : 2;
  const std::size_t end = blocks * block;
  // Zeros with 16-byte stores: memset of a variable (or this) size becomes REP STOSQ, slow to start on short runs.
  for (std::size_t i = 0; i < end; i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_setzero_si128());
  if (tail_len) std::memcpy(out, tail, tail_len);
  if (keccak) {
    out[tail_len] = (v == HashVariant::shake128 || v == HashVariant::shake256) ? 0x1f : 0x06;
    out[block - 1] |= 0x80;
    return 1;
  }
  out[tail_len] = 0x80;
  if (length_bytes == 16) out[end - 9] = static_cast<std::uint8_t>(total_bytes >> 61);  // bit count's upper half
  algo::store_be64(out + end - 8, total_bytes << 3);
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

// SHA-crypt on a multi-buffer SHA-2 kernel: a batch of up to `lanes` candidates with equal variant and rounds runs
// its rounds in lock-step. Each candidate's eight round templates (algo::shacrypt_build_pattern) are built once; a
// round writes the previous round's digest C into the hole of the template it uses, and the kernel hashes every
// lane's template from the initial value. Lanes whose templates have different block counts (different password
// or salt lengths) are fed block by block and each lane's digest is taken when its last block is in; the usual
// case, equal counts, is one kernel call per round. Scheduling depends on lengths only, never on byte values.
#include <algorithm>
#include <cstring>
#include <tuple>
#include <vector>

#include "algo/shacrypt.hpp"
#include "cpu/cpu_shacrypt.hpp"

namespace cryptaccel::cpu {
namespace {

using algo::HashVariant;
using algo::kShaCryptPatterns;

/// One lane's candidate: its templates and where C goes in each.
struct Candidate {
  ShaCryptJob* job = nullptr;
  std::uint8_t* pattern[kShaCryptPatterns] = {};
  std::size_t blocks[kShaCryptPatterns] = {};
  std::size_t c_offset[kShaCryptPatterns] = {};
};

HashVariant variant_of(const ShaCryptJob& job) {
  return job.setting->variant == ShaCryptVariant::sha512 ? HashVariant::sha512 : HashVariant::sha256;
}

/// Template bytes a job needs (all eight layouts).
std::size_t template_bytes(const ShaCryptJob& job) {
  const HashVariant v = variant_of(job);
  std::size_t n = 0;
  for (int k = 0; k < kShaCryptPatterns; ++k)
    n += algo::shacrypt_pattern_blocks(v, k, job.password.size(), job.setting->salt.size()) * algo::hash_block_size(v);
  return n;
}

/// Writes C (the state's first 32 or 64 bytes as the big-endian digest) to `out`.
void store_digest(HashVariant v, const std::uint64_t words[25], std::uint8_t* out) {
  if (v == HashVariant::sha512) {
    for (int i = 0; i < 8; ++i) algo::store_be64(out + 8 * i, words[i]);
  } else {
    for (int i = 0; i < 8; ++i) algo::store_be32(out + 4 * i, static_cast<std::uint32_t>(words[i]));
  }
}

/// Runs `count` (1..lanes) candidates' rounds in lock-step; writes each job's digest.
void run_batch(const LaneKernel& kernel, HashVariant v, std::uint32_t rounds, Candidate* c, std::size_t count,
               const std::uint8_t* initial_state, void* state) {
  const std::size_t block = algo::hash_block_size(v);
  const std::size_t lanes = kernel.lanes;
  const std::uint8_t* in[kMaxLanes];
  std::uint64_t words[25];
  for (std::uint32_t i = 0; i < rounds; ++i) {
    const int k = algo::shacrypt_pattern(i);
    const bool last = i + 1 == rounds;
    const int next = algo::shacrypt_pattern(i + 1);
    auto emit = [&](std::size_t j) {
      kernel.get_lane(state, j, words);
      store_digest(v, words, last ? c[j].job->digest.data() : c[j].pattern[next] + c[j].c_offset[next]);
    };
    std::size_t widest = 0, min_blocks = c[0].blocks[k];
    for (std::size_t j = 1; j < count; ++j) {
      if (c[j].blocks[k] > c[widest].blocks[k]) widest = j;
      min_blocks = std::min(min_blocks, c[j].blocks[k]);
    }
    const std::size_t max_blocks = c[widest].blocks[k];
    std::memcpy(state, initial_state, kernel.state_bytes);
    if (min_blocks == max_blocks) {  // idle lanes read lane 0's template
      for (std::size_t j = 0; j < lanes; ++j) in[j] = c[j < count ? j : 0].pattern[k];
      kernel.blocks(state, in, max_blocks, block);
      for (std::size_t j = 0; j < count; ++j) emit(j);
      continue;
    }
    // Idle lanes, and lanes past their last block, read the widest lane's block (their state is not used).
    for (std::size_t step = 0; step < max_blocks; ++step) {
      const std::uint8_t* filler = c[widest].pattern[k] + step * block;
      for (std::size_t j = 0; j < lanes; ++j)
        in[j] = j < count && step < c[j].blocks[k] ? c[j].pattern[k] + step * block : filler;
      kernel.blocks(state, in, 1, block);
      for (std::size_t j = 0; j < count; ++j)
        if (c[j].blocks[k] == step + 1) emit(j);
    }
  }
  secure_wipe(words, sizeof words);
}

}  // namespace

void shacrypt_run_lanes(const LaneKernel& kernel, ShaCryptVariant variant, std::span<ShaCryptJob> jobs,
                        std::size_t portable_up_to) {
  // Pending jobs ordered by (rounds, password length, salt length): equal rounds share batches, and neighbours in a
  // batch mostly have templates of equal block counts.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].status == JobStatus::pending && jobs[i].setting->variant == variant) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const ShaCryptJob& x = jobs[a];
    const ShaCryptJob& y = jobs[b];
    return std::make_tuple(x.setting->variant, x.setting->rounds, x.password.size(), x.setting->salt.size()) <
           std::make_tuple(y.setting->variant, y.setting->rounds, y.password.size(), y.setting->salt.size());
  });

  alignas(64) std::uint8_t state[kMaxLaneStateBytes];
  alignas(64) std::uint8_t initial_state[kMaxLaneStateBytes];
  std::vector<std::uint8_t> storage;
  Candidate c[kMaxLanes];
  for (std::size_t at = 0; at < order.size();) {
    const ShaCryptSetting& first = *jobs[order[at]].setting;
    const HashVariant v = variant_of(jobs[order[at]]);
    std::size_t count = 1;
    while (count < kernel.lanes && at + count < order.size()) {
      const ShaCryptSetting& s = *jobs[order[at + count]].setting;
      if (s.variant != first.variant || s.rounds != first.rounds) break;
      ++count;
    }
    if (count <= portable_up_to) {  // too few to pay for the idle lanes: the one-candidate code
      for (std::size_t j = 0; j < count; ++j) {
        ShaCryptJob& job = jobs[order[at + j]];
        algo::shacrypt_digest(v, job.password.data(), job.password.size(),
                              reinterpret_cast<const std::uint8_t*>(job.setting->salt.data()), job.setting->salt.size(),
                              job.setting->rounds, job.digest.data());
        job.status = JobStatus::ok;
      }
      at += count;
      continue;
    }
    std::size_t bytes = 0;
    for (std::size_t j = 0; j < count; ++j) bytes += template_bytes(jobs[order[at + j]]);
    storage.assign(bytes, 0);
    std::uint8_t* p = storage.data();
    for (std::size_t j = 0; j < count; ++j) {
      ShaCryptJob& job = jobs[order[at + j]];
      const std::size_t pw_len = job.password.size();
      const std::size_t salt_len = job.setting->salt.size();
      std::uint8_t a[64], dp[64], ds[64];
      algo::shacrypt_prepare(v, job.password.data(), pw_len, reinterpret_cast<const std::uint8_t*>(job.setting->salt.data()),
                             salt_len, a, dp, ds);
      c[j].job = &job;
      for (int k = 0; k < kShaCryptPatterns; ++k) {
        c[j].pattern[k] = p;
        c[j].blocks[k] = algo::shacrypt_pattern_blocks(v, k, pw_len, salt_len);
        c[j].c_offset[k] = algo::shacrypt_pattern_c_offset(v, k, pw_len, salt_len);
        algo::shacrypt_build_pattern(v, k, dp, pw_len, ds, salt_len, p);
        p += c[j].blocks[k] * algo::hash_block_size(v);
      }
      std::memcpy(c[j].pattern[0] + c[j].c_offset[0], a, algo::shacrypt_digest_size(v));  // round 0: C = A
      secure_wipe(a, sizeof a), secure_wipe(dp, sizeof dp), secure_wipe(ds, sizeof ds);
    }
    std::uint64_t iv[25];
    algo::hash_init(v, iv);
    for (std::size_t j = 0; j < kernel.lanes; ++j) kernel.set_lane(initial_state, j, iv);
    run_batch(kernel, v, first.rounds, c, count, initial_state, state);
    for (std::size_t j = 0; j < count; ++j) c[j].job->status = JobStatus::ok;
    secure_wipe(storage.data(), storage.size());
    at += count;
  }
  secure_wipe(state, sizeof state);
}

}  // namespace cryptaccel::cpu

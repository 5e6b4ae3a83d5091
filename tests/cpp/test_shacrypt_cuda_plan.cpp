// The cuda engine's SHA-crypt host logic, without a GPU: the schedule of loop launches over the rounds, packing of
// candidates by (variant, rounds) under a template-memory budget, and a whole batch through the kernels' per-thread
// bodies (host emulation) against the ref engine.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cryptaccel/shacrypt.hpp"
#include "cuda/shacrypt/shacrypt_plan.hpp"

namespace cryptaccel {
namespace {

bytes_view text(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

TEST(ShaCryptCudaPlan, RoundChunksCoverEveryRoundOnceInOrder) {
  for (std::uint32_t rounds : {1000u, 1001u, 4999u, 5000u, 77777u}) {
    for (std::uint32_t per : {1u, 7u, 1000u, 5000u, 100000u}) {
      if (rounds / per > 100000) continue;
      const auto chunks = cuda::shacrypt_round_chunks(rounds, per);
      std::uint32_t next = 0;
      for (const auto& [b, e] : chunks) {
        EXPECT_EQ(b, next);
        EXPECT_GT(e, b);
        EXPECT_LE(e - b, per);
        next = e;
      }
      EXPECT_EQ(next, rounds);
    }
  }
  EXPECT_EQ(cuda::shacrypt_round_chunks(999999999, cuda::kShaCryptRoundsPerLaunch).size(), 1000000u);
}

TEST(ShaCryptCudaPlan, PacksGroupByVariantAndRoundsUnderTheBudget) {
  ShaCryptSetting a, b, c;
  a.rounds = 1000, a.salt = "aa";
  b = a, b.variant = ShaCryptVariant::sha256;
  c = a, c.rounds = 1001;
  std::vector<std::string> pw = {"", "x", std::string(200, 'p'), "yy", "zzz", "w"};
  std::uint8_t d[6][64];
  std::vector<ShaCryptJob> jobs = {{text(pw[0]), &a, mutable_bytes(d[0], 64)}, {text(pw[1]), &b, mutable_bytes(d[1], 32)},
                                   {text(pw[2]), &a, mutable_bytes(d[2], 64)}, {text(pw[3]), &c, mutable_bytes(d[3], 64)},
                                   {text(pw[4]), &a, mutable_bytes(d[4], 64)}, {text(pw[5]), &a, mutable_bytes(d[5], 64)}};
  jobs[5].status = JobStatus::invalid_argument;  // not pending: left out
  const auto packs = cuda::shacrypt_pack(jobs);
  ASSERT_EQ(packs.size(), 3u);
  std::size_t total = 0;
  for (const cuda::ShaCryptPack& p : packs) {
    total += p.jobs.size();
    ASSERT_EQ(p.pw_offset.size(), p.jobs.size() + 1);
    for (std::size_t i = 0; i < p.jobs.size(); ++i) {
      EXPECT_EQ(p.jobs[i]->setting->variant, p.variant);
      EXPECT_EQ(p.jobs[i]->setting->rounds, p.rounds);
      EXPECT_EQ(p.pw_offset[i + 1] - p.pw_offset[i], p.jobs[i]->password.size());
      EXPECT_EQ(std::string(p.input.begin() + static_cast<std::ptrdiff_t>(p.salt_offset[i]),
                            p.input.begin() + static_cast<std::ptrdiff_t>(p.salt_offset[i] + p.salt_len[i])),
                p.jobs[i]->setting->salt);
    }
  }
  EXPECT_EQ(total, 5u);
  // A budget of one candidate's templates: one pack per candidate.
  EXPECT_EQ(cuda::shacrypt_pack(jobs, 1).size(), 5u);
}

TEST(ShaCryptCudaPlan, EmulatedBatchesEqualRef) {
  std::mt19937_64 rng(90);
  std::vector<ShaCryptSetting> settings(4);
  for (std::size_t i = 0; i < settings.size(); ++i) {
    settings[i].variant = i % 2 ? ShaCryptVariant::sha256 : ShaCryptVariant::sha512;
    settings[i].rounds = 1000 + static_cast<std::uint32_t>(i / 2);
    settings[i].salt = std::string(i * 5, static_cast<char>('a' + i));
  }
  std::vector<std::string> passwords;
  for (std::size_t len : {0u, 1u, 8u, 31u, 32u, 63u, 64u, 65u, 128u, 129u, 250u})
    passwords.push_back(std::string(len, static_cast<char>('0' + len % 10)));
  std::vector<const ShaCryptSetting*> which;
  for (std::size_t i = 0; i < passwords.size(); ++i) which.push_back(&settings[rng() % settings.size()]);
  std::vector<bytes> digests;
  for (const ShaCryptSetting* s : which) digests.emplace_back(s->variant == ShaCryptVariant::sha512 ? 64 : 32);
  std::vector<ShaCryptJob> jobs;
  for (std::size_t i = 0; i < passwords.size(); ++i) jobs.push_back(ShaCryptJob{text(passwords[i]), which[i], digests[i]});
  for (std::uint32_t per_launch : {7u, cuda::kShaCryptRoundsPerLaunch}) {
    for (ShaCryptJob& j : jobs) j.status = JobStatus::pending;
    for (const cuda::ShaCryptPack& pack : cuda::shacrypt_pack(jobs, 4096)) cuda::shacrypt_emulate(pack, per_launch);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      ASSERT_EQ(jobs[i].status, JobStatus::ok);
      EXPECT_EQ(shacrypt_format(*jobs[i].setting, digests[i]), shacrypt_hash(text(passwords[i]), *jobs[i].setting, "ref"))
          << "password length " << passwords[i].size() << ", " << per_launch << " rounds per launch";
    }
  }
}

}  // namespace
}  // namespace cryptaccel

// One XTS data unit split over threads (src/engine/xts_split.cpp), on every engine that offers the building blocks
// (cpu): split results equal OpenSSL's XTS for any piece size, length (whole blocks, and a partial last block with
// ciphertext stealing in the tail piece), direction and key size, in place or not; large data units through
// run_batch over 2 and 8 threads equal the same batch on one thread; units shorter than the threshold, or jobs made
// of several data units, are left to the unsplit path.
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "engine/engine.hpp"
#include "engine/xts_split.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

/// `n` random bytes from a seed.
bytes seeded(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return test::random_bytes(rng, n);
}

/// OpenSSL AES-XTS over one data unit.
bytes evp_xts(BlockCipher cipher, Direction dir, bytes_view key, bytes_view iv, bytes_view in) {
  EVP_CIPHER* c = EVP_CIPHER_fetch(nullptr, cipher == BlockCipher::aes128 ? "AES-128-XTS" : "AES-256-XTS", nullptr);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  bytes out(in.size());
  int n = 0;
  const bool ok = c && ctx && EVP_CipherInit_ex2(ctx, c, key.data(), iv.data(), dir == Direction::encrypt, nullptr) &&
                  EVP_CipherUpdate(ctx, out.data(), &n, in.data(), static_cast<int>(in.size()));
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(c);
  ERR_clear_error();
  if (!ok) throw std::runtime_error("OpenSSL XTS failed");
  return out;
}

/// The engines that offer XTS building blocks.
std::vector<const engine::Engine*> splitting_engines() {
  std::vector<const engine::Engine*> out;
  const bytes key = seeded(32, 1);
  for (const engine::Engine* e : engine::registered_engines())
    if (e->unavailable_reason().empty() && e->xts_split_key(BlockCipher::aes128, key)) out.push_back(e);
  return out;
}

class XtsSplit : public ::testing::TestWithParam<BlockCipher> {};

TEST_P(XtsSplit, AnyPieceSizeAndLengthMatchesOpenSSL) {
  const auto engines = splitting_engines();
  if (engines.empty()) GTEST_SKIP() << "no available engine offers XTS building blocks";
  const BlockCipher cipher = GetParam();
  const std::size_t key_size = cipher == BlockCipher::aes128 ? 32 : 64;
  std::mt19937_64 rng(7);
  for (const engine::Engine* e : engines) {
    for (int trial = 0; trial < 40; ++trial) {
      const std::size_t len = 16 + rng() % 5000;
      const std::size_t piece = 16 * (1 + rng() % 20);
      const bytes key = seeded(key_size, rng()), iv = seeded(16, rng()), pt = seeded(len, rng());
      const auto k = e->xts_split_key(cipher, key);
      ASSERT_TRUE(k);
      for (const Direction dir : {Direction::encrypt, Direction::decrypt}) {
        const bytes expected = evp_xts(cipher, dir, key, iv, pt);
        for (const bool in_place : {false, true}) {
          bytes buf = pt, out(len);
          CipherJob job{key, iv, buf, in_place ? mutable_bytes(buf) : mutable_bytes(out)};
          engine::run_split_xts_job(*k, dir, job, 1 + trial % 3, piece);
          ASSERT_EQ(job.status, JobStatus::ok);
          ASSERT_EQ(job.out_len, len);
          ASSERT_EQ(in_place ? buf : out, expected)
              << e->name() << " len " << len << " piece " << piece << (in_place ? " in place" : "")
              << (dir == Direction::encrypt ? " encrypt" : " decrypt");
        }
      }
    }
  }
}

TEST_P(XtsSplit, LargeDataUnitsThroughRunBatchEqualOneThread) {
  if (splitting_engines().empty()) GTEST_SKIP() << "no available engine offers XTS building blocks";
  const BlockCipher cipher = GetParam();
  const CipherSpec spec{cipher, Mode::xts, false};
  for (const engine::Engine* e : splitting_engines()) {
    for (const std::size_t len : {engine::kXtsSplitMinBytes, std::size_t{1} << 20, (std::size_t{3} << 20) + 7}) {
      const bytes key = seeded(spec.key_size(), len), iv = seeded(16, len + 1);
      const bytes pt = seeded(len, len + 2);
      const bytes expected = evp_xts(cipher, Direction::encrypt, key, iv, pt);
      for (const std::size_t threads : {2, 8}) {
        bytes ct(len);
        CipherJob job{key, iv, pt, ct};
        BatchOptions options;
        options.engine = e->name();
        options.threads = threads;
        ASSERT_EQ(run_batch(spec, Direction::encrypt, std::span<CipherJob>(&job, 1), options).failed, 0u);
        ASSERT_EQ(ct, expected) << e->name() << " len " << len << " threads " << threads;
        bytes back(len);
        CipherJob undo{key, iv, ct, back};
        ASSERT_EQ(run_batch(spec, Direction::decrypt, std::span<CipherJob>(&undo, 1), options).failed, 0u);
        ASSERT_EQ(back, pt);
      }
    }
  }
}

TEST(XtsSplitPolicy, SmallUnitsAndMultiUnitJobsAreLeftPending) {
  const auto engines = splitting_engines();
  if (engines.empty()) GTEST_SKIP() << "no available engine offers XTS building blocks";
  const CipherSpec spec{BlockCipher::aes128, Mode::xts, false};
  const bytes key = seeded(32, 3), iv = seeded(16, 4);
  const bytes small = seeded(engine::kXtsSplitMinBytes - 16, 5), big = seeded(1 << 20, 6);
  bytes out_small(small.size()), out_big(big.size());
  std::vector<CipherJob> jobs = {CipherJob{key, iv, small, out_small}, CipherJob{key, iv, big, out_big}};
  engine::run_split_xts(*engines.front(), spec, Direction::encrypt, jobs, 4096, 2);  // 4 KiB data units
  EXPECT_EQ(jobs[0].status, JobStatus::pending);
  EXPECT_EQ(jobs[1].status, JobStatus::pending);
  engine::run_split_xts(*engines.front(), spec, Direction::encrypt, jobs, 0, 2);  // one unit per job
  EXPECT_EQ(jobs[0].status, JobStatus::pending);
  EXPECT_EQ(jobs[1].status, JobStatus::ok);
  EXPECT_EQ(out_big, evp_xts(BlockCipher::aes128, Direction::encrypt, key, iv, big));
}

INSTANTIATE_TEST_SUITE_P(Aes, XtsSplit, ::testing::Values(BlockCipher::aes128, BlockCipher::aes256),
                         [](const auto& info) { return info.param == BlockCipher::aes128 ? "aes128" : "aes256"; });

}  // namespace
}  // namespace cryptaccel

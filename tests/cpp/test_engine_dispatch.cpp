// The host-thread machinery of src/engine: the thread pool and the plan that splits large jobs into pieces.
// (That split results equal unsplit ones for every mode is checked against OpenSSL in test_modes_differential.cpp.)
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/modes.hpp"
#include "engine/job_split.hpp"
#include "engine/thread_pool.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using engine::kMinPieceBytes;
using engine::parallel_for;
using engine::SplitPlan;

TEST(ThreadPool, EveryIndexRunsExactlyOnce) {
  for (std::size_t threads : {1u, 2u, 3u, 16u}) {
    std::vector<std::atomic<int>> hits(1000);
    parallel_for(hits.size(), threads, [&](std::size_t i) { hits[i]++; });
    for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i << ", threads " << threads;
  }
}

TEST(ThreadPool, NestedLoopsFinish) {
  std::atomic<int> sum{0};
  parallel_for(8, 0, [&](std::size_t) { parallel_for(50, 0, [&](std::size_t j) { sum += static_cast<int>(j); }); });
  EXPECT_EQ(sum.load(), 8 * (49 * 50 / 2));
}

TEST(ThreadPool, FirstExceptionIsRethrownAfterAllCallsReturn) {
  std::atomic<int> running{0};
  EXPECT_THROW(parallel_for(100, 4,
                            [&](std::size_t i) {
                              running++;
                              if (i == 7) {
                                running--;
                                throw std::runtime_error("boom");
                              }
                              running--;
                            }),
               std::runtime_error);
  EXPECT_EQ(running.load(), 0);
}

/// A job over `buffer` (in place) with a 16-byte IV.
CipherJob in_place_job(bytes& buffer, const bytes& key, const bytes& iv) {
  return CipherJob{key, iv, buffer, buffer};
}

TEST(SplitPlan, SmallJobsAndSerialModesStayWhole) {
  bytes key(32, 1), iv(16, 2), small(2 * kMinPieceBytes - 16), large(10 * kMinPieceBytes);
  CipherJob jobs[] = {in_place_job(small, key, iv)};
  EXPECT_TRUE(SplitPlan(CipherSpec::parse("aes-256-ctr"), Direction::encrypt, jobs, 0, 8).trivial());
  CipherJob big[] = {in_place_job(large, key, iv)};
  EXPECT_TRUE(SplitPlan(CipherSpec::parse("aes-256-cbc"), Direction::encrypt, big, 0, 8).trivial()) << "CBC encryption is serial";
  EXPECT_TRUE(SplitPlan(CipherSpec::parse("aes-256-gcm"), Direction::encrypt, big, 0, 8).trivial());
  EXPECT_TRUE(SplitPlan(CipherSpec::parse("aes-128-xts"), Direction::encrypt, big, 0, 8).trivial()) << "one data unit";
  EXPECT_TRUE(SplitPlan(CipherSpec::parse("aes-256-ctr"), Direction::encrypt, big, 0, 1).trivial()) << "one thread";
}

TEST(SplitPlan, PiecesCoverTheJobInOrderWithDerivedIvs) {
  std::mt19937_64 rng(7);
  const bytes key = test::random_bytes(rng, 32);
  bytes iv(16, 0xff);
  iv[15] = 0xfe;  // the counter wraps mod 2^128 inside the job
  bytes data = test::random_bytes(rng, 10 * kMinPieceBytes + 5);
  CipherJob jobs[] = {CipherJob{key, iv, data, data}};
  SplitPlan plan(CipherSpec::parse("aes-256-ctr"), Direction::encrypt, jobs, 0, 4);
  ASSERT_FALSE(plan.trivial());
  auto pieces = plan.with_batch_spec();
  ASSERT_GT(pieces.size(), 1u);
  EXPECT_TRUE(plan.without_padding().empty());
  std::size_t next = 0;
  for (const CipherJob& p : pieces) {
    EXPECT_EQ(p.in.data(), data.data() + next);
    EXPECT_EQ(p.out.data(), data.data() + next);
    EXPECT_EQ(next % 16, 0u);
    // The piece's counter is the job's counter + blocks before it, mod 2^128 (big-endian).
    bytes expected = iv;
    unsigned carry = 0;
    std::uint64_t add = next / 16;
    for (int i = 15; i >= 0; --i) {
      const unsigned v = expected[i] + static_cast<unsigned>(add & 0xff) + carry;
      expected[i] = static_cast<std::uint8_t>(v);
      carry = v >> 8;
      add >>= 8;
    }
    EXPECT_EQ(test::to_hex(p.iv), test::to_hex(expected)) << "piece at offset " << next;
    next += p.in.size();
  }
  EXPECT_EQ(next, data.size());
}

TEST(SplitPlan, PaddedCbcDecryptionKeepsTheLastBlockForThePaddingCheck) {
  std::mt19937_64 rng(8);
  const bytes key = test::random_bytes(rng, 16), iv = test::random_bytes(rng, 16);
  bytes data = test::random_bytes(rng, 6 * kMinPieceBytes);
  CipherJob jobs[] = {CipherJob{key, iv, data, data}};
  SplitPlan plan(CipherSpec::parse("aes-128-cbc"), Direction::decrypt, jobs, 0, 2);
  ASSERT_FALSE(plan.trivial());
  ASSERT_EQ(plan.with_batch_spec().size(), 1u);
  const CipherJob& tail = plan.with_batch_spec()[0];
  EXPECT_EQ(tail.in.data(), data.data() + data.size() - 16);
  EXPECT_EQ(test::to_hex(tail.iv), test::to_hex(bytes_view(data).subspan(data.size() - 32, 16)));
  for (const CipherJob& p : plan.without_padding()) {
    const std::size_t off = static_cast<std::size_t>(p.in.data() - data.data());
    const bytes_view expected_iv = off == 0 ? bytes_view(iv) : bytes_view(data).subspan(off - 16, 16);
    EXPECT_EQ(test::to_hex(p.iv), test::to_hex(expected_iv)) << "piece at offset " << off;
    EXPECT_NE(p.iv.data(), data.data() + off - 16) << "a CBC piece's IV must be a copy (in-place jobs overwrite it)";
  }
}

TEST(SplitPlan, FailedSplitDecryptionReleasesNoPlaintext) {
  std::mt19937_64 rng(9);
  const bytes key = test::random_bytes(rng, 32), iv = test::random_bytes(rng, 16);
  const bytes plain = test::random_bytes(rng, 8 * kMinPieceBytes);
  const CipherSpec spec = CipherSpec::parse("aes-256-cbc");
  bytes ct = encrypt(spec, CipherParams{key, iv}, plain, "ref");
  ct.back() ^= 0x55;  // breaks the padding of the last block only
  bytes out(ct.size(), 0xaa);
  CipherJob jobs[] = {CipherJob{key, iv, ct, out}};
  BatchOptions options;
  options.engine = "ref";
  options.threads = 4;
  run_batch(spec, Direction::decrypt, jobs, options);
  ASSERT_EQ(jobs[0].status, JobStatus::bad_decrypt);
  EXPECT_EQ(jobs[0].out_len, 0u);
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 0) << "byte " << i << " of the output was not wiped";
}

}  // namespace
}  // namespace cryptaccel

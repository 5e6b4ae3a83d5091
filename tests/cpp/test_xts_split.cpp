// The cpu engine's AES-NI XTS kernel that starts at any block of a data unit (src/cpu/aes_xts_aesni.cpp) and one XTS
// data unit split over threads with it (src/engine/xts_split.cpp), against OpenSSL's EVP XTS:
//  - the kernel alone, single-threaded: a data unit cut in two at every block index, for lengths 16k + r (r = 0..15,
//    so with and without ciphertext stealing) near the eight-block boundaries, both directions and key sizes, in
//    place and not; and starting tweaks far into a unit (block indices with many bits set);
//  - the split: any piece size down to one block, 1..3 threads, random lengths;
//  - run_batch: large data units over 2 and 8 threads equal OpenSSL, small units and multi-unit jobs are not split.
// Skipped, visibly, on a CPU without AES-NI.
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/aes_xts_aesni.hpp"
#include "cryptaccel/batch.hpp"
#include "engine/engine.hpp"
#include "engine/xts_split.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

constexpr std::size_t kBlock = 16;

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

std::size_t key_size(BlockCipher cipher) { return cipher == BlockCipher::aes128 ? 32 : 64; }
const char* dir_name(Direction dir) { return dir == Direction::encrypt ? "encrypt" : "decrypt"; }

#define SKIP_WITHOUT_AESNI() \
  if (!cpu::aes_xts_aesni_available()) GTEST_SKIP() << "this CPU lacks AES-NI (or CRYPTACCEL_CPU_MASK hides it)"

class XtsAesni : public ::testing::TestWithParam<BlockCipher> {};

TEST_P(XtsAesni, CutAtEveryBlockIndexNearTheEndMatchesOpenSSL) {
  SKIP_WITHOUT_AESNI();
  const BlockCipher cipher = GetParam();
  const bytes key = seeded(key_size(cipher), 11), iv = seeded(16, 12);
  cpu::AesXtsAesniKey k;
  cpu::aes_xts_aesni_init(k, key.data(), key.size());
  std::size_t checked = 0;
  // 1..19 full blocks, and 31..33 / 63..65: around one, two and four groups of eight blocks in flight.
  std::vector<std::size_t> full_blocks;
  for (std::size_t m = 1; m < 20; ++m) full_blocks.push_back(m);
  for (std::size_t m : {31, 32, 33, 63, 64, 65}) full_blocks.push_back(m);
  for (const std::size_t m : full_blocks) {
    for (std::size_t r = 0; r < kBlock; ++r) {
      const std::size_t len = m * kBlock + r;
      const bytes pt = seeded(len, len);
      // A cut may fall at any block index up to the last one that can start a piece: with stealing, the last full
      // block stays with the partial one (j <= m - 1); without, the second piece may also be empty (j == m).
      const std::size_t last_cut = r ? m - 1 : m;
      for (const Direction dir : {Direction::encrypt, Direction::decrypt}) {
        const bytes expected = evp_xts(cipher, dir, key, iv, pt);
        for (std::size_t j = 0; j <= last_cut; ++j) {
          for (const bool in_place : {false, true}) {
            bytes buf = pt, out(len, 0);
            std::uint8_t* dst = in_place ? buf.data() : out.data();
            if (j) cpu::aes_xts_aesni_crypt(k, dir, iv.data(), 0, buf.data(), dst, j * kBlock);
            if (len > j * kBlock)
              cpu::aes_xts_aesni_crypt(k, dir, iv.data(), j, buf.data() + j * kBlock, dst + j * kBlock,
                                       len - j * kBlock);
            ASSERT_EQ(in_place ? buf : out, expected)
                << "len " << len << " cut at block " << j << " " << dir_name(dir) << (in_place ? " in place" : "");
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 10000u);
}

TEST_P(XtsAesni, StartsFarIntoADataUnit) {
  SKIP_WITHOUT_AESNI();
  const BlockCipher cipher = GetParam();
  const bytes key = seeded(key_size(cipher), 21), iv = seeded(16, 22);
  cpu::AesXtsAesniKey k;
  cpu::aes_xts_aesni_init(k, key.data(), key.size());
  const std::size_t len = (std::size_t{1} << 20) + 5 * kBlock + 9;  // 65541 full blocks and 9 bytes
  const bytes pt = seeded(len, 23);
  for (const Direction dir : {Direction::encrypt, Direction::decrypt}) {
    const bytes expected = evp_xts(cipher, dir, key, iv, pt);
    // Block indices with one bit, many bits (0xFFFF) and bits in both bytes of the index set; the run goes to the end.
    for (const std::size_t j : {std::size_t{1} << 16, std::size_t{0xFFFF}, std::size_t{0x10003}, std::size_t{0xAAAA}}) {
      bytes out(len - j * kBlock);
      cpu::aes_xts_aesni_crypt(k, dir, iv.data(), j, pt.data() + j * kBlock, out.data(), out.size());
      ASSERT_EQ(out, bytes(expected.begin() + static_cast<std::ptrdiff_t>(j * kBlock), expected.end()))
          << "from block " << j << " " << dir_name(dir);
    }
  }
}

TEST_P(XtsAesni, SplitAnyPieceSizeAndLengthMatchesOpenSSL) {
  SKIP_WITHOUT_AESNI();
  const BlockCipher cipher = GetParam();
  const auto& cpu = *[] {
    for (const engine::Engine* e : engine::registered_engines())
      if (e->name() == "cpu") return e;
    throw std::runtime_error("no cpu engine");
  }();
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t len = 16 + rng() % 5000;
    const std::size_t piece = 16 * (1 + rng() % 20);
    const bytes key = seeded(key_size(cipher), rng()), iv = seeded(16, rng()), pt = seeded(len, rng());
    const auto k = cpu.xts_split_key(cipher, key);
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
            << "len " << len << " piece " << piece << " " << dir_name(dir) << (in_place ? " in place" : "");
      }
    }
  }
}

TEST_P(XtsAesni, LargeDataUnitsThroughRunBatchMatchOpenSSL) {
  SKIP_WITHOUT_AESNI();
  const BlockCipher cipher = GetParam();
  const CipherSpec spec{cipher, Mode::xts, false};
  for (const std::size_t len : {engine::kXtsSplitMinBytes, std::size_t{1} << 20, (std::size_t{3} << 20) + 7}) {
    const bytes key = seeded(spec.key_size(), len), iv = seeded(16, len + 1), pt = seeded(len, len + 2);
    const bytes expected = evp_xts(cipher, Direction::encrypt, key, iv, pt);
    for (const std::size_t threads : {2, 8}) {
      bytes ct(len);
      CipherJob job{key, iv, pt, ct};
      BatchOptions options;
      options.engine = "cpu";
      options.threads = threads;
      ASSERT_EQ(run_batch(spec, Direction::encrypt, std::span<CipherJob>(&job, 1), options).failed, 0u);
      ASSERT_EQ(ct, expected) << "len " << len << " threads " << threads;
      CipherJob undo{key, iv, ct, ct};  // in place
      ASSERT_EQ(run_batch(spec, Direction::decrypt, std::span<CipherJob>(&undo, 1), options).failed, 0u);
      ASSERT_EQ(ct, pt) << "len " << len << " threads " << threads;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Aes, XtsAesni, ::testing::Values(BlockCipher::aes128, BlockCipher::aes256),
                         [](const auto& info) { return info.param == BlockCipher::aes128 ? "aes128" : "aes256"; });

TEST(XtsSplitPolicy, SmallUnitsAndMultiUnitJobsAreLeftPending) {
  SKIP_WITHOUT_AESNI();
  const engine::Engine* cpu = nullptr;
  for (const engine::Engine* e : engine::registered_engines())
    if (e->name() == "cpu") cpu = e;
  ASSERT_NE(cpu, nullptr);
  const CipherSpec spec{BlockCipher::aes128, Mode::xts, false};
  const bytes key = seeded(32, 3), iv = seeded(16, 4);
  const bytes small = seeded(engine::kXtsSplitMinBytes - 16, 5), big = seeded(1 << 20, 6);
  bytes out_small(small.size()), out_big(big.size());
  std::vector<CipherJob> jobs = {CipherJob{key, iv, small, out_small}, CipherJob{key, iv, big, out_big}};
  engine::run_split_xts(*cpu, spec, Direction::encrypt, jobs, 4096, 2);  // 4 KiB data units: SplitPlan's job
  EXPECT_EQ(jobs[0].status, JobStatus::pending);
  EXPECT_EQ(jobs[1].status, JobStatus::pending);
  engine::run_split_xts(*cpu, spec, Direction::encrypt, jobs, 0, 1);  // one thread: nothing to split over
  EXPECT_EQ(jobs[1].status, JobStatus::pending);
  engine::run_split_xts(*cpu, spec, Direction::encrypt, jobs, 0, 2);  // one unit per job
  EXPECT_EQ(jobs[0].status, JobStatus::pending);
  EXPECT_EQ(jobs[1].status, JobStatus::ok);
  EXPECT_EQ(out_big, evp_xts(BlockCipher::aes128, Direction::encrypt, key, iv, big));
}

/// Which backend runs a single-threaded XTS data unit on the cpu engine: our kernel up to kXtsKernelMaxUnit, OpenSSL's
/// fused XTS above, unless CRYPTACCEL_CPU_XTS=aesni forces the kernel everywhere (the CTest run cpu_xts_aesni_kernel
/// repeats the XTS suites so; the default runs of the same suites cover both sides of the threshold).
TEST(XtsBackend, OneThreadRunsTheKernelForSmallUnitsOrWhenForced) {
  SKIP_WITHOUT_AESNI();
  const char* env = std::getenv("CRYPTACCEL_CPU_XTS");
  const bool asked = env && std::string(env) == "aesni";
  EXPECT_EQ(cpu::aes_xts_aesni_forced(), asked) << "CRYPTACCEL_CPU_XTS=" << (env ? env : "(unset)");
  EXPECT_TRUE(cpu::aes_xts_aesni_serves(16));
  EXPECT_TRUE(cpu::aes_xts_aesni_serves(512));
  EXPECT_TRUE(cpu::aes_xts_aesni_serves(4096));
  EXPECT_TRUE(cpu::aes_xts_aesni_serves(cpu::kXtsKernelMaxUnit));
  // Larger units: the kernel when forced or when its bulk runs on VAES (faster than OpenSSL at every size), else EVP.
  const bool large = asked || cpu::aes_xts_aesni_vaes();
  EXPECT_EQ(cpu::aes_xts_aesni_serves(cpu::kXtsKernelMaxUnit + 1), large);
  EXPECT_EQ(cpu::aes_xts_aesni_serves(std::size_t{1} << 20), large);
  std::printf("[          ] single-threaded cpu XTS backend: aes_xts_aesni up to %zu bytes, above: %s\n",
              cpu::kXtsKernelMaxUnit,
              asked ? "aes_xts_aesni (forced)" : cpu::aes_xts_aesni_vaes() ? "aes_xts_aesni (VAES)" : "OpenSSL EVP");
}

TEST(XtsSplitPolicy, NoKernelForOtherCiphersOrKeySizes) {
  SKIP_WITHOUT_AESNI();
  EXPECT_TRUE(cpu::aes_xts_aesni_split_key(BlockCipher::aes128, seeded(32, 1)));
  EXPECT_TRUE(cpu::aes_xts_aesni_split_key(BlockCipher::aes256, seeded(64, 1)));
  EXPECT_FALSE(cpu::aes_xts_aesni_split_key(BlockCipher::aes192, seeded(48, 1)));
  EXPECT_FALSE(cpu::aes_xts_aesni_split_key(BlockCipher::sm4, seeded(32, 1)));
  EXPECT_FALSE(cpu::aes_xts_aesni_split_key(BlockCipher::aes128, seeded(64, 1)));
}

}  // namespace
}  // namespace cryptaccel

// The cpu engine's hash backends, each forced in turn (multi-buffer kernels, SHA-NI one at a time, OpenSSL), on
// random batches of mixed lengths against OpenSSL libcrypto's EVP digests; the default path with its long-message
// and last-lanes rules; Keccak-f batches against the portable permutation. A backend this CPU cannot run is skipped
// with the reason (CRYPTACCEL_CPU_MASK hides features, so a masked run covers the fallbacks).
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "algo/keccak.hpp"
#include "cpu/cpu_hash.hpp"
#include "cryptaccel/hash.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using test::random_bytes;
using test::to_hex;

/// OpenSSL's name of `a`: the display name with '/' as '-' ("SHA512-224", "SHA3-256", "SHAKE128").
std::string evp_name(HashAlgorithm a) {
  std::string name(hash_info(a).display_name);
  std::replace(name.begin(), name.end(), '/', '-');
  return name;
}

/// OpenSSL's digest of `data`, `out_len` bytes (SHAKE: any length); empty when this OpenSSL lacks `a`.
bytes evp_digest(HashAlgorithm a, bytes_view data, std::size_t out_len) {
  std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> md(EVP_MD_fetch(nullptr, evp_name(a).c_str(), nullptr), EVP_MD_free);
  if (!md) return {};
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  bytes out(std::max<std::size_t>(out_len, EVP_MAX_MD_SIZE));
  unsigned len = 0;
  EXPECT_EQ(EVP_DigestInit_ex(ctx.get(), md.get(), nullptr), 1);
  EXPECT_EQ(EVP_DigestUpdate(ctx.get(), data.data(), data.size()), 1);
  if (hash_info(a).xof) {
    EXPECT_EQ(EVP_DigestFinalXOF(ctx.get(), out.data(), out_len), 1);
  } else {
    EXPECT_EQ(EVP_DigestFinal_ex(ctx.get(), out.data(), &len), 1);
    EXPECT_EQ(len, out_len);
  }
  out.resize(out_len);
  return out;
}

/// Lengths at every block and padding boundary of every block size (SHA-2/SM3 64 and 128, SHA-3 rates).
std::vector<std::size_t> boundary_lengths() {
  std::vector<std::size_t> lens = {0, 1, 55, 56, 63, 64, 111, 112, 127, 128, 135, 136, 239, 240};
  for (std::size_t block : {64u, 72u, 104u, 128u, 136u, 144u, 168u})
    for (std::size_t k : {1u, 2u, 3u})
      for (int d : {-17, -16, -9, -8, -1, 0, 1}) lens.push_back(k * block + d);
  return lens;
}

/// A batch of messages, their expected digests and room for the computed ones.
struct Batch {
  std::vector<bytes> messages, expected, digests;
  std::vector<HashJob> jobs;

  void add(HashAlgorithm a, bytes message, std::size_t out_len) {
    expected.push_back(evp_digest(a, message, out_len));
    messages.push_back(std::move(message));
  }
  /// Fresh jobs over the messages, digest buffers filled with a marker.
  std::span<HashJob> make_jobs() {
    digests.clear();
    jobs.clear();
    for (const bytes& e : expected) digests.emplace_back(e.size(), 0xee);
    for (std::size_t i = 0; i < messages.size(); ++i) jobs.push_back(HashJob{messages[i], digests[i]});
    return jobs;
  }
  void check(const std::string& what) const {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      ASSERT_EQ(jobs[i].status, JobStatus::ok) << what << ": message " << i;
      ASSERT_EQ(to_hex(digests[i]), to_hex(expected[i]))
          << what << ": message " << i << " of " << messages.size() << ", " << messages[i].size() << " bytes";
    }
  }
};

std::size_t out_len(HashAlgorithm a, std::mt19937_64& rng) {
  return hash_info(a).xof ? 1 + rng() % 600 : hash_info(a).digest_size;
}

/// `count` messages: boundary lengths and random ones up to 5000 bytes, shuffled.
Batch random_batch(HashAlgorithm a, std::size_t count, std::mt19937_64& rng) {
  const std::vector<std::size_t> boundaries = boundary_lengths();
  Batch b;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t len = rng() % 2 ? boundaries[rng() % boundaries.size()] : rng() % 5001;
    b.add(a, random_bytes(rng, len), out_len(a, rng));
  }
  return b;
}

struct BackendCase {
  HashAlgorithm algorithm;
  std::string backend;
  std::string missing;
};

std::vector<BackendCase> backend_cases() {
  std::vector<BackendCase> cases;
  for (const std::string& name : hash_names()) {
    const HashAlgorithm a = parse_hash(name);
    for (const cpu::HashBackend& b : cpu::hash_backends(a)) cases.push_back({a, b.name, b.missing});
  }
  return cases;
}

std::string backend_case_name(const testing::TestParamInfo<BackendCase>& info) {
  std::string name = std::string(hash_info(info.param.algorithm).name) + "_" + info.param.backend;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

class CpuHashBackend : public testing::TestWithParam<BackendCase> {
 protected:
  void SetUp() override {
    if (!GetParam().missing.empty()) GTEST_SKIP() << GetParam().backend << " " << GetParam().missing;
    if (evp_digest(algorithm(), {}, hash_info(algorithm()).digest_size).empty())
      GTEST_SKIP() << "this OpenSSL has no " << evp_name(algorithm()) << " to compare with";
  }
  HashAlgorithm algorithm() const { return GetParam().algorithm; }
  const std::string& backend() const { return GetParam().backend; }
};

TEST_P(CpuHashBackend, RandomBatchesOfMixedLengthsMatchOpenssl) {
  std::mt19937_64 rng(7000 + 31 * static_cast<int>(algorithm()) + backend().size());
  // Batch sizes around every lane count (2, 4, 8), and a large one.
  for (std::size_t count : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 17u, 300u}) {
    Batch b = random_batch(algorithm(), count, rng);
    cpu::run_hash_backend(backend(), algorithm(), b.make_jobs());
    b.check(backend() + ", batch of " + std::to_string(count));
  }
}

TEST_P(CpuHashBackend, EqualLengthsAndOneLongMessageAmongShortOnes) {
  std::mt19937_64 rng(8000 + static_cast<int>(algorithm()));
  // Whole numbers of every block size (64, 128, the Keccak rates 72..168: one shared padding block) and lengths
  // whose padding spills into a second block, so that the lanes-in-step path meets each kind of final block.
  for (std::size_t len : {0u, 55u, 56u, 60u, 64u, 72u, 104u, 120u, 128u, 136u, 144u, 168u, 1000u, 1024u}) {
    Batch b;
    for (int i = 0; i < 37; ++i) b.add(algorithm(), random_bytes(rng, len), out_len(algorithm(), rng));
    cpu::run_hash_backend(backend(), algorithm(), b.make_jobs());
    b.check(backend() + ", 37 messages of " + std::to_string(len) + " bytes");
  }
  Batch b;
  b.add(algorithm(), random_bytes(rng, 100000), out_len(algorithm(), rng));
  for (int i = 0; i < 20; ++i) b.add(algorithm(), random_bytes(rng, rng() % 200), out_len(algorithm(), rng));
  cpu::run_hash_backend(backend(), algorithm(), b.make_jobs());
  b.check(backend() + ", a 100000-byte message among short ones");
}

TEST_P(CpuHashBackend, JobsThatAreNotPendingAreLeftAlone) {
  std::mt19937_64 rng(9000 + static_cast<int>(algorithm()));
  Batch b = random_batch(algorithm(), 40, rng);
  std::span<HashJob> jobs = b.make_jobs();
  for (std::size_t i = 0; i < jobs.size(); i += 3) jobs[i].status = JobStatus::invalid_argument;
  cpu::run_hash_backend(backend(), algorithm(), jobs);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i % 3 == 0) {
      EXPECT_EQ(jobs[i].status, JobStatus::invalid_argument);
      EXPECT_EQ(to_hex(b.digests[i]), std::string(2 * b.digests[i].size(), 'e')) << "message " << i << " was written";
    } else {
      EXPECT_EQ(jobs[i].status, JobStatus::ok);
      EXPECT_EQ(to_hex(b.digests[i]), to_hex(b.expected[i])) << "message " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, CpuHashBackend, testing::ValuesIn(backend_cases()), backend_case_name);

TEST(CpuHashBackends, UnknownOrForeignBackendsAreRejected) {
  std::vector<HashJob> none;
  EXPECT_THROW(cpu::run_hash_backend("nosuch", HashAlgorithm::sha256, none), std::invalid_argument);
  EXPECT_THROW(cpu::run_hash_backend("sha512-avx2-x4", HashAlgorithm::sha256, none), std::invalid_argument);
  EXPECT_THROW(cpu::run_hash_backend("sha256-shani", HashAlgorithm::sm3, none), std::invalid_argument);
}

TEST(CpuHashBackends, DefaultIsListedAndRunnable) {
  for (const std::string& name : hash_names()) {
    const HashAlgorithm a = parse_hash(name);
    const std::string def = cpu::default_hash_backend(a);
    bool listed = false;
    for (const cpu::HashBackend& b : cpu::hash_backends(a))
      if (b.name == def) {
        listed = true;
        EXPECT_EQ(b.missing, "") << name << " default " << def;
      }
    EXPECT_TRUE(listed) << name << " default " << def;
  }
}

// The engine's default path: long messages one at a time when fewer than the lanes, the last busy lanes finished
// one message at a time, single messages, on every algorithm.
class CpuHashDefault : public testing::TestWithParam<HashAlgorithm> {};

TEST_P(CpuHashDefault, MixedBatchesWithLongMessagesMatchOpenssl) {
  const HashAlgorithm a = GetParam();
  if (evp_digest(a, {}, hash_info(a).digest_size).empty()) GTEST_SKIP() << "this OpenSSL has no " << evp_name(a);
  std::mt19937_64 rng(10000 + static_cast<int>(a));
  for (std::size_t long_ones : {0u, 1u, 3u, 9u}) {
    for (std::size_t count : {1u, 2u, 5u, 64u}) {
      Batch b = random_batch(a, count, rng);
      for (std::size_t i = 0; i < long_ones; ++i) b.add(a, random_bytes(rng, 65536 + rng() % 70000), out_len(a, rng));
      cpu::cpu_hash_batch(a, b.make_jobs());
      b.check("default " + cpu::default_hash_backend(a) + ", " + std::to_string(count) + " short and " +
              std::to_string(long_ones) + " long messages");
    }
  }
  // Through the public API on every thread count.
  Batch b = random_batch(a, 300, rng);
  for (std::size_t threads : {1u, 2u, 3u}) {
    BatchOptions options;
    options.engine = "cpu";
    options.threads = threads;
    EXPECT_EQ(hash_batch(a, b.make_jobs(), options).engine, "cpu");
    b.check("hash_batch on cpu, " + std::to_string(threads) + " threads");
  }
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, CpuHashDefault, testing::Values(
    HashAlgorithm::sha224, HashAlgorithm::sha256, HashAlgorithm::sha384, HashAlgorithm::sha512,
    HashAlgorithm::sha512_224, HashAlgorithm::sha512_256, HashAlgorithm::sha3_224, HashAlgorithm::sha3_256,
    HashAlgorithm::sha3_384, HashAlgorithm::sha3_512, HashAlgorithm::shake128, HashAlgorithm::shake256,
    HashAlgorithm::sm3),
    [](const testing::TestParamInfo<HashAlgorithm>& info) { return std::string(hash_info(info.param).name); });

TEST(CpuKeccakBatch, MatchesThePortablePermutationForEveryCount) {
  std::mt19937_64 rng(11);
  for (std::size_t count : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 1001u}) {
    std::vector<KeccakState> states(count);
    for (auto& s : states)
      for (auto& lane : s) lane = rng();
    std::vector<KeccakState> expected = states;
    for (auto& s : expected) algo::keccak_f1600(s.data());
    cpu::cpu_keccak_permutations(states);
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(states[i], expected[i]) << "state " << i << " of " << count;
  }
}

TEST(CpuKeccakBatch, ServedByTheCpuEngine) {
  std::vector<KeccakState> states(5);
  std::vector<KeccakState> expected = states;
  for (auto& s : expected) algo::keccak_f1600(s.data());
  EXPECT_EQ(keccak_f1600_batch(states, "cpu"), "cpu");
  EXPECT_EQ(states, expected);
}

}  // namespace
}  // namespace cryptaccel

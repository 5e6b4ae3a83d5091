// Hashes on every available engine against OpenSSL libcrypto's EVP digests: random messages of random lengths,
// streaming in odd chunk sizes and byte by byte, copies, batches over threads, SHAKE output lengths, Keccak-f
// batches, names and errors. (The NIST CAVP files run in tests/python/test_vectors_hash.py.)
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "algo/keccak.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using test::random_bytes;
using test::to_hex;

/// OpenSSL's name for each algorithm.
const char* openssl_name(HashAlgorithm a) {
  switch (a) {
    case HashAlgorithm::sha224: return "SHA224";
    case HashAlgorithm::sha256: return "SHA256";
    case HashAlgorithm::sha384: return "SHA384";
    case HashAlgorithm::sha512: return "SHA512";
    case HashAlgorithm::sha512_224: return "SHA512-224";
    case HashAlgorithm::sha512_256: return "SHA512-256";
    case HashAlgorithm::sha3_224: return "SHA3-224";
    case HashAlgorithm::sha3_256: return "SHA3-256";
    case HashAlgorithm::sha3_384: return "SHA3-384";
    case HashAlgorithm::sha3_512: return "SHA3-512";
    case HashAlgorithm::shake128: return "SHAKE128";
    case HashAlgorithm::shake256: return "SHAKE256";
    case HashAlgorithm::sm3: return "SM3";
  }
  return "";
}

/// The OpenSSL digest of `data` (`out_len` bytes for SHAKE); empty when this OpenSSL lacks the algorithm.
bytes openssl_digest(HashAlgorithm a, bytes_view data, std::size_t out_len) {
  std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> md(EVP_MD_fetch(nullptr, openssl_name(a), nullptr), EVP_MD_free);
  if (!md) return {};
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  bytes out(std::max<std::size_t>(out_len, EVP_MAX_MD_SIZE));  // Final_ex writes the whole digest
  unsigned len = 0;
  EXPECT_EQ(EVP_DigestInit_ex(ctx.get(), md.get(), nullptr), 1);
  EXPECT_EQ(EVP_DigestUpdate(ctx.get(), data.data(), data.size()), 1);
  if (hash_info(a).xof) {
    EXPECT_EQ(EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()), 1);
  } else {
    EXPECT_EQ(EVP_DigestFinal_ex(ctx.get(), out.data(), &len), 1);
    EXPECT_EQ(len, out_len);
  }
  out.resize(out_len);
  return out;
}

/// Lengths that cross every block and padding boundary, then random ones up to 1 MiB.
std::vector<std::size_t> message_lengths(std::mt19937_64& rng, std::size_t random_count) {
  std::vector<std::size_t> lens;
  for (std::size_t block : {64u, 72u, 104u, 128u, 136u, 144u, 168u})
    for (std::size_t k : {1u, 2u})
      for (int d = -17; d <= 1; ++d) lens.push_back(k * block + d);
  lens.push_back(0);
  for (std::size_t i = 0; i < random_count; ++i) lens.push_back(rng() % ((rng() & 1) ? 1000 : (1u << 20)));
  return lens;
}

struct HashCase {
  std::string engine;
  HashAlgorithm algorithm;
};

/// GoogleTest names take letters, digits and '_' only ("cuda-ttable" is an engine name).
std::string case_name(const testing::TestParamInfo<HashCase>& info) {
  std::string name = info.param.engine + "_" + std::string(hash_info(info.param.algorithm).name);
  for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

std::vector<HashCase> all_cases() {
  std::vector<HashCase> cases;
  for (const EngineInfo& e : engines())
    if (e.available)
      for (const std::string& name : hash_names()) cases.push_back({e.name, parse_hash(name)});
  return cases;
}

class HashVsOpenssl : public testing::TestWithParam<HashCase> {
 protected:
  void SetUp() override {
    EVP_MD* md = EVP_MD_fetch(nullptr, openssl_name(algorithm()), nullptr);
    if (!md) GTEST_SKIP() << "this OpenSSL has no " << openssl_name(algorithm());
    EVP_MD_free(md);
  }
  HashAlgorithm algorithm() const { return GetParam().algorithm; }
  const std::string& engine() const { return GetParam().engine; }
  /// Skips (with the engine's reason) when the engine hashes whole messages only: batch engines such as cuda
  /// refuse a streaming Hasher with EngineUnavailable, which is what they document; any other error still fails.
  void skip_unless_engine_streams() const {
    try {
      Hasher probe(algorithm(), engine());
    } catch (const EngineUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
  }
  std::size_t out_len(std::mt19937_64& rng) const {
    const HashInfo& info = hash_info(algorithm());
    return info.xof ? 1 + rng() % 600 : info.digest_size;
  }
};

TEST_P(HashVsOpenssl, OneShotOnRandomMessages) {
  std::mt19937_64 rng(1000 + static_cast<int>(algorithm()));
  for (std::size_t len : message_lengths(rng, 12)) {
    const bytes msg = random_bytes(rng, len);
    const std::size_t n = out_len(rng);
    SCOPED_TRACE("length " + std::to_string(len) + ", output " + std::to_string(n));
    std::string used;
    const bytes got = hash(algorithm(), msg, hash_info(algorithm()).xof ? n : 0, engine(), &used);
    EXPECT_EQ(used, engine());
    ASSERT_EQ(to_hex(got), to_hex(openssl_digest(algorithm(), msg, n)));
  }
}

TEST_P(HashVsOpenssl, StreamingInRandomChunksAndByteByByte) {
  skip_unless_engine_streams();
  if (IsSkipped()) return;
  std::mt19937_64 rng(2000 + static_cast<int>(algorithm()));
  const bytes msg = random_bytes(rng, 3000 + rng() % 5000);
  const std::size_t n = out_len(rng);
  const std::size_t xof_len = hash_info(algorithm()).xof ? n : 0;
  const bytes expected = openssl_digest(algorithm(), msg, n);

  Hasher chunked(algorithm(), engine());
  for (std::size_t pos = 0; pos < msg.size();) {
    const std::size_t take = std::min<std::size_t>(msg.size() - pos, rng() % 400);
    chunked.update(bytes_view(msg).subspan(pos, take));
    pos += take;
  }
  EXPECT_EQ(to_hex(chunked.digest(xof_len)), to_hex(expected));

  Hasher bytewise(algorithm(), engine());
  for (std::uint8_t b : msg) bytewise.update(bytes_view(&b, 1));
  EXPECT_EQ(to_hex(bytewise.digest(xof_len)), to_hex(expected));
  EXPECT_EQ(bytewise.engine_name(), engine());
}

TEST_P(HashVsOpenssl, DigestDoesNotFinaliseAndCopiesAreIndependent) {
  skip_unless_engine_streams();
  if (IsSkipped()) return;
  std::mt19937_64 rng(3000 + static_cast<int>(algorithm()));
  const bytes a = random_bytes(rng, 100), b = random_bytes(rng, 1000);
  const std::size_t n = out_len(rng);
  const std::size_t xof_len = hash_info(algorithm()).xof ? n : 0;
  Hasher h(algorithm(), engine());
  h.update(a);
  const bytes first = h.digest(xof_len);
  EXPECT_EQ(to_hex(first), to_hex(openssl_digest(algorithm(), a, n)));
  Hasher copy = h;
  h.update(b);
  bytes ab = a;
  ab.insert(ab.end(), b.begin(), b.end());
  EXPECT_EQ(to_hex(h.digest(xof_len)), to_hex(openssl_digest(algorithm(), ab, n)));
  EXPECT_EQ(to_hex(copy.digest(xof_len)), to_hex(first)) << "the copy must not see the original's later input";
  h.reset();
  EXPECT_EQ(to_hex(h.digest(xof_len)), to_hex(openssl_digest(algorithm(), {}, n)));
}

TEST_P(HashVsOpenssl, BatchEqualsOneShotForAnyThreadCount) {
  std::mt19937_64 rng(4000 + static_cast<int>(algorithm()));
  std::vector<bytes> messages, expected;
  for (int i = 0; i < 300; ++i) {
    messages.push_back(random_bytes(rng, i % 50 == 0 ? 200000 : rng() % 3000));
    expected.push_back(openssl_digest(algorithm(), messages.back(), out_len(rng)));
  }
  for (std::size_t threads : {1u, 2u, 8u}) {
    std::vector<bytes> digests;
    std::vector<HashJob> jobs;
    for (std::size_t i = 0; i < messages.size(); ++i) digests.emplace_back(expected[i].size(), 0xee);
    for (std::size_t i = 0; i < messages.size(); ++i) jobs.push_back(HashJob{messages[i], digests[i]});
    BatchOptions options;
    options.engine = engine();
    options.threads = threads;
    const BatchReport report = hash_batch(algorithm(), jobs, options);
    EXPECT_EQ(report.engine, engine());
    EXPECT_EQ(report.succeeded, messages.size());
    for (std::size_t i = 0; i < messages.size(); ++i)
      ASSERT_EQ(to_hex(digests[i]), to_hex(expected[i])) << "message " << i << ", threads " << threads;
  }
}

INSTANTIATE_TEST_SUITE_P(AllEnginesAndHashes, HashVsOpenssl, testing::ValuesIn(all_cases()), case_name);

TEST(HashApi, NamesParseInEveryCommonSpelling) {
  EXPECT_EQ(parse_hash("sha256"), HashAlgorithm::sha256);
  EXPECT_EQ(parse_hash("SHA-256"), HashAlgorithm::sha256);
  EXPECT_EQ(parse_hash("sha512/224"), HashAlgorithm::sha512_224);
  EXPECT_EQ(parse_hash("SHA512-256"), HashAlgorithm::sha512_256);
  EXPECT_EQ(parse_hash("sha3-384"), HashAlgorithm::sha3_384);
  EXPECT_EQ(parse_hash("shake_128"), HashAlgorithm::shake128);
  EXPECT_EQ(parse_hash("SHAKE256"), HashAlgorithm::shake256);
  EXPECT_EQ(parse_hash("SM3"), HashAlgorithm::sm3);
  EXPECT_THROW(parse_hash("md5"), InvalidArgument);
  EXPECT_THROW(parse_hash(""), InvalidArgument);
  for (const std::string& name : hash_names()) EXPECT_EQ(hash_info(parse_hash(name)).name, name);
  EXPECT_EQ(hash_names().size(), 13u);
}

TEST(HashApi, WrongDigestSizesAreClearErrors) {
  EXPECT_THROW(hash(HashAlgorithm::sha256, {}, 31), InvalidArgument);
  EXPECT_NO_THROW(hash(HashAlgorithm::sha256, {}, 32));
  bytes small(20), empty;
  HashJob jobs[] = {HashJob{{}, small}, HashJob{{}, empty}};
  const BatchReport sha = hash_batch(HashAlgorithm::sha256, std::span(jobs, 1));
  EXPECT_EQ(sha.failed, 1u);
  EXPECT_EQ(jobs[0].status, JobStatus::invalid_argument);
  EXPECT_NE(jobs[0].error.find("32 bytes"), std::string::npos) << jobs[0].error;
  hash_batch(HashAlgorithm::shake128, std::span(jobs + 1, 1));
  EXPECT_EQ(jobs[1].status, JobStatus::invalid_argument) << "a SHAKE output of 0 bytes";
  Hasher h(HashAlgorithm::sha512);
  bytes wrong(63);
  EXPECT_THROW(h.digest_into(wrong), InvalidArgument);
}

TEST(HashApi, UnknownOrUnbuiltEnginesAreClearErrors) {
  EXPECT_THROW(Hasher(HashAlgorithm::sha256, "nosuch"), EngineUnavailable);
  EXPECT_THROW(hash(HashAlgorithm::sha256, {}, 0, "nosuch"), EngineUnavailable);
  std::vector<KeccakState> states(1);
  EXPECT_THROW(keccak_f1600_batch(states, "nosuch"), EngineUnavailable);
}

// FIPS 202 / the Keccak team's KeccakF-1600 intermediate values: the permutation of the all-zero state.
TEST(KeccakBatch, ZeroStateKnownAnswer) {
  std::vector<KeccakState> states(3);
  keccak_f1600_batch(states, "ref");
  EXPECT_EQ(states[0][0], 0xF1258F7940E1DDE7ull);
  EXPECT_EQ(states[0][1], 0x84D5CCF933C0478Aull);
  EXPECT_EQ(states[0][24], 0xEAF1FF7B5CECA249ull);
  keccak_f1600_batch(std::span(states).first(1), "ref");  // applied twice
  EXPECT_EQ(states[0][0], 0x2D5C954DF96ECB3Cull);
}

TEST(KeccakBatch, EveryEngineMatchesThePermutationAppliedOneStateAtATime) {
  std::mt19937_64 rng(5);
  std::vector<KeccakState> input(10000);
  for (auto& s : input)
    for (auto& lane : s) lane = rng();
  std::vector<KeccakState> expected = input;
  for (auto& s : expected) algo::keccak_f1600(s.data());
  int engines_run = 0;
  for (const EngineInfo& e : engines()) {
    if (!e.available) continue;
    std::vector<KeccakState> states = input;
    try {
      EXPECT_EQ(keccak_f1600_batch(states, e.name), e.name);
    } catch (const EngineUnavailable& why) {
      std::printf("note: %s\n", why.what());  // an engine without Keccak batches: auto uses another
      continue;
    }
    ++engines_run;
    for (std::size_t i = 0; i < states.size(); ++i) ASSERT_EQ(states[i], expected[i]) << e.name << " state " << i;
  }
  EXPECT_GE(engines_run, 1);
}

}  // namespace
}  // namespace cryptaccel

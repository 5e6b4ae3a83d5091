// GCM split over threads (src/engine/gcm_split.cpp), on every engine that offers the building blocks (cpu and ref):
// split results equal the unsplit ref engine and OpenSSL (AES; OpenSSL 3.0 has no SM4-GCM) for any chunk size,
// length, IV length, AAD and tag length; GCM's 32-bit counter wrapping inside a message (J0 chosen through a 16-byte
// IV, see iv_for_j0) and exactly at a chunk boundary; multi-MiB messages through run_batch over 2 and 8 threads; and
// a tampered message, which must fail with auth_failed and leave no plaintext in the output.
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "algo/bits.hpp"
#include "algo/ghash.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/modes.hpp"
#include "engine/engine.hpp"
#include "engine/gcm_split.hpp"
#include "stream/gcm_offload.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using test::random_bytes;
using test::to_hex;

constexpr std::size_t kBlock = 16;
constexpr std::size_t kMiB = std::size_t{1} << 20;

/// OpenSSL AES-GCM seal: ciphertext || tag.
bytes evp_gcm_seal(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view aad, bytes_view pt,
                   std::size_t tag_len) {
  std::string name = spec.name();
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(nullptr, name.c_str(), nullptr);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  bytes out(pt.size() + 16);
  int n = 0, tail = 0, ok = cipher && ctx;
  ok = ok && EVP_EncryptInit_ex2(ctx, cipher, nullptr, nullptr, nullptr);
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(iv.size()), nullptr);
  ok = ok && EVP_EncryptInit_ex2(ctx, nullptr, key.data(), iv.data(), nullptr);
  ok = ok && (aad.empty() || EVP_EncryptUpdate(ctx, nullptr, &n, aad.data(), static_cast<int>(aad.size())));
  ok = ok && EVP_EncryptUpdate(ctx, out.data(), &n, pt.data(), static_cast<int>(pt.size()));
  ok = ok && EVP_EncryptFinal_ex(ctx, out.data() + n, &tail);
  out.resize(static_cast<std::size_t>(n + tail));
  out.resize(out.size() + tag_len);
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag_len), out.data() + n + tail);
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(cipher);
  ERR_clear_error();
  if (!ok) throw std::runtime_error("OpenSSL GCM failed for " + name);
  return out;
}

algo::Gf128 mul(algo::Gf128 a, algo::Gf128 b) { return algo::gf128_mul(a, b); }

/// A 16-byte IV whose J0 = GHASH_H(IV || [0]_64 || [128]_64) is `j0`: J0 = IV*H^2 ^ L*H, so IV = (J0 ^ L*H) * H^-2,
/// with H^-1 = H^(2^128 - 2). This is how the tests make GCM's 32-bit counter wrap at a chosen block.
bytes iv_for_j0(bytes_view h_bytes, bytes_view j0_bytes) {
  const algo::Gf128 h = algo::gf128_load(h_bytes.data());
  algo::Gf128 inv{std::uint64_t{1} << 63, 0};  // 1
  for (int i = 0; i < 127; ++i) inv = mul(mul(inv, inv), h);  // exponent bits 127..1 are ones
  inv = mul(inv, inv);                                         // bit 0 is zero
  const algo::Gf128 lh = mul(algo::Gf128{0, 128}, h);
  algo::Gf128 j0 = algo::gf128_load(j0_bytes.data());
  j0.hi ^= lh.hi, j0.lo ^= lh.lo;
  bytes iv(16);
  algo::gf128_store(mul(j0, mul(inv, inv)), iv.data());
  // Check: GHASH of the IV gives j0 back.
  algo::Ghash g;
  g.init(h_bytes.data());
  g.update_padded(iv.data(), iv.size());
  g.update_lengths(0, iv.size());
  bytes back(16);
  algo::gf128_store(g.y, back.data());
  EXPECT_EQ(to_hex(back), to_hex(j0_bytes)) << "iv_for_j0 is wrong";
  return iv;
}

using Param = std::tuple<std::string, std::string>;  // engine, cipher

std::vector<Param> params() {
  std::vector<Param> out;
  for (const engine::Engine* e : engine::registered_engines())
    for (const char* cipher : {"aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "sm4-gcm"})
      out.emplace_back(e->name(), cipher);
  return out;
}

class GcmSplit : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    spec_ = CipherSpec::parse(std::get<1>(GetParam()));
    for (const engine::Engine* e : engine::registered_engines())
      if (e->name() == std::get<0>(GetParam())) engine_ = e;
    ASSERT_NE(engine_, nullptr);
    if (auto why = engine_->unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
    if (!engine_->supports(spec_, Direction::encrypt))
      GTEST_SKIP() << "engine '" << engine_->name() << "' does not support " << spec_.name();
    const bytes probe(spec_.key_size(), 1);
    if (!engine_->gcm_split_key(spec_.cipher, probe))
      GTEST_SKIP() << "engine '" << engine_->name() << "' does not split GCM";
    rng_.seed(std::hash<std::string>{}(spec_.name()));
  }

  bool openssl() const { return spec_.cipher != BlockCipher::sm4; }

  /// The expected ciphertext || tag: OpenSSL for AES, the ref engine unsplit (one thread) for SM4.
  bytes expected(bytes_view key, bytes_view iv, bytes_view aad, bytes_view pt, std::size_t tag_len) const {
    if (openssl()) return evp_gcm_seal(spec_, key, iv, aad, pt, tag_len);
    bytes out(pt.size()), tag(tag_len);
    CipherJob job{key, iv, pt, out, aad, tag};
    BatchOptions options;
    options.engine = "ref";
    options.threads = 1;
    run_batch(spec_, Direction::encrypt, std::span<CipherJob>(&job, 1), options);
    EXPECT_EQ(int(job.status), int(JobStatus::ok)) << job.error;
    out.insert(out.end(), tag.begin(), tag.end());
    return out;
  }

  /// H = E_K(0^128), through the ref engine's ECB.
  bytes hash_key(bytes_view key) const {
    CipherSpec ecb = spec_;
    ecb.mode = Mode::ecb;
    ecb.padding = false;
    return encrypt(ecb, CipherParams{key}, bytes(16, 0), "ref");
  }

  /// run_split_gcm_job with this engine's key; returns the job (out written in `buffer`).
  CipherJob split(Direction dir, bytes_view key, bytes_view iv, bytes_view aad, bytes_view in, bytes& buffer,
                  bytes& tag, std::size_t threads, std::size_t chunk, bool in_place) const {
    buffer.assign(in.begin(), in.end());
    if (!in_place) std::fill(buffer.begin(), buffer.end(), 0xA5);
    CipherJob job{key, iv, in_place ? bytes_view(buffer) : in, buffer, aad, tag};
    const auto k = engine_->gcm_split_key(spec_.cipher, key);
    engine::run_split_gcm_job(*k, dir, job, threads, chunk);
    return job;
  }

  CipherSpec spec_;
  const engine::Engine* engine_ = nullptr;
  std::mt19937_64 rng_;
};

TEST_P(GcmSplit, AnyChunkingMatchesUnsplit) {
  const std::size_t ref_scale = engine_->name() == "ref" ? 4 : 1;  // the portable engine is slow: shorter messages
  for (int i = 0; i < 24; ++i) {
    const std::size_t len = i < 4 ? std::size_t(i * 7) : rng_() % (200000 / ref_scale);
    const std::size_t iv_len = i % 3 == 0 ? 12 : 1 + rng_() % 64;
    const bytes key = random_bytes(rng_, spec_.key_size()), iv = random_bytes(rng_, iv_len);
    const bytes aad = random_bytes(rng_, i % 4 == 1 ? 0 : rng_() % 300), pt = random_bytes(rng_, len);
    const std::size_t tag_len = 4 + rng_() % 13;
    const std::size_t chunk = std::size_t{1} << (4 + rng_() % 13);  // 16 B .. 64 KiB
    const std::size_t threads = 1 + rng_() % 4;
    const bool in_place = i % 2 == 0;
    SCOPED_TRACE("len=" + std::to_string(len) + " iv=" + to_hex(iv) + " aad_len=" + std::to_string(aad.size()) +
                 " tag_len=" + std::to_string(tag_len) + " chunk=" + std::to_string(chunk) +
                 " threads=" + std::to_string(threads) + " in_place=" + std::to_string(in_place));
    const bytes want = expected(key, iv, aad, pt, tag_len);
    bytes buffer, tag(tag_len);
    CipherJob job = split(Direction::encrypt, key, iv, aad, pt, buffer, tag, threads, chunk, in_place);
    ASSERT_EQ(int(job.status), int(JobStatus::ok)) << job.error;
    ASSERT_EQ(job.out_len, len);
    bytes got = buffer;
    got.insert(got.end(), tag.begin(), tag.end());
    ASSERT_EQ(to_hex(got), to_hex(want));

    const bytes ct(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(len));
    tag.assign(want.end() - static_cast<std::ptrdiff_t>(tag_len), want.end());
    job = split(Direction::decrypt, key, iv, aad, ct, buffer, tag, threads, chunk, !in_place);
    ASSERT_EQ(int(job.status), int(JobStatus::ok)) << job.error;
    ASSERT_EQ(to_hex(buffer), to_hex(pt));

    if (len > 0 || !aad.empty()) {  // tampered ciphertext or AAD: auth_failed, output zeroed
      bytes forged_ct = ct, forged_aad = aad;
      if (len > 0) forged_ct[rng_() % len] ^= 0x01;
      else forged_aad[0] ^= 0x80;
      job = split(Direction::decrypt, key, iv, forged_aad, forged_ct, buffer, tag, threads, chunk, in_place);
      EXPECT_EQ(int(job.status), int(JobStatus::auth_failed));
      EXPECT_EQ(job.error, "authentication failed: tag mismatch");
      EXPECT_EQ(job.out_len, 0u);
      EXPECT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](std::uint8_t b) { return b == 0; }));
    }
  }
}

TEST_P(GcmSplit, CounterWrapsInsideMessageAndAtChunkBoundaries) {
  const bytes key = random_bytes(rng_, spec_.key_size());
  const bytes h = hash_key(key);
  const std::size_t chunk = 4096;  // 256 blocks
  const std::size_t len = engine_->name() == "ref" ? 40000 : 300000 + 7;
  // Data block w has counter low word 0: w = 0 (the first), inside a chunk, at a chunk boundary, in the last block.
  for (std::size_t w : {std::size_t{0}, std::size_t{1}, std::size_t{100}, chunk / kBlock, 3 * chunk / kBlock,
                        3 * chunk / kBlock - 1, (len - 1) / kBlock}) {
    bytes j0 = random_bytes(rng_, 16);
    algo::store_be32(j0.data() + 12, static_cast<std::uint32_t>(0xFFFFFFFFu - w));
    const bytes iv = iv_for_j0(h, j0);
    const bytes aad = random_bytes(rng_, 20), pt = random_bytes(rng_, len);
    SCOPED_TRACE("wrap at block " + std::to_string(w) + ", j0=" + to_hex(j0));
    const bytes want = expected(key, iv, aad, pt, 16);
    for (std::size_t threads : {1u, 3u}) {
      bytes buffer, tag(16);
      const CipherJob job = split(Direction::encrypt, key, iv, aad, pt, buffer, tag, threads, chunk, false);
      ASSERT_EQ(int(job.status), int(JobStatus::ok)) << job.error;
      buffer.insert(buffer.end(), tag.begin(), tag.end());
      ASSERT_EQ(to_hex(bytes_view(buffer).subspan(w * kBlock, std::min<std::size_t>(48, len - w * kBlock))),
                to_hex(bytes_view(want).subspan(w * kBlock, std::min<std::size_t>(48, len - w * kBlock))));
      ASSERT_TRUE(buffer == want) << "differs away from the wrap";
    }
  }
}

TEST_P(GcmSplit, CounterModeThroughBatchesOfAnotherEngineMatches) {
  // The GPU way of streaming GCM (src/stream/gcm_offload.hpp): each piece's counter mode as CTR jobs of run_batch on
  // another engine (here ref; cuda in tests/cuda), GHASH on this engine's building blocks; the counter's low word
  // wrapping inside a piece makes two CTR jobs there.
  const bytes key = random_bytes(rng_, spec_.key_size());
  const bytes h = hash_key(key);
  const auto k = engine_->gcm_split_key(spec_.cipher, key);
  const std::size_t len = 20000 + 5, piece = 4096;  // pieces of 256 blocks, the last one partial
  for (std::size_t w : {std::size_t{0}, std::size_t{255}, std::size_t{256}, std::size_t{700}, (len - 1) / kBlock,
                        std::size_t{1} << 20}) {
    bytes j0 = random_bytes(rng_, 16);
    algo::store_be32(j0.data() + 12, static_cast<std::uint32_t>(0xFFFFFFFFu - w));  // data block w has low word 0
    const bytes iv = w < (std::size_t{1} << 20) ? iv_for_j0(h, j0) : random_bytes(rng_, 12);
    const bytes aad = random_bytes(rng_, 33), pt = random_bytes(rng_, len);
    SCOPED_TRACE("wrap at block " + std::to_string(w));
    const bytes want = expected(key, iv, aad, pt, 16);
    for (Direction dir : {Direction::encrypt, Direction::decrypt}) {
      engine::GcmStreamState state(*k, iv, aad, gcm_ctr_through_batches(spec_.cipher, key, "ref", 1));
      bytes data = dir == Direction::encrypt ? pt : bytes(want.begin(), want.end() - 16);
      for (std::size_t off = 0; off < len; off += piece)  // in place, as the stream's batches
        state.process(dir, data.data() + off, data.data() + off, std::min(piece, len - off), 2, 1024);
      bytes tag(16);
      state.tag(tag.data(), 16);
      EXPECT_EQ(to_hex(tag), to_hex(bytes_view(want).last(16))) << (dir == Direction::encrypt ? "seal" : "open");
      EXPECT_TRUE(data == (dir == Direction::encrypt ? bytes(want.begin(), want.end() - 16) : pt));
    }
  }
}

/// Jobs through run_batch (dispatch splits the large ones): status and output per job.
struct BatchResult {
  std::vector<JobStatus> status;
  std::vector<bytes> out;  // ciphertext || tag (encryption) or the output buffer (decryption)
};

BatchResult run(const CipherSpec& spec, Direction dir, std::string_view engine, std::size_t threads, bool in_place,
                const std::vector<bytes>& keys, const std::vector<bytes>& ivs, const std::vector<bytes>& aads,
                const std::vector<bytes>& inputs) {
  const std::size_t n = inputs.size();
  std::vector<bytes> bodies(n), buffers(n), tags(n);
  std::vector<CipherJob> jobs(n);
  for (std::size_t i = 0; i < n; ++i) {
    bytes_view in = inputs[i];
    if (dir == Direction::decrypt) {
      tags[i].assign(in.end() - 16, in.end());
      in = in.first(in.size() - 16);
    } else {
      tags[i].assign(16, 0);
    }
    bodies[i].assign(in.begin(), in.end());
    buffers[i] = in_place ? bodies[i] : bytes(in.size(), 0xA5);
    jobs[i] = CipherJob{keys[i], ivs[i], in_place ? bytes_view(buffers[i]) : bytes_view(bodies[i]), buffers[i],
                        aads[i], tags[i]};
  }
  BatchOptions options;
  options.engine = engine;
  options.threads = threads;
  run_batch(spec, dir, jobs, options);
  BatchResult r;
  for (std::size_t i = 0; i < n; ++i) {
    r.status.push_back(jobs[i].status);
    if (dir == Direction::encrypt) buffers[i].insert(buffers[i].end(), tags[i].begin(), tags[i].end());
    r.out.push_back(std::move(buffers[i]));
  }
  return r;
}

TEST_P(GcmSplit, LargeMessagesOverThreadsAndTamperingReleasesNoPlaintext) {
  const bool slow = engine_->name() == "ref";
  // A batch: small jobs around large ones, one of which wraps the 32-bit counter a third of the way in.
  const std::vector<std::size_t> lengths = slow ? std::vector<std::size_t>{100, kMiB + 3, 5000}
                                                : std::vector<std::size_t>{100, 5 * kMiB + 3, 5000, 3 * kMiB};
  std::vector<bytes> keys, ivs, aads, pts, want;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    keys.push_back(random_bytes(rng_, spec_.key_size()));
    aads.push_back(random_bytes(rng_, i * 7));
    pts.push_back(random_bytes(rng_, lengths[i]));
    if (i == 1) {  // counter wrap: J0's low word 2^32 - 1 - lengths/48
      CipherSpec ecb = spec_;
      ecb.mode = Mode::ecb;
      ecb.padding = false;
      const bytes h = encrypt(ecb, CipherParams{keys[i]}, bytes(16, 0), "ref");
      bytes j0 = random_bytes(rng_, 16);
      algo::store_be32(j0.data() + 12, static_cast<std::uint32_t>(0xFFFFFFFFu - lengths[i] / 48));
      ivs.push_back(iv_for_j0(h, j0));
    } else {
      ivs.push_back(random_bytes(rng_, i == 3 ? 60 : 12));
    }
    want.push_back(expected(keys[i], ivs[i], aads[i], pts[i], 16));
  }
  for (std::size_t threads : {2u, 8u}) {
    for (bool in_place : {false, true}) {
      SCOPED_TRACE("threads=" + std::to_string(threads) + " in_place=" + std::to_string(in_place));
      const BatchResult enc = run(spec_, Direction::encrypt, engine_->name(), threads, in_place, keys, ivs, aads, pts);
      for (std::size_t i = 0; i < lengths.size(); ++i) {
        EXPECT_EQ(int(enc.status[i]), int(JobStatus::ok)) << "job " << i;
        EXPECT_TRUE(enc.out[i] == want[i]) << "job " << i << " (" << lengths[i] << " bytes) differs";
      }
      const BatchResult dec = run(spec_, Direction::decrypt, engine_->name(), threads, in_place, keys, ivs, aads, want);
      for (std::size_t i = 0; i < lengths.size(); ++i) {
        EXPECT_EQ(int(dec.status[i]), int(JobStatus::ok)) << "job " << i;
        EXPECT_TRUE(dec.out[i] == pts[i]) << "job " << i << " decrypts wrongly";
      }
      // Tamper with the large job: its last ciphertext byte, then its tag.
      for (std::size_t where : {lengths[1] - 1, lengths[1] + 15}) {
        std::vector<bytes> forged = want;
        forged[1][where] ^= 0x40;
        const BatchResult bad =
            run(spec_, Direction::decrypt, engine_->name(), threads, in_place, keys, ivs, aads, forged);
        for (std::size_t i = 0; i < lengths.size(); ++i) {
          if (i != 1) {
            EXPECT_EQ(int(bad.status[i]), int(JobStatus::ok)) << "job " << i;
            continue;
          }
          EXPECT_EQ(int(bad.status[i]), int(JobStatus::auth_failed));
          const bytes& out = bad.out[i];
          EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0; }))
              << "output of the failed job is not wiped";
        }
      }
    }
  }
}

TEST_P(GcmSplit, DispatchSplitsOnlyLargeJobs) {
  const std::size_t min = engine::gcm_split_min_bytes(spec_.cipher);
  const bytes key = random_bytes(rng_, spec_.key_size()), iv = random_bytes(rng_, 12);
  bytes small(min - 16), large(min), small_tag(16), large_tag(16);
  std::vector<CipherJob> jobs = {CipherJob{key, iv, small, small, {}, small_tag},
                                 CipherJob{key, iv, large, large, {}, large_tag}};
  engine::run_split_gcm(*engine_, spec_, Direction::encrypt, jobs, 2);
  EXPECT_EQ(int(jobs[0].status), int(JobStatus::pending)) << "a job below the threshold was split";
  EXPECT_EQ(int(jobs[1].status), int(JobStatus::ok)) << jobs[1].error;
  engine::run_split_gcm(*engine_, spec_, Direction::encrypt, std::span<CipherJob>(jobs).first(1), 1);
  EXPECT_EQ(int(jobs[0].status), int(JobStatus::pending)) << "one thread: nothing to split over";
  // Many jobs of the threshold size: one job per thread pays better than splitting each.
  std::vector<bytes> buffers(16, bytes(min));
  std::vector<bytes> tags(16, bytes(16));
  std::vector<CipherJob> many;
  for (std::size_t i = 0; i < buffers.size(); ++i)
    many.push_back(CipherJob{key, iv, buffers[i], buffers[i], {}, tags[i]});
  engine::run_split_gcm(*engine_, spec_, Direction::encrypt, many, 2);
  for (const CipherJob& job : many)
    EXPECT_EQ(int(job.status), int(JobStatus::pending)) << "a job of a large batch was split";
}

INSTANTIATE_TEST_SUITE_P(Engines, GcmSplit, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace cryptaccel

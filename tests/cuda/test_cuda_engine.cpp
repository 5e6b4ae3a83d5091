// The cuda engines on a GPU, against the ref engine: every cipher mode and direction on random batches of 1 to
// 100 000 jobs (cuda and cuda-ttable), large jobs cut into pipelined slices, failure paths, every hash algorithm,
// Keccak-f[1600], and the device-resident API (include/cryptaccel/cuda.hpp). Without a GPU each test skips visibly
// (CRYPTACCEL_REQUIRE_GPU=1 turns that into a failure), except the one that checks the engines report themselves
// unavailable with a clear reason and `auto` falls back.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cuda.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/stream.hpp"
#include "cuda/host/host_pins.hpp"

namespace cryptaccel {
namespace {

bool have_gpu() { return cuda::available(); }

#define SKIP_WITHOUT_GPU()                                                                  \
  if (!have_gpu()) {                                                                        \
    const char* required = std::getenv("CRYPTACCEL_REQUIRE_GPU");                           \
    if (required && std::string(required) == "1") FAIL() << cuda::unavailable_reason();     \
    GTEST_SKIP() << "no CUDA device: GPU test skipped (" << cuda::unavailable_reason() << ")"; \
  }

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

/// A batch whose jobs own their buffers (keys shared by groups of jobs, as real batches often do).
struct Batch {
  std::vector<bytes> keys, ivs, ins, outs, aads, tags;
  std::vector<CipherJob> jobs;
};

Batch make_batch(const CipherSpec& spec, std::size_t count, std::size_t max_len, std::mt19937_64& rng) {
  Batch b;
  b.keys.resize(count), b.ivs.resize(count), b.ins.resize(count), b.outs.resize(count), b.aads.resize(count),
      b.tags.resize(count);
  const bool whole_blocks = !spec.padding && (spec.mode == Mode::ecb || spec.mode == Mode::cbc);
  for (std::size_t i = 0; i < count; ++i) {
    b.keys[i] = random_bytes(rng, spec.key_size());
    std::size_t iv_len = spec.iv_size();
    if (spec.mode == Mode::gcm) iv_len = rng() % 8 == 0 ? 1 + rng() % 40 : 12;
    b.ivs[i] = random_bytes(rng, iv_len);
    std::size_t len = rng() % (max_len + 1);
    if (whole_blocks) len = len / 16 * 16;
    if (spec.mode == Mode::xts) len = std::max<std::size_t>(len, 16);
    b.ins[i] = random_bytes(rng, len);
    b.outs[i].assign(len + 32, 0);
    if (spec.mode == Mode::gcm) {
      b.aads[i] = random_bytes(rng, rng() % 40);
      b.tags[i].assign(rng() % 4 == 0 ? 12 : 16, 0);
    }
  }
  for (std::size_t i = 0; i < count; ++i)
    b.jobs.push_back(CipherJob{i % 4 == 1 ? bytes_view(b.keys[0]) : bytes_view(b.keys[i]), b.ivs[i], b.ins[i],
                               b.outs[i], b.aads[i], b.tags[i]});
  return b;
}

/// Runs a copy of `b` on `engine`, returning the copy.
Batch run_copy(const Batch& b, const CipherSpec& spec, Direction dir, const char* engine, std::size_t xts_unit = 0) {
  Batch c = b;
  for (std::size_t i = 0; i < c.jobs.size(); ++i) {
    CipherJob& j = c.jobs[i];
    j.key = b.jobs[i].key.data() == b.keys[0].data() ? bytes_view(c.keys[0]) : bytes_view(c.keys[i]);
    j.iv = c.ivs[i], j.in = c.ins[i], j.out = c.outs[i], j.aad = c.aads[i], j.tag = c.tags[i];
  }
  BatchOptions o;
  o.engine = engine;
  o.xts_unit = xts_unit;
  const BatchReport r = run_batch(spec, dir, c.jobs, o);
  EXPECT_EQ(r.engine, engine);
  return c;
}

void expect_same(const Batch& want, const Batch& got, const std::string& what) {
  for (std::size_t i = 0; i < want.jobs.size(); ++i) {
    const CipherJob &w = want.jobs[i], &g = got.jobs[i];
    const std::string where = what + ", job " + std::to_string(i) + " of " + std::to_string(w.in.size()) + " bytes";
    ASSERT_EQ(static_cast<int>(g.status), static_cast<int>(w.status)) << where << ": " << g.error;
    if (w.status != JobStatus::ok) continue;
    ASSERT_EQ(g.out_len, w.out_len) << where;
    ASSERT_TRUE(std::equal(w.out.begin(), w.out.begin() + w.out_len, g.out.begin())) << where;
    ASSERT_TRUE(std::equal(w.tag.begin(), w.tag.end(), g.tag.begin())) << where << " (tag)";
  }
}

/// Turns a batch's outputs into the inputs of a decryption batch; every 7th job gets a bad tag / padding.
Batch as_ciphertext(const Batch& enc, const CipherSpec& spec) {
  Batch d = enc;
  for (std::size_t i = 0; i < d.jobs.size(); ++i) {
    const CipherJob& e = enc.jobs[i];
    d.ins[i].assign(e.out.begin(), e.out.begin() + e.out_len);
    d.outs[i].assign(e.out_len + 32, 0);
    if (i % 7 == 6 && spec.mode == Mode::gcm) d.tags[i][0] ^= 1;
    if (i % 7 == 6 && spec.pads() && !d.ins[i].empty()) d.ins[i].back() ^= 0x20;
    d.jobs[i].status = JobStatus::pending;
  }
  return d;
}

TEST(CudaEngine, ReportsItselfAndFallsBackWithoutADevice) {
  bool listed = false;
  for (const EngineInfo& e : engines()) {
    if (e.name != "cuda" && e.name != "cuda-ttable") continue;
    listed = true;
    EXPECT_EQ(e.available, have_gpu()) << e.name;
    if (!have_gpu()) {
      EXPECT_EQ(e.unavailable_reason.rfind("no NVIDIA GPU found (cudaGetDeviceCount: ", 0), 0u) << e.unavailable_reason;
    }
  }
  EXPECT_TRUE(listed);
  const CipherSpec spec = CipherSpec::parse("aes-128-ctr");
  if (have_gpu()) {
    EXPECT_EQ(engines().front().name, "cuda") << "auto prefers the GPU when there is one";
    EXPECT_EQ(resolve_engine("auto", spec, Direction::encrypt), "cuda");
    return;
  }
  EXPECT_NE(resolve_engine("auto", spec, Direction::encrypt), "cuda");
  try {
    encrypt(spec, CipherParams{bytes(16), bytes(16)}, bytes(32), "cuda");
    FAIL() << "expected EngineUnavailable";
  } catch (const EngineUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("no NVIDIA GPU found"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cuda::keccak_f1600_async(nullptr, 0, nullptr), EngineUnavailable);
}

class CudaModes : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaModes, RandomBatchesMatchRef) {
  SKIP_WITHOUT_GPU();
  const CipherSpec spec = CipherSpec::parse(GetParam());
  std::mt19937_64 rng(std::hash<std::string>{}(GetParam()));
  for (const char* engine : {"cuda", "cuda-ttable"}) {
    for (std::size_t count : {std::size_t{1}, std::size_t{13}, std::size_t{1000}, std::size_t{100000}}) {
      const std::size_t max_len = count >= 100000 ? 200 : 5000;
      for (std::size_t xts_unit : spec.mode == Mode::xts ? std::vector<std::size_t>{0, 512} : std::vector<std::size_t>{0}) {
        Batch b = make_batch(spec, count, max_len, rng);
        if (xts_unit)
          for (auto& in : b.ins) in.resize(std::max<std::size_t>(16, in.size() / 512 * 512 + (rng() % 2 ? 0 : 100)));
        for (std::size_t i = 0; i < b.jobs.size(); ++i) b.jobs[i].in = b.ins[i], b.outs[i].resize(b.ins[i].size() + 32), b.jobs[i].out = b.outs[i];
        const std::string what = std::string(engine) + " " + GetParam() + " x" + std::to_string(count) + " unit " + std::to_string(xts_unit);
        const Batch want = run_copy(b, spec, Direction::encrypt, "ref", xts_unit);
        const Batch got = run_copy(b, spec, Direction::encrypt, engine, xts_unit);
        expect_same(want, got, what + " encrypt");
        if (HasFatalFailure()) return;
        const Batch c = as_ciphertext(want, spec);
        expect_same(run_copy(c, spec, Direction::decrypt, "ref", xts_unit),
                    run_copy(c, spec, Direction::decrypt, engine, xts_unit), what + " decrypt");
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST_P(CudaModes, LargeJobsArePipelinedInSlices) {
  SKIP_WITHOUT_GPU();
  const CipherSpec spec = CipherSpec::parse(GetParam());
  ::setenv("CRYPTACCEL_CUDA_CHUNK_MIB", "2", 1);  // 9 MiB jobs: several slices over the staging slots
  std::mt19937_64 rng(7);
  Batch b = make_batch(spec, 3, 0, rng);
  const std::size_t sizes[] = {9 * 1024 * 1024 + 5, 3 * 1024 * 1024, 2 * 1024 * 1024 + 17};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t len = sizes[i];  // ECB/CBC pad; CTR, GCM and XTS take any length
    b.ins[i] = random_bytes(rng, len);
    b.outs[i].assign(len + 32, 0);
    b.jobs[i].in = b.ins[i], b.jobs[i].out = b.outs[i];
  }
  const Batch want = run_copy(b, spec, Direction::encrypt, "ref");
  expect_same(want, run_copy(b, spec, Direction::encrypt, "cuda"), GetParam() + " large encrypt");
  const Batch c = as_ciphertext(want, spec);
  expect_same(run_copy(c, spec, Direction::decrypt, "ref"), run_copy(c, spec, Direction::decrypt, "cuda"),
              GetParam() + " large decrypt");
  ::unsetenv("CRYPTACCEL_CUDA_CHUNK_MIB");
}

INSTANTIATE_TEST_SUITE_P(AllCiphers, CudaModes, ::testing::ValuesIn(cipher_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(CudaEngine, HashesMatchRef) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(3);
  for (const std::string& name : hash_names()) {
    const HashAlgorithm alg = parse_hash(name);
    const HashInfo& info = hash_info(alg);
    for (std::size_t count : {std::size_t{1}, std::size_t{1000}, std::size_t{100000}}) {
      std::vector<bytes> msgs(count), want(count), got(count);
      std::vector<HashJob> wj, gj;
      for (std::size_t i = 0; i < count; ++i) {
        msgs[i] = random_bytes(rng, i == 0 ? 100000 : rng() % (count > 1000 ? 300 : 3000));
        const std::size_t out = info.xof ? 1 + rng() % 200 : info.digest_size;
        want[i].assign(out, 0);
        got[i].assign(out, 0xEE);
      }
      for (std::size_t i = 0; i < count; ++i) wj.push_back(HashJob{msgs[i], want[i]}), gj.push_back(HashJob{msgs[i], got[i]});
      hash_batch(alg, wj, BatchOptions{"ref"});
      EXPECT_EQ(hash_batch(alg, gj, BatchOptions{"cuda"}).engine, "cuda");
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(got[i], want[i]) << name << " message " << i;
    }
  }
}

TEST(CudaEngine, KeccakBatchMatchesRef) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(4);
  std::vector<KeccakState> a(100000);
  for (auto& s : a)
    for (auto& lane : s) lane = rng();
  std::vector<KeccakState> b = a;
  EXPECT_EQ(keccak_f1600_batch(a, "ref"), "ref");
  EXPECT_EQ(keccak_f1600_batch(b, "cuda"), "cuda");
  EXPECT_EQ(a, b);
}

TEST(CudaEngine, BatchAboveTheMultiGpuMinimumMatchesCpu) {
  // ~320 MiB: over two devices' minimum (src/cuda/host/multi_device.hpp), so on a machine with several GPUs the batch is
  // spread over them; on one GPU the same code runs a single range.
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(5);
  const CipherSpec spec = CipherSpec::parse("aes-256-gcm");
  const Batch plain = make_batch(spec, 80, 8 << 20, rng);
  const Batch want = run_copy(plain, spec, Direction::encrypt, "cpu");
  const Batch got = run_copy(plain, spec, Direction::encrypt, "cuda");
  expect_same(want, got, "encrypt");
  const Batch cipher = as_ciphertext(want, spec);
  expect_same(run_copy(cipher, spec, Direction::decrypt, "cpu"), run_copy(cipher, spec, Direction::decrypt, "cuda"),
              "decrypt");
}

TEST(CudaEngine, StreamsThroughPinnedBatchBuffersMatchCpu) {
  // The streaming pipeline on cuda: from the second batch on, each pool buffer is page-locked for the GPU
  // (Engine::pin_host_buffer), so batches read into it (and output written into it) skip the executor's staging.
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(8);
  // GCM: counter mode in the GPU's batches, GHASH on the host (src/stream/gcm_offload.hpp).
  for (const char* name : {"aes-128-ctr", "aes-256-xts", "aes-128-cbc", "aes-192-ecb", "sm4-ctr", "aes-256-gcm",
                           "sm4-gcm"}) {
    SCOPED_TRACE(name);
    CipherSpec spec = CipherSpec::parse(name);
    CipherParams p;
    const bytes key = random_bytes(rng, spec.key_size()), iv = random_bytes(rng, spec.mode == Mode::gcm ? 12 : 16);
    const bytes aad = random_bytes(rng, 21);
    p.key = key;
    if (spec.mode != Mode::ecb) p.iv = iv;
    if (spec.mode == Mode::gcm) p.aad = aad;
    ASSERT_TRUE(streamable(spec, p.xts_unit, "cuda"));
    if (spec.mode == Mode::xts) p.xts_unit = 4096;
    const std::size_t len = spec.mode == Mode::ctr ? (3 << 20) + 5 : 3 << 20;
    const bytes plain = random_bytes(rng, len);
    const bytes want = encrypt(spec, p, plain, "cpu");
    StreamOptions o;
    o.engine = "cuda", o.chunk_bytes = 64 << 10, o.chunks_per_batch = 4, o.pipeline_buffers = 3;  // 12 batches
    for (Direction dir : {Direction::encrypt, Direction::decrypt}) {
      const bytes& in = dir == Direction::encrypt ? plain : want;
      const bytes& expected = dir == Direction::encrypt ? want : plain;
      for (bool from_memory : {false, true}) {
        CipherStream stream(spec, dir, p, o);
        bytes got;
        std::size_t pinned_batches = 0, taken = 0;
        const StreamSink sink = [&](bytes_view out) {
          pinned_batches += cuda::host_pins().covers(out.data(), out.size());
          got.insert(got.end(), out.begin(), out.end());
        };
        if (from_memory) {
          stream.pipe(bytes_view(in), sink);
        } else {
          stream.pipe([&](mutable_bytes buf) {
            const std::size_t n = std::min(buf.size(), in.size() - taken);
            std::memcpy(buf.data(), in.data() + taken, n);
            taken += n;
            return n;
          }, sink);
        }
        EXPECT_EQ(stream.engine_used(), "cuda");
        ASSERT_EQ(got.size(), expected.size()) << (from_memory ? "from memory" : "from a reader");
        EXPECT_TRUE(got == expected) << (from_memory ? "from memory" : "from a reader");
        EXPECT_GT(pinned_batches, 0u) << "no batch buffer was page-locked";
      }
    }
    if (spec.mode == Mode::gcm) {  // a flipped bit anywhere fails at the end
      bytes forged = want;
      forged[forged.size() / 2] ^= 0x10;
      CipherStream stream(spec, Direction::decrypt, p, o);
      EXPECT_THROW(stream.pipe(bytes_view(forged), [](bytes_view) {}), AuthenticationFailed);
    }
  }
}

TEST(CudaEngine, DeviceListComesFromTheEnvironment) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(6);
  const CipherSpec spec = CipherSpec::parse("aes-128-ctr");
  const Batch plain = make_batch(spec, 50, 5000, rng);
  const Batch want = run_copy(plain, spec, Direction::encrypt, "ref");
  ::setenv("CRYPTACCEL_CUDA_DEVICES", "0", 1);
  expect_same(want, run_copy(plain, spec, Direction::encrypt, "cuda"), "CRYPTACCEL_CUDA_DEVICES=0");
  ::setenv("CRYPTACCEL_CUDA_DEVICES", "4096", 1);
  try {
    run_copy(plain, spec, Direction::encrypt, "cuda");
    ADD_FAILURE() << "a device index that does not exist was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("CRYPTACCEL_CUDA_DEVICES=4096"), std::string::npos) << e.what();
  }
  ::unsetenv("CRYPTACCEL_CUDA_DEVICES");
}

// ---- device-resident API ----------------------------------------------------------------------------------------

struct DeviceMemory {
  void* p = nullptr;
  explicit DeviceMemory(std::size_t n) { EXPECT_EQ(cudaMalloc(&p, std::max<std::size_t>(n, 1)), cudaSuccess); }
  ~DeviceMemory() { cudaFree(p); }
  template <class T = std::uint8_t>
  T* get() const { return static_cast<T*>(p); }
};

TEST(CudaDeviceApi, InPlaceJobsOnAStreamMatchRef) {
  SKIP_WITHOUT_GPU();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  std::mt19937_64 rng(5);
  for (const std::string& name : cipher_names()) {
    CipherSpec spec = CipherSpec::parse(name);
    spec.padding = false;
    for (cuda::AesKernel kernel : {cuda::AesKernel::bitsliced, cuda::AesKernel::ttable}) {
      Batch b = make_batch(spec, 50, 20000, rng);
      const Batch want = run_copy(b, spec, Direction::encrypt, "ref");
      // Upload inputs, encrypt in place, download.
      std::vector<std::unique_ptr<DeviceMemory>> data, tags;
      std::vector<cuda::DeviceCipherJob> jobs;
      for (std::size_t i = 0; i < b.jobs.size(); ++i) {
        data.push_back(std::make_unique<DeviceMemory>(b.ins[i].size()));
        tags.push_back(std::make_unique<DeviceMemory>(16));
        ASSERT_EQ(cudaMemcpy(data[i]->p, b.ins[i].data(), b.ins[i].size(), cudaMemcpyHostToDevice), cudaSuccess);
        cuda::DeviceCipherJob j;
        j.key = b.jobs[i].key, j.iv = b.ivs[i], j.in = data[i]->p, j.out = data[i]->p, j.len = b.ins[i].size();
        j.aad = b.aads[i], j.tag = tags[i]->p, j.tag_len = b.tags[i].size();
        jobs.push_back(j);
      }
      cuda::DeviceOptions o;
      o.aes_kernel = kernel;
      cuda::crypt_async(spec, Direction::encrypt, jobs, stream, o);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      for (std::size_t i = 0; i < b.jobs.size(); ++i) {
        bytes out(b.ins[i].size()), tag(b.tags[i].size());
        ASSERT_EQ(cudaMemcpy(out.data(), data[i]->p, out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(tag.data(), tags[i]->p, tag.size(), cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(want.jobs[i].status, JobStatus::ok);
        ASSERT_TRUE(std::equal(out.begin(), out.end(), want.jobs[i].out.begin())) << name << " job " << i;
        if (spec.mode == Mode::gcm) {
          ASSERT_EQ(tag, want.tags[i]) << name << " job " << i;
        }
      }
      // Decrypt in place again; GCM: one tampered tag is reported and its output zeroed.
      DeviceMemory oks(sizeof(int) * jobs.size());
      for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].ok = oks.get<int>() + i;
      if (spec.mode == Mode::gcm) {
        std::uint8_t bad = static_cast<std::uint8_t>(want.tags[3][0] ^ 1);
        ASSERT_EQ(cudaMemcpy(tags[3]->p, &bad, 1, cudaMemcpyHostToDevice), cudaSuccess);
      }
      cuda::crypt_async(spec, Direction::decrypt, jobs, stream, o);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      std::vector<int> ok(jobs.size());
      ASSERT_EQ(cudaMemcpy(ok.data(), oks.p, sizeof(int) * ok.size(), cudaMemcpyDeviceToHost), cudaSuccess);
      for (std::size_t i = 0; i < b.jobs.size(); ++i) {
        bytes back(b.ins[i].size());
        ASSERT_EQ(cudaMemcpy(back.data(), data[i]->p, back.size(), cudaMemcpyDeviceToHost), cudaSuccess);
        if (spec.mode == Mode::gcm && i == 3) {
          EXPECT_EQ(ok[i], 0);
          EXPECT_TRUE(std::all_of(back.begin(), back.end(), [](std::uint8_t v) { return v == 0; }));
          continue;
        }
        if (spec.mode == Mode::gcm) {
          EXPECT_EQ(ok[i], 1) << name << " job " << i;
        }
        ASSERT_EQ(back, b.ins[i]) << name << " job " << i;
      }
      if (spec.cipher == BlockCipher::sm4) break;  // the AES kernel choice does not apply
    }
  }
  cudaStreamDestroy(stream);
}

TEST(CudaDeviceApi, RejectsPaddingAndBadSizesBeforeQueuingAnything) {
  SKIP_WITHOUT_GPU();
  const bytes key(16, 1), iv(16, 2);
  cuda::DeviceCipherJob j;
  j.key = key, j.iv = iv, j.len = 17;
  DeviceMemory d(32);
  j.in = j.out = d.p;
  EXPECT_THROW(cuda::crypt_async(CipherSpec::parse("aes-128-cbc"), Direction::encrypt, {&j, 1}, nullptr), InvalidArgument);
  CipherSpec nopad = CipherSpec::parse("aes-128-cbc");
  nopad.padding = false;
  EXPECT_THROW(cuda::crypt_async(nopad, Direction::encrypt, {&j, 1}, nullptr), InvalidArgument);  // 17 bytes
  j.key = bytes_view(key).first(15);
  j.len = 16;
  EXPECT_THROW(cuda::crypt_async(nopad, Direction::encrypt, {&j, 1}, nullptr), InvalidArgument);
}

TEST(CudaDeviceApi, HostMemoryIsRejectedAndTheCurrentDeviceKept) {
  SKIP_WITHOUT_GPU();
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  const int last = count - 1;  // another device than 0 when there are several
  ASSERT_EQ(cudaSetDevice(last), cudaSuccess);
  const bytes key(16, 1), iv(16, 2);
  bytes host(32, 0);
  cuda::DeviceCipherJob j;
  j.key = key, j.iv = iv, j.len = 32, j.in = j.out = host.data();
  CipherSpec ctr = CipherSpec::parse("aes-128-ctr");
  try {
    cuda::crypt_async(ctr, Direction::encrypt, {&j, 1}, nullptr);
    ADD_FAILURE() << "host memory accepted as device memory";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("not CUDA device memory"), std::string::npos) << e.what();
  }
  std::vector<std::uint64_t> states(25);
  EXPECT_THROW(cuda::keccak_f1600_async(states.data(), 1, nullptr), InvalidArgument);
  // A real call on device 0's memory leaves device `last` current.
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  DeviceMemory d(32);
  ASSERT_EQ(cudaSetDevice(last), cudaSuccess);
  j.in = j.out = d.p;
  cuda::crypt_async(ctr, Direction::encrypt, {&j, 1}, nullptr);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, last);
  bytes flag(4, 0xFF);
  cuda::copy_to_host(flag.data(), d.p, 4, nullptr);  // stream-ordered read back
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
}

TEST(CudaDeviceApi, HashAndKeccakOnDeviceBuffersMatchRef) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(6);
  const std::size_t count = 50000;
  std::vector<std::uint64_t> offsets{0};
  bytes data;
  for (std::size_t i = 0; i < count; ++i) {
    const bytes m = random_bytes(rng, rng() % 200);
    data.insert(data.end(), m.begin(), m.end());
    offsets.push_back(data.size());
  }
  DeviceMemory d_data(data.size()), d_off(8 * offsets.size());
  ASSERT_EQ(cudaMemcpy(d_data.p, data.data(), data.size(), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d_off.p, offsets.data(), 8 * offsets.size(), cudaMemcpyHostToDevice), cudaSuccess);
  for (const std::string& name : hash_names()) {
    const HashAlgorithm alg = parse_hash(name);
    const std::size_t dlen = hash_info(alg).xof ? 64 : hash_info(alg).digest_size;
    DeviceMemory d_dig(dlen * count);
    cuda::hash_async(alg, d_data.p, d_off.get<std::uint64_t>(), count, d_dig.p, dlen, nullptr);
    bytes got(dlen * count);
    ASSERT_EQ(cudaMemcpy(got.data(), d_dig.p, got.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    for (std::size_t i = 0; i < count; i += 997) {
      const bytes want = hash(alg, bytes_view(data.data() + offsets[i], offsets[i + 1] - offsets[i]), dlen, "ref");
      ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + i * dlen)) << name << " message " << i;
    }
  }
  std::vector<KeccakState> states(4096), want;
  for (auto& s : states)
    for (auto& lane : s) lane = rng();
  want = states;
  keccak_f1600_batch(want, "ref");
  DeviceMemory d_states(sizeof(KeccakState) * states.size());
  ASSERT_EQ(cudaMemcpy(d_states.p, states.data(), sizeof(KeccakState) * states.size(), cudaMemcpyHostToDevice), cudaSuccess);
  cuda::keccak_f1600_async(d_states.get<std::uint64_t>(), states.size(), nullptr);
  ASSERT_EQ(cudaMemcpy(states.data(), d_states.p, sizeof(KeccakState) * states.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(states, want);
}

}  // namespace
}  // namespace cryptaccel

// Multi-GPU batches (src/cuda/host/multi_device.hpp), without a GPU: the weighted split, the per-range threads, the
// device list of CRYPTACCEL_CUDA_DEVICES, and whole batches (ciphers, hashes, Keccak-f) spread over three
// EmulatedDevices against the ref engine, including a device that fails. RSA tasks over several devices are tested in
// test_rsa_cuda_plan.cpp, next to their task builders.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "algo/keccak.hpp"
#include "api/job_validation.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cuda/host/emulated_device.hpp"
#include "cuda/host/multi_device.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using test::random_bytes;

// ---- split_by_weight ----------------------------------------------------------------------------------------------

std::uint64_t range_weight(const std::vector<std::uint64_t>& w, std::size_t b, std::size_t e) {
  return std::accumulate(w.begin() + static_cast<std::ptrdiff_t>(b), w.begin() + static_cast<std::ptrdiff_t>(e),
                         std::uint64_t{0});
}

TEST(CudaMultiDeviceSplit, RangesCoverEveryItemInOrderAndBalance) {
  std::mt19937_64 rng(71);
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = 1 + rng() % 200;
    std::vector<std::uint64_t> w(n);
    for (auto& x : w) x = rng() % 4 == 0 ? 0 : rng() % (trial % 3 == 0 ? 1000000 : 1000);
    const std::size_t parts = 1 + rng() % 8;
    const std::uint64_t min_weight = rng() % 3 == 0 ? 1 : rng() % 50000;
    const auto b = cuda::split_by_weight(w, parts, min_weight);
    SCOPED_TRACE("trial " + std::to_string(trial));
    ASSERT_GE(b.size(), 2u);
    EXPECT_EQ(b.front(), 0u);
    EXPECT_EQ(b.back(), n);
    for (std::size_t i = 1; i < b.size(); ++i) ASSERT_LT(b[i - 1], b[i]) << "empty or reversed range";
    const std::size_t k = b.size() - 1;
    EXPECT_LE(k, parts);
    const std::uint64_t total = range_weight(w, 0, n);
    const std::uint64_t heaviest = *std::max_element(w.begin(), w.end());
    if (k > 1) {
      EXPECT_GE(total / std::max<std::uint64_t>(min_weight, 1), k) << "split below the minimum";
    }
    for (std::size_t r = 0; r < k; ++r)  // no range more than its share by a whole item
      EXPECT_LE(range_weight(w, b[r], b[r + 1]), total / k + heaviest) << "range " << r;
  }
}

TEST(CudaMultiDeviceSplit, EdgeCases) {
  using V = std::vector<std::size_t>;
  const std::vector<std::uint64_t> none;
  EXPECT_EQ(cuda::split_by_weight(none, 4, 1), V{0});
  const std::vector<std::uint64_t> four(4, 10);
  EXPECT_EQ(cuda::split_by_weight(four, 1, 1), (V{0, 4}));
  EXPECT_EQ(cuda::split_by_weight(four, 0, 1), (V{0, 4}));
  EXPECT_EQ(cuda::split_by_weight(four, 2, 1), (V{0, 2, 4}));
  EXPECT_EQ(cuda::split_by_weight(four, 4, 1), (V{0, 1, 2, 3, 4}));
  EXPECT_EQ(cuda::split_by_weight(four, 8, 1), (V{0, 1, 2, 3, 4})) << "never more ranges than items";
  EXPECT_EQ(cuda::split_by_weight(four, 4, 20), (V{0, 2, 4})) << "40 units at least 20 per device: two ranges";
  EXPECT_EQ(cuda::split_by_weight(four, 4, 41), (V{0, 4})) << "below the minimum: one device";
  const std::vector<std::uint64_t> zeros(5, 0);
  EXPECT_EQ(cuda::split_by_weight(zeros, 3, 1), (V{0, 5})) << "nothing to do: one range";
  // One heavy item covers several shares: fewer ranges, none empty.
  const std::vector<std::uint64_t> heavy{1, 1000, 1, 1};
  const auto b = cuda::split_by_weight(heavy, 4, 1);
  EXPECT_EQ(b, (V{0, 2, 4}));
}

// ---- run_ranges, device_order, host threads --------------------------------------------------------------------

TEST(CudaMultiDeviceRun, EveryRangeOnceOnItsOwnThread) {
  const std::vector<std::size_t> bounds{0, 3, 4, 9, 10};
  const std::thread::id main_thread = std::this_thread::get_id();
  std::mutex m;
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> calls;
  std::set<std::thread::id> threads;
  cuda::run_ranges(bounds, [&](std::size_t r, std::size_t b, std::size_t e) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> lock(m);
    calls.emplace_back(r, b, e);
    threads.insert(std::this_thread::get_id());
    if (r == 0) {
      EXPECT_EQ(std::this_thread::get_id(), main_thread);
    }
  });
  std::sort(calls.begin(), calls.end());
  ASSERT_EQ(calls.size(), 4u);
  for (std::size_t r = 0; r < 4; ++r) EXPECT_EQ(calls[r], std::make_tuple(r, bounds[r], bounds[r + 1]));
  EXPECT_EQ(threads.size(), 4u);
}

TEST(CudaMultiDeviceRun, AnErrorIsRethrownAfterTheOtherRangesFinish) {
  const std::vector<std::size_t> bounds{0, 1, 2, 3};
  std::atomic<int> finished{0};
  EXPECT_THROW(cuda::run_ranges(bounds,
                                [&](std::size_t r, std::size_t, std::size_t) {
                                  if (r == 1) throw std::runtime_error("device 1 failed");
                                  std::this_thread::sleep_for(std::chrono::milliseconds(30));
                                  ++finished;
                                }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 2);
  int calls = 0;
  cuda::run_ranges(std::vector<std::size_t>{0}, [&](std::size_t, std::size_t, std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0) << "no range, no call";
}

TEST(CudaMultiDeviceOrder, CurrentDeviceFirstOrTheListedOnes) {
  using V = std::vector<int>;
  EXPECT_EQ(cuda::device_order(1, 0, nullptr), V{0});
  EXPECT_EQ(cuda::device_order(4, 2, nullptr), (V{2, 0, 1, 3}));
  EXPECT_EQ(cuda::device_order(3, 0, ""), (V{0, 1, 2}));
  EXPECT_EQ(cuda::device_order(4, 0, "3"), V{3});
  EXPECT_EQ(cuda::device_order(4, 0, "1,0"), (V{1, 0}));
  for (const char* bad : {"4", "1,1", "a", "1,", ",1", "-1", "1 ,2", "0x1", "9999999"}) {
    try {
      cuda::device_order(4, 0, bad);
      ADD_FAILURE() << "accepted CRYPTACCEL_CUDA_DEVICES=" << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("CRYPTACCEL_CUDA_DEVICES=" + std::string(bad)), std::string::npos)
          << e.what();
    }
  }
}

TEST(CudaMultiDeviceOrder, HostThreadsShared) {
  EXPECT_EQ(cuda::host_threads_per_device(16, 4), 4u);
  EXPECT_EQ(cuda::host_threads_per_device(3, 4), 1u);
  EXPECT_EQ(cuda::host_threads_per_device(5, 1), 5u);
  EXPECT_GE(cuda::host_threads_per_device(0, 2), 1u);
}

// ---- batches over several emulated devices -----------------------------------------------------------------------

/// A Device that forwards to an EmulatedDevice but fails its first cipher kernel: a GPU that faults mid-batch.
class FailingDevice final : public cuda::Device {
 public:
  std::size_t stream_count() const override { return inner_.stream_count(); }
  cuda::Stream stream(std::size_t i) override { return inner_.stream(i); }
  std::uint8_t* alloc(std::size_t n, cuda::Stream s) override { return inner_.alloc(n, s); }
  void free(void* p, cuda::Stream s) override { inner_.free(p, s); }
  std::uint8_t* alloc_pinned(std::size_t n) override { return inner_.alloc_pinned(n); }
  void release_pinned(void* p, cuda::Stream s, std::size_t from, std::size_t len) override {
    inner_.release_pinned(p, s, from, len);
  }
  void copy_to_device(void* d, const void* s, std::size_t n, cuda::Stream st) override { inner_.copy_to_device(d, s, n, st); }
  void copy_to_host(void* d, const void* s, std::size_t n, cuda::Stream st) override { inner_.copy_to_host(d, s, n, st); }
  void zero(void* d, std::size_t n, cuda::Stream s) override { inner_.zero(d, n, s); }
  void cipher(cuda::CipherOp, const cuda::CipherArgs&, std::uint64_t, cuda::Stream) override {
    throw Error("CUDA error in cipher kernel: an illegal memory access was encountered (injected by the test)");
  }
  void hash(const cuda::HashArgs& a, cuda::Stream s) override { inner_.hash(a, s); }
  void keccak(std::uint64_t* st, std::uint64_t n, cuda::Stream s) override { inner_.keccak(st, n, s); }
  void rsa(const cuda::RsaModexpArgs& a, std::size_t w, cuda::RsaExpKind k, cuda::RsaKernel v, cuda::Stream s) override {
    inner_.rsa(a, w, k, v, s);
  }
  void synchronize(cuda::Stream s) override { inner_.synchronize(s); }
  void wait(cuda::Stream a, cuda::Stream b) override { inner_.wait(a, b); }
  const algo::Gf128* xts_alpha_pow() override { return inner_.xts_alpha_pow(); }
  std::size_t live_allocations() const { return inner_.live_allocations(); }

 private:
  cuda::EmulatedDevice inner_;
};

/// Cipher jobs owning their buffers.
struct Jobs {
  std::vector<bytes> keys, ivs, ins, outs, aads, tags;
  std::vector<CipherJob> jobs;

  Jobs(const CipherSpec& spec, const std::vector<std::size_t>& lengths, std::mt19937_64& rng) {
    const std::size_t n = lengths.size();
    for (std::size_t i = 0; i < n; ++i) {
      keys.push_back(random_bytes(rng, spec.key_size()));
      ivs.push_back(random_bytes(rng, spec.mode == Mode::gcm ? 12 : spec.iv_size()));
      ins.push_back(random_bytes(rng, lengths[i]));
      outs.emplace_back(lengths[i] + 32, 0xEE);
      aads.push_back(spec.mode == Mode::gcm ? random_bytes(rng, i % 40) : bytes());
      tags.emplace_back(spec.mode == Mode::gcm ? 16 : 0, 0);
    }
    for (std::size_t i = 0; i < n; ++i) jobs.push_back(CipherJob{keys[i], ivs[i], ins[i], outs[i], aads[i], tags[i]});
  }
  Jobs(const Jobs&) = delete;
  /// The outputs of `enc` (finished) as this batch's inputs, tags copied, statuses reset.
  void take_ciphertexts(const Jobs& enc) {
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      ins[i].assign(enc.outs[i].begin(), enc.outs[i].begin() + enc.jobs[i].out_len);
      tags[i] = enc.tags[i];
      outs[i].assign(ins[i].size() + 32, 0xEE);
      jobs[i] = CipherJob{keys[i] = enc.keys[i], ivs[i] = enc.ivs[i], ins[i], outs[i], aads[i] = enc.aads[i], tags[i]};
    }
  }
  void validate(const CipherSpec& spec, Direction dir) {
    for (CipherJob& job : jobs) validate_job(spec, dir, 0, job);
  }
};

void expect_same_results(const Jobs& want, const Jobs& got, const std::string& what) {
  for (std::size_t i = 0; i < want.jobs.size(); ++i) {
    const CipherJob& w = want.jobs[i];
    const CipherJob& g = got.jobs[i];
    ASSERT_EQ(static_cast<int>(g.status), static_cast<int>(w.status)) << what << " job " << i << ": " << g.error;
    if (w.status != JobStatus::ok) continue;
    ASSERT_EQ(g.out_len, w.out_len) << what << " job " << i;
    ASSERT_TRUE(std::equal(w.out.begin(), w.out.begin() + w.out_len, g.out.begin())) << what << " job " << i;
    ASSERT_EQ(got.tags[i], want.tags[i]) << what << " job " << i << " tag";
  }
}

/// Three emulated devices as a batch's device list.
struct ThreeDevices {
  cuda::EmulatedDevice d[3];
  std::vector<cuda::Device*> list{&d[0], &d[1], &d[2]};
  cuda::DeviceSet set() { return cuda::DeviceSet::of(list); }
};

cuda::ExecOptions small_chunks() {
  cuda::ExecOptions o;
  o.limits.max_bytes = 64 * 1024;
  o.host_threads = 2;
  return o;
}

/// Validates both batches, runs `want` on ref and `got` over `devs` (split with a 16 KiB minimum), and compares.
void run_ref_and_devices(const CipherSpec& spec, Direction dir, Jobs& want, Jobs& got, ThreeDevices& devs) {
  want.validate(spec, dir);
  got.validate(spec, dir);
  run_batch(spec, dir, want.jobs, BatchOptions{"ref"});
  cuda::run_cipher_batch(devs.set(), spec, dir, got.jobs, small_chunks(), 16 * 1024);
  expect_same_results(want, got, dir == Direction::encrypt ? "encrypt" : "decrypt");
}

TEST(CudaMultiDeviceBatch, CipherBatchesSpreadOverDevicesMatchRef) {
  std::mt19937_64 rng(72);
  for (const char* name : {"aes-256-gcm", "aes-128-cbc", "aes-128-xts", "sm4-ctr", "aes-192-ecb"}) {
    SCOPED_TRACE(name);
    const CipherSpec spec = CipherSpec::parse(name);
    std::vector<std::size_t> lengths;
    for (int i = 0; i < 120; ++i) lengths.push_back(16 + rng() % 3000);
    lengths[5] = 70 * 1024 + 3;  // cut into slices on its device (below a third of the batch: three ranges)
    std::mt19937_64 same_inputs = rng;
    Jobs want(spec, lengths, rng), got(spec, lengths, same_inputs);
    ThreeDevices devs;
    run_ref_and_devices(spec, Direction::encrypt, want, got, devs);
    const cuda::CipherOp op = spec.mode == Mode::gcm ? cuda::CipherOp::gcm_ctr
                              : spec.mode == Mode::cbc ? cuda::CipherOp::cbc_encrypt
                              : spec.mode == Mode::xts ? cuda::CipherOp::xts
                              : spec.mode == Mode::ctr ? cuda::CipherOp::ctr
                                                       : cuda::CipherOp::ecb;
    for (const auto& d : devs.d) {
      EXPECT_GT(d.launches(op), 0u) << "a device got no work";
      EXPECT_EQ(d.live_allocations(), 0u);
    }

    // Decryption, with a bad tag or bad padding in some jobs: those fail alone.
    Jobs dwant(spec, lengths, rng), dgot(spec, lengths, rng);
    dwant.take_ciphertexts(want);
    dgot.take_ciphertexts(want);
    for (std::size_t i = 3; i < lengths.size(); i += 7) {
      if (spec.mode == Mode::gcm) dwant.tags[i][0] ^= 1, dgot.tags[i][0] ^= 1;
      if (spec.pads()) dwant.ins[i].back() ^= 0x40, dgot.ins[i].back() ^= 0x40;
    }
    ThreeDevices ddevs;
    run_ref_and_devices(spec, Direction::decrypt, dwant, dgot, ddevs);
    if (spec.mode == Mode::gcm) {
      EXPECT_EQ(dgot.jobs[3].status, JobStatus::auth_failed);
    }
  }
}

TEST(CudaMultiDeviceBatch, SmallBatchStaysOnTheFirstDevice) {
  std::mt19937_64 rng(73);
  const CipherSpec spec = CipherSpec::parse("aes-128-ctr");
  Jobs jobs(spec, std::vector<std::size_t>(10, 1000), rng);
  jobs.validate(spec, Direction::encrypt);
  ThreeDevices devs;
  std::set<std::size_t> opened;  // devices are opened on first use: the others never are
  std::mutex m;
  const cuda::DeviceSet counting{3, [&](std::size_t i) -> cuda::Device& {
                                   std::lock_guard<std::mutex> lock(m);
                                   opened.insert(i);
                                   return devs.d[i];
                                 }};
  cuda::run_cipher_batch(counting, spec, Direction::encrypt, jobs.jobs, small_chunks());  // default minimum
  EXPECT_EQ(opened, std::set<std::size_t>{0});
  EXPECT_GT(devs.d[0].launches(cuda::CipherOp::ctr), 0u);
  for (const CipherJob& j : jobs.jobs) EXPECT_EQ(j.status, JobStatus::ok) << j.error;
}

TEST(CudaMultiDeviceBatch, AFailingDeviceFailsTheBatchAndFreesEverything) {
  std::mt19937_64 rng(74);
  const CipherSpec spec = CipherSpec::parse("aes-256-gcm");
  Jobs jobs(spec, std::vector<std::size_t>(30, 2000), rng);
  jobs.validate(spec, Direction::encrypt);
  cuda::EmulatedDevice good0, good2;
  FailingDevice bad;
  std::vector<cuda::Device*> list{&good0, &bad, &good2};
  try {
    cuda::run_cipher_batch(cuda::DeviceSet::of(list), spec, Direction::encrypt, jobs.jobs, small_chunks(), 1024);
    ADD_FAILURE() << "the device's error was swallowed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("injected by the test"), std::string::npos) << e.what();
  }
  EXPECT_EQ(good0.live_allocations() + bad.live_allocations() + good2.live_allocations(), 0u);
  // The healthy devices finished their ranges: the first and last thirds are done.
  EXPECT_EQ(jobs.jobs.front().status, JobStatus::ok);
  EXPECT_EQ(jobs.jobs.back().status, JobStatus::ok);
}

TEST(CudaMultiDeviceBatch, HashAndKeccakBatchesSpreadOverDevicesMatchRef) {
  std::mt19937_64 rng(75);
  for (const char* name : {"sha256", "sha3_512", "shake_128", "sm3"}) {
    SCOPED_TRACE(name);
    const HashAlgorithm alg = parse_hash(name);
    const HashInfo& info = hash_info(alg);
    std::vector<bytes> msgs, want, got;
    for (int i = 0; i < 90; ++i) {
      msgs.push_back(random_bytes(rng, i == 10 ? 70000 : rng() % 900));
      const std::size_t out = info.xof ? 1 + rng() % 100 : info.digest_size;
      want.emplace_back(out, 0);
      got.emplace_back(out, 0xEE);
    }
    std::vector<HashJob> wj, gj;
    for (std::size_t i = 0; i < msgs.size(); ++i) wj.push_back(HashJob{msgs[i], want[i]}), gj.push_back(HashJob{msgs[i], got[i]});
    hash_batch(alg, wj, BatchOptions{"ref"});
    ThreeDevices devs;
    cuda::run_hash_batch(devs.set(), alg, gj, small_chunks(), 8 * 1024);
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      ASSERT_EQ(gj[i].status, JobStatus::ok);
      ASSERT_EQ(got[i], want[i]) << "message " << i;
    }
    for (const auto& d : devs.d) EXPECT_GT(d.hash_launches(), 0u) << "a device got no work";
  }

  std::vector<KeccakState> states(700), expect;
  for (auto& s : states)
    for (auto& lane : s) lane = rng();
  expect = states;
  for (auto& s : expect) algo::keccak_f1600(s.data());
  ThreeDevices devs;
  cuda::run_keccak_batch(devs.set(), states, small_chunks(), 200 * 100);
  EXPECT_EQ(states, expect);
  for (const auto& d : devs.d) EXPECT_GT(d.keccak_launches(), 0u) << "a device got no work";
}

}  // namespace
}  // namespace cryptaccel

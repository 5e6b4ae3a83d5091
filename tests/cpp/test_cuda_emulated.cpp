// The cuda engine's host logic and kernel bodies, run on the host through EmulatedDevice (no GPU needed): every
// cipher mode, direction and AES implementation (bitsliced, ttable; SM4) against the ref engine on random batches,
// with small chunk limits so that jobs are cut into slices and pipelined through several staging slots; failure
// paths (GCM tags, PKCS#7 padding); device-resident jobs; batched hashes and Keccak-f[1600]; and the pieces the
// kernels are built from (XTS α powers, the T-table cipher, carry-less GHASH multiplication, work-unit lookup).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "algo/aes_key_schedule.hpp"
#include "algo/block_modes.hpp"
#include "algo/ghash.hpp"
#include "algo/keccak.hpp"
#include "api/job_validation.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"
#include "cuda/kernels/aes_ttable.hpp"
#include "cuda/host/emulated_device.hpp"
#include "cuda/kernels/gf128_ctmul.hpp"
#include "cuda/host/host_pins.hpp"
#include "cuda/host/executor.hpp"
#include "cuda/kernels/thread_ops.hpp"
#include "cuda/kernels/xts_math.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using cuda::CipherImpl;
using test::random_bytes;

/// A batch whose jobs own their buffers.
struct Batch {
  std::vector<bytes> keys, ivs, ins, outs, aads, tags;
  std::vector<CipherJob> jobs;
};

/// Random jobs of the given input lengths. Every third job shares key buffer 0 (the engine dedups keys by address);
/// every fifth runs in place.
Batch make_batch(const CipherSpec& spec, Direction dir, const std::vector<std::size_t>& lengths, std::mt19937_64& rng) {
  Batch b;
  const std::size_t n = lengths.size();
  b.keys.resize(n), b.ivs.resize(n), b.ins.resize(n), b.outs.resize(n), b.aads.resize(n), b.tags.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    b.keys[i] = random_bytes(rng, spec.key_size());
    std::size_t iv_len = spec.iv_size();
    if (spec.mode == Mode::gcm) iv_len = std::vector<std::size_t>{12, 12, 12, 1, 16, 60}[rng() % 6];
    b.ivs[i] = random_bytes(rng, iv_len);
    b.ins[i] = random_bytes(rng, lengths[i]);
    b.outs[i].assign(lengths[i] + 32, 0xEE);
    if (spec.mode == Mode::gcm) {
      b.aads[i] = random_bytes(rng, rng() % 3 == 0 ? 0 : rng() % 70);
      b.tags[i] = random_bytes(rng, std::vector<std::size_t>{16, 16, 12, 4}[rng() % 4]);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const bool in_place = i % 5 == 4;
    if (in_place) b.outs[i] = b.ins[i], b.outs[i].resize(lengths[i] + 32);
    CipherJob job;
    job.key = i % 3 == 0 ? bytes_view(b.keys[0]) : bytes_view(b.keys[i]);
    job.iv = b.ivs[i];
    job.in = in_place ? bytes_view(b.outs[i].data(), lengths[i]) : bytes_view(b.ins[i]);
    job.out = b.outs[i];
    job.aad = b.aads[i];
    job.tag = b.tags[i];
    b.jobs.push_back(std::move(job));
  }
  (void)dir;
  return b;
}

/// Copies a batch, re-pointing every span into the copy.
Batch clone(const Batch& src) {
  Batch b = src;
  for (std::size_t i = 0; i < b.jobs.size(); ++i) {
    const CipherJob& s = src.jobs[i];
    CipherJob& d = b.jobs[i];
    const bool shared_key = s.key.data() == src.keys[0].data();
    d.key = shared_key ? bytes_view(b.keys[0]) : bytes_view(b.keys[i]);
    d.iv = b.ivs[i];
    const bool in_place = s.in.data() == src.outs[i].data();
    d.in = in_place ? bytes_view(b.outs[i].data(), s.in.size()) : bytes_view(b.ins[i]);
    d.out = b.outs[i];
    d.aad = b.aads[i];
    d.tag = b.tags[i];
  }
  return b;
}

void validate(const CipherSpec& spec, Direction dir, std::size_t xts_unit, Batch& b) {
  for (CipherJob& job : b.jobs) validate_job(spec, dir, xts_unit, job);
}

void run_ref(const CipherSpec& spec, Direction dir, std::size_t xts_unit, Batch& b) {
  BatchOptions o;
  o.engine = "ref";
  o.xts_unit = xts_unit;
  o.threads = 1;
  run_batch(spec, dir, b.jobs, o);
}

/// Records every job's input and output as page-locked (host_pins.hpp) while it lives, so that the executor copies
/// them to and from the device directly instead of through staging.
struct PinJobBuffers {
  std::vector<const void*> pinned;
  explicit PinJobBuffers(std::span<const CipherJob> jobs) {
    for (const CipherJob& job : jobs)
      for (bytes_view v : {job.in, bytes_view(job.out)})
        if (!v.empty() && !cuda::host_pins().covers(v.data(), v.size())) {
          cuda::host_pins().add(v.data(), v.size());
          pinned.push_back(v.data());
        }
  }
  ~PinJobBuffers() {
    for (const void* p : pinned) cuda::host_pins().remove(p);
  }
};

enum class Buffers { staged, pinned };

void run_emulated(const CipherSpec& spec, Direction dir, CipherImpl impl, std::size_t xts_unit, Batch& b,
                  std::uint64_t chunk_bytes = 64 * 1024, std::size_t slots = 3, Buffers buffers = Buffers::staged) {
  validate(spec, dir, xts_unit, b);
  const PinJobBuffers pins(buffers == Buffers::pinned ? std::span<const CipherJob>(b.jobs) : std::span<const CipherJob>());
  cuda::EmulatedDevice dev;
  cuda::ExecOptions o;
  o.impl = impl;
  o.xts_unit = xts_unit;
  o.limits.max_bytes = chunk_bytes;
  o.limits.max_jobs = 7;  // many chunks of whole jobs too
  o.slots = slots;
  o.host_threads = 2;
  cuda::run_cipher_batch(dev, spec, dir, b.jobs, o);
  EXPECT_EQ(dev.live_allocations(), 0u);
}

void expect_same(const Batch& want, const Batch& got, const std::string& what) {
  ASSERT_EQ(want.jobs.size(), got.jobs.size());
  for (std::size_t i = 0; i < want.jobs.size(); ++i) {
    const CipherJob& w = want.jobs[i];
    const CipherJob& g = got.jobs[i];
    const std::string where = what + " job " + std::to_string(i) + " (" + std::to_string(w.in.size()) + " bytes)";
    ASSERT_EQ(static_cast<int>(g.status), static_cast<int>(w.status)) << where << ": " << g.error << " / " << w.error;
    if (w.status != JobStatus::ok) continue;
    ASSERT_EQ(g.out_len, w.out_len) << where;
    ASSERT_TRUE(std::equal(w.out.begin(), w.out.begin() + w.out_len, g.out.begin())) << where;
    ASSERT_TRUE(std::equal(w.tag.begin(), w.tag.end(), g.tag.begin())) << where << " tag";
  }
}

std::vector<std::size_t> random_lengths(const CipherSpec& spec, std::mt19937_64& rng, std::size_t count,
                                        bool with_large) {
  std::vector<std::size_t> lengths;
  const bool whole_blocks = !spec.padding && (spec.mode == Mode::ecb || spec.mode == Mode::cbc);
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t len = std::vector<std::size_t>{0, 1, 15, 16, 17, 31, 32, 33, 48, 100, 255, 256, 1000, 4096}[rng() % 14];
    if (rng() % 4 == 0) len = rng() % 3000;
    if (whole_blocks) len = len / 16 * 16;
    if (spec.mode == Mode::xts) len = std::max<std::size_t>(len, 16 + rng() % 40);
    lengths.push_back(len);
  }
  if (with_large) {  // cut into slices by the 64 KiB chunk limit
    lengths.insert(lengths.begin() + 1, whole_blocks ? 150 * 1024 : 150 * 1024 + 7);
    lengths.push_back(whole_blocks ? 64 * 1024 : 64 * 1024 + 9);
  }
  return lengths;
}

struct Case {
  std::string name;
  CipherImpl impl;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const std::string& name : cipher_names()) {
    for (bool padding : {true, false}) {
      CipherSpec spec = CipherSpec::parse(name);
      if (!padding && spec.mode != Mode::ecb && spec.mode != Mode::cbc) continue;
      const std::string full = padding ? name : name + "-nopad";
      if (spec.cipher == BlockCipher::sm4) {
        out.push_back({full, CipherImpl::sm4});
      } else {
        out.push_back({full, CipherImpl::aes_bitsliced});
        out.push_back({full, CipherImpl::aes_ttable});
      }
    }
  }
  return out;
}

CipherSpec spec_of(const std::string& name) {
  const bool nopad = name.size() > 6 && name.substr(name.size() - 6) == "-nopad";
  CipherSpec spec = CipherSpec::parse(nopad ? name.substr(0, name.size() - 6) : name);
  spec.padding = !nopad;
  return spec;
}

class CudaEmulated : public ::testing::TestWithParam<Case> {};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.name + (info.param.impl == CipherImpl::aes_ttable ? "_ttable" : "");
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}

TEST_P(CudaEmulated, MatchesRefBothDirections) {
  const CipherSpec spec = spec_of(GetParam().name);
  std::mt19937_64 rng(std::hash<std::string>{}(GetParam().name) + static_cast<int>(GetParam().impl));
  for (std::size_t xts_unit : spec.mode == Mode::xts ? std::vector<std::size_t>{0, 512} : std::vector<std::size_t>{0}) {
    const bool large = GetParam().impl != CipherImpl::aes_ttable || xts_unit == 0;
    const auto lengths = random_lengths(spec, rng, 24, large);
    Batch plain = make_batch(spec, Direction::encrypt, lengths, rng);
    // Encryption.
    Batch want = clone(plain), got = clone(plain);
    validate(spec, Direction::encrypt, xts_unit, want);
    run_ref(spec, Direction::encrypt, xts_unit, want);
    run_emulated(spec, Direction::encrypt, GetParam().impl, xts_unit, got);
    expect_same(want, got, "encrypt xts_unit " + std::to_string(xts_unit));
    if (HasFatalFailure()) return;
    Batch got_pinned = clone(plain);  // the same from page-locked buffers, copied without staging
    run_emulated(spec, Direction::encrypt, GetParam().impl, xts_unit, got_pinned, 64 * 1024, 3, Buffers::pinned);
    expect_same(want, got_pinned, "encrypt, pinned, xts_unit " + std::to_string(xts_unit));
    if (HasFatalFailure()) return;

    // Decryption of the ref's ciphertexts (some invalid ones on purpose).
    Batch cipher = clone(want);
    for (std::size_t i = 0; i < cipher.jobs.size(); ++i) {
      CipherJob& job = cipher.jobs[i];
      if (job.status != JobStatus::ok) continue;
      cipher.ins[i].assign(job.out.begin(), job.out.begin() + job.out_len);
      job.in = cipher.ins[i];
      cipher.outs[i].assign(job.out_len + 32, 0xEE);
      job.out = cipher.outs[i];
      if (i % 4 == 3 && spec.mode == Mode::gcm) cipher.tags[i][0] ^= 1;                     // bad tag
      if (i % 4 == 3 && spec.pads() && !cipher.ins[i].empty()) cipher.ins[i].back() ^= 0x40;  // bad padding (mostly)
      job.status = JobStatus::pending;
    }
    Batch want_d = clone(cipher), got_d = clone(cipher);
    validate(spec, Direction::decrypt, xts_unit, want_d);
    run_ref(spec, Direction::decrypt, xts_unit, want_d);
    run_emulated(spec, Direction::decrypt, GetParam().impl, xts_unit, got_d);
    expect_same(want_d, got_d, "decrypt xts_unit " + std::to_string(xts_unit));
    if (HasFatalFailure()) return;
    Batch got_d_pinned = clone(cipher);
    run_emulated(spec, Direction::decrypt, GetParam().impl, xts_unit, got_d_pinned, 64 * 1024, 3, Buffers::pinned);
    expect_same(want_d, got_d_pinned, "decrypt, pinned, xts_unit " + std::to_string(xts_unit));
    if (HasFatalFailure()) return;
    // Decryption gives the plaintext back.
    for (std::size_t i = 0; i < got_d.jobs.size(); ++i) {
      if (got_d.jobs[i].status != JobStatus::ok || i % 4 == 3) continue;
      ASSERT_EQ(got_d.jobs[i].out_len, plain.jobs[i].in.size());
      ASSERT_TRUE(std::equal(plain.jobs[i].in.begin(), plain.jobs[i].in.end(), got_d.jobs[i].out.begin())) << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllCiphers, CudaEmulated, ::testing::ValuesIn(cases()), case_name);

TEST(CudaEmulatedPipeline, OneSlotAndManySlotsAgree) {
  // In-place CBC decryption cut into slices: the chain blocks must be taken before any slice's output lands.
  const CipherSpec spec = CipherSpec::parse("aes-128-cbc");
  std::mt19937_64 rng(11);
  Batch plain = make_batch(spec, Direction::encrypt, {300 * 1024 + 5, 70000, 33}, rng);
  Batch enc = clone(plain);
  validate(spec, Direction::encrypt, 0, enc);
  run_ref(spec, Direction::encrypt, 0, enc);
  for (std::size_t slots : {1, 2, 3, 5}) {
    Batch c = clone(enc);
    for (std::size_t i = 0; i < c.jobs.size(); ++i) {  // decrypt in place
      c.outs[i].assign(c.jobs[i].out.begin(), c.jobs[i].out.begin() + c.jobs[i].out_len);
      c.jobs[i].in = c.outs[i];
      c.jobs[i].out = c.outs[i];
    }
    run_emulated(spec, Direction::decrypt, CipherImpl::aes_bitsliced, 0, c, 64 * 1024, slots);
    for (std::size_t i = 0; i < c.jobs.size(); ++i) {
      ASSERT_EQ(c.jobs[i].status, JobStatus::ok) << c.jobs[i].error;
      ASSERT_EQ(c.jobs[i].out_len, plain.jobs[i].in.size());
      EXPECT_TRUE(std::equal(plain.jobs[i].in.begin(), plain.jobs[i].in.end(), c.jobs[i].out.begin())) << slots;
    }
  }
}

TEST(CudaEmulatedPipeline, NothingPendingTouchesNothing) {
  const CipherSpec spec = CipherSpec::parse("aes-128-ctr");
  std::mt19937_64 rng(14);
  Batch b = make_batch(spec, Direction::encrypt, {10, 20}, rng);
  for (CipherJob& job : b.jobs) job.status = JobStatus::invalid_argument, job.error = "set by the test";
  cuda::EmulatedDevice dev;
  cuda::ExecOptions o;
  cuda::run_cipher_batch(dev, spec, Direction::encrypt, b.jobs, o);
  cuda::run_cipher_batch(dev, spec, Direction::encrypt, std::span<CipherJob>(), o);
  EXPECT_EQ(dev.live_allocations(), 0u);
  EXPECT_EQ(dev.launches(cuda::CipherOp::ctr), 0u);
  for (const CipherJob& job : b.jobs) EXPECT_EQ(job.error, "set by the test");
  std::vector<HashJob> none;
  cuda::run_hash_batch(dev, HashAlgorithm::sha256, none, o);
  std::vector<KeccakState> no_states;
  cuda::run_keccak_batch(dev, no_states, o);
  EXPECT_EQ(dev.live_allocations(), 0u);
}

TEST(CudaEmulatedPipeline, LargeGcmJobTamperedAnywhereFailsAndReleasesNothing) {
  const CipherSpec spec = CipherSpec::parse("aes-256-gcm");
  std::mt19937_64 rng(12);
  Batch plain = make_batch(spec, Direction::encrypt, {200 * 1024 + 3}, rng);
  Batch enc = clone(plain), mine = clone(plain);
  validate(spec, Direction::encrypt, 0, enc);
  run_ref(spec, Direction::encrypt, 0, enc);
  run_emulated(spec, Direction::encrypt, CipherImpl::aes_bitsliced, 0, mine);
  expect_same(enc, mine, "large gcm");
  for (std::size_t flip : {std::size_t{0}, std::size_t{100000}, std::size_t{200 * 1024 + 2}})
  for (Buffers buffers : {Buffers::staged, Buffers::pinned}) {
    Batch c = clone(enc);
    c.ins[0].assign(c.jobs[0].out.begin(), c.jobs[0].out.begin() + c.jobs[0].out_len);
    c.ins[0][flip] ^= 0x01;
    c.jobs[0].in = c.ins[0];
    c.outs[0].assign(c.ins[0].size(), 0x77);
    c.jobs[0].out = c.outs[0];
    run_emulated(spec, Direction::decrypt, CipherImpl::aes_bitsliced, 0, c, 64 * 1024, 3, buffers);
    EXPECT_EQ(c.jobs[0].status, JobStatus::auth_failed);
    EXPECT_TRUE(std::all_of(c.outs[0].begin(), c.outs[0].end(), [](std::uint8_t v) { return v == 0 || v == 0x77; }))
        << "plaintext released after a failed tag check (flip at " << flip << ")";
  }
}

TEST(CudaEmulatedPipeline, GcmCounterWrapsInside32Bits) {
  // A 16-byte IV whose J0 (= IV·H² ^ L·H, L the length block) has its low word just below 2^32, so that GCM's
  // 32-bit counter wraps inside the message, and inside a slice when the message is cut.
  const CipherSpec spec = CipherSpec::parse("aes-128-gcm");
  std::mt19937_64 rng(13);
  const bytes key = random_bytes(rng, 16);
  bytes zero(16, 0), h_bytes(16);
  CipherSpec ecb = CipherSpec::parse("aes-128-ecb");
  ecb.padding = false;
  CipherJob hjob{key, {}, zero, h_bytes};
  run_batch(ecb, Direction::encrypt, std::span<CipherJob>(&hjob, 1), BatchOptions{"ref"});
  const algo::Gf128 h = algo::gf128_load(h_bytes.data());
  algo::Gf128 inv{std::uint64_t{1} << 63, 0};  // H^-1 = H^(2^128 - 2)
  for (int i = 0; i < 127; ++i) inv = algo::gf128_mul(algo::gf128_mul(inv, inv), h);
  inv = algo::gf128_mul(inv, inv);
  bytes j0 = random_bytes(rng, 16);
  j0[12] = j0[13] = 0xFF, j0[14] = 0xEC, j0[15] = 0x78;  // wraps after 5000 blocks: inside the second slice
  algo::Gf128 x = algo::gf128_load(j0.data());
  const algo::Gf128 lh = algo::gf128_mul(algo::Gf128{0, 128}, h);
  x.hi ^= lh.hi, x.lo ^= lh.lo;
  bytes iv(16);
  algo::gf128_store(algo::gf128_mul(x, algo::gf128_mul(inv, inv)), iv.data());
  for (std::size_t len : {std::size_t{100000}, std::size_t{150000}}) {
    Batch b;
    b.keys = {key};
    b.ivs = {iv};
    b.ins = {random_bytes(rng, len)};
    b.outs = {bytes(len)};
    b.aads = {random_bytes(rng, 5)};
    b.tags = {bytes(16)};
    b.jobs = {CipherJob{b.keys[0], b.ivs[0], b.ins[0], b.outs[0], b.aads[0], b.tags[0]}};
    Batch want = clone(b), got = clone(b);
    validate(spec, Direction::encrypt, 0, want);
    run_ref(spec, Direction::encrypt, 0, want);
    run_emulated(spec, Direction::encrypt, CipherImpl::aes_bitsliced, 0, got);
    expect_same(want, got, "gcm counter wrap, " + std::to_string(len) + " bytes");
  }
}

// ---- device-resident jobs (host memory stands in for device memory under emulation) --------------------------

TEST(CudaEmulatedDeviceResident, InPlaceJobsMatchRef) {
  std::mt19937_64 rng(21);
  for (const char* name : {"aes-128-ecb", "aes-256-cbc", "aes-192-ctr", "aes-256-xts", "aes-128-gcm", "sm4-ctr", "sm4-gcm"}) {
    CipherSpec spec = CipherSpec::parse(name);
    spec.padding = false;
    for (Direction dir : {Direction::encrypt, Direction::decrypt}) {
      std::vector<std::size_t> lengths = {16, 4096, 32, 1600, 48000};
      Batch ref = make_batch(spec, dir, lengths, rng);
      Batch dev = clone(ref);
      validate(spec, dir, 0, ref);
      run_ref(spec, dir, 0, ref);
      std::vector<cuda::JobView> views;
      std::vector<bytes> data(lengths.size()), tags(lengths.size());
      std::vector<std::int32_t> oks(lengths.size(), -1);
      for (std::size_t i = 0; i < lengths.size(); ++i) {
        const CipherJob& job = dev.jobs[i];
        data[i].assign(job.in.begin(), job.in.end());
        tags[i].assign(job.tag.begin(), job.tag.end());
        cuda::JobView v;
        v.key = job.key, v.iv = job.iv, v.aad = job.aad, v.in_len = job.in.size();
        v.dev_in = data[i].data(), v.dev_out = data[i].data();
        v.tag_len = static_cast<std::uint32_t>(job.tag.size());
        v.dev_tag = tags[i].data();
        v.dev_ok = &oks[i];
        views.push_back(v);
      }
      cuda::EmulatedDevice device;
      cuda::enqueue_device_cipher(device, spec, dir, views,
                                  spec.cipher == BlockCipher::sm4 ? CipherImpl::sm4 : CipherImpl::aes_ttable, 0, nullptr);
      EXPECT_EQ(device.live_allocations(), 0u);
      for (std::size_t i = 0; i < lengths.size(); ++i) {
        const CipherJob& w = ref.jobs[i];
        const std::string where = std::string(name) + (dir == Direction::encrypt ? " enc " : " dec ") + std::to_string(i);
        if (spec.mode == Mode::gcm && dir == Direction::decrypt) {
          // Random "ciphertext" with a random tag: fails, and the data is wiped.
          EXPECT_EQ(w.status, JobStatus::auth_failed) << where;
          EXPECT_EQ(oks[i], 0) << where;
          EXPECT_TRUE(std::all_of(data[i].begin(), data[i].end(), [](std::uint8_t v) { return v == 0; })) << where;
          continue;
        }
        ASSERT_EQ(w.status, JobStatus::ok) << where << w.error;
        EXPECT_TRUE(std::equal(data[i].begin(), data[i].end(), w.out.begin())) << where;
        if (spec.mode == Mode::gcm) {
          EXPECT_EQ(tags[i], bytes(w.tag.begin(), w.tag.end())) << where;
        }
      }
    }
  }
}

TEST(CudaEmulatedDeviceResident, GcmDecryptionWithTheRightTagSucceeds) {
  std::mt19937_64 rng(22);
  const CipherSpec spec = CipherSpec::parse("aes-256-gcm");
  Batch b = make_batch(spec, Direction::encrypt, {1000, 0, 77777}, rng);
  Batch enc = clone(b);
  validate(spec, Direction::encrypt, 0, enc);
  run_ref(spec, Direction::encrypt, 0, enc);
  std::vector<cuda::JobView> views;
  std::vector<bytes> data(3), tags(3);
  std::vector<std::int32_t> oks(3, -1);
  for (std::size_t i = 0; i < 3; ++i) {
    const CipherJob& job = enc.jobs[i];
    data[i].assign(job.out.begin(), job.out.begin() + job.out_len);
    tags[i].assign(job.tag.begin(), job.tag.end());
    if (i == 2) tags[i][3] ^= 8;
    cuda::JobView v;
    v.key = job.key, v.iv = job.iv, v.aad = job.aad, v.in_len = data[i].size();
    v.dev_in = data[i].data(), v.dev_out = data[i].data();
    v.tag_len = static_cast<std::uint32_t>(tags[i].size());
    v.dev_tag = tags[i].data();
    v.dev_ok = &oks[i];
    views.push_back(v);
  }
  cuda::EmulatedDevice device;
  cuda::enqueue_device_cipher(device, spec, Direction::decrypt, views, CipherImpl::aes_bitsliced, 0, nullptr);
  EXPECT_EQ(oks[0], 1);
  EXPECT_EQ(oks[1], 1);
  EXPECT_EQ(oks[2], 0);
  EXPECT_EQ(data[0], b.ins[0]);
  EXPECT_TRUE(std::all_of(data[2].begin(), data[2].end(), [](std::uint8_t v) { return v == 0; }));
}

// ---- hashes and Keccak ------------------------------------------------------------------------------------------

TEST(CudaEmulatedHash, EveryAlgorithmMatchesRef) {
  std::mt19937_64 rng(31);
  for (const std::string& name : hash_names()) {
    const HashAlgorithm alg = parse_hash(name);
    const HashInfo& info = hash_info(alg);
    std::vector<bytes> msgs, want, got;
    for (int i = 0; i < 60; ++i) {
      std::size_t len = rng() % 400;
      if (i == 7) len = 100000;  // bigger than the chunk limit: a chunk of its own
      msgs.push_back(random_bytes(rng, len));
      const std::size_t out = info.xof ? 1 + rng() % 300 : info.digest_size;
      want.emplace_back(out, 0);
      got.emplace_back(out, 0xEE);
    }
    std::vector<HashJob> wj, gj;
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      wj.push_back(HashJob{msgs[i], want[i]});
      gj.push_back(HashJob{msgs[i], got[i]});
    }
    hash_batch(alg, wj, BatchOptions{"ref"});
    cuda::EmulatedDevice dev;
    cuda::ExecOptions o;
    o.limits.max_bytes = 64 * 1024;
    cuda::run_hash_batch(dev, alg, gj, o);
    EXPECT_EQ(dev.live_allocations(), 0u);
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      ASSERT_EQ(gj[i].status, JobStatus::ok) << name;
      ASSERT_EQ(got[i], want[i]) << name << " message " << i << " of " << msgs[i].size() << " bytes";
    }
  }
}

TEST(CudaEmulatedHash, KeccakBatchMatchesPortablePermutation) {
  std::mt19937_64 rng(32);
  std::vector<KeccakState> states(1000), want;
  for (auto& s : states)
    for (auto& lane : s) lane = rng();
  want = states;
  for (auto& s : want) algo::keccak_f1600(s.data());
  cuda::EmulatedDevice dev;
  cuda::ExecOptions o;
  o.limits.max_bytes = 200 * 64;  // 64 states per chunk: 16 chunks
  cuda::run_keccak_batch(dev, states, o);
  EXPECT_EQ(states, want);
}

// ---- building blocks ----------------------------------------------------------------------------------------------

TEST(CudaKernelParts, XtsAlphaPowersMatchRepeatedDoubling) {
  algo::Gf128 pow2[cuda::kXtsAlphaPowers];
  cuda::xts_alpha_pow_table(pow2);
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 20; ++trial) {
    const bytes t0 = random_bytes(rng, 16);
    const std::uint64_t e = trial < 10 ? static_cast<std::uint64_t>(trial) * 37 : rng() % 5000;
    std::uint8_t slow[16], fast[16];
    std::memcpy(slow, t0.data(), 16);
    std::memcpy(fast, t0.data(), 16);
    for (std::uint64_t i = 0; i < e; ++i) algo::xts_mul_alpha(slow);
    cuda::xts_mul_alpha_pow(fast, e, pow2);
    ASSERT_EQ(0, std::memcmp(slow, fast, 16)) << "e = " << e;
  }
  // Large exponents: α^(a+b) = α^a · α^b.
  const bytes t0 = random_bytes(rng, 16);
  std::uint8_t x[16], y[16];
  std::memcpy(x, t0.data(), 16);
  std::memcpy(y, t0.data(), 16);
  cuda::xts_mul_alpha_pow(x, (std::uint64_t{1} << 40) + 12345, pow2);
  cuda::xts_mul_alpha_pow(y, std::uint64_t{1} << 40, pow2);
  for (int i = 0; i < 12345; ++i) algo::xts_mul_alpha(y);
  EXPECT_EQ(0, std::memcmp(x, y, 16));
}

TEST(CudaKernelParts, TtableAesMatchesBitsliced) {
  std::mt19937_64 rng(42);
  const auto& tables = cuda::ttable_tables();
  const cuda::TtableView view{tables.te, tables.td, tables.inv_sbox, 1, 0};
  for (int key_len : {16, 24, 32}) {
    cuda::RawKey raw{};
    const bytes key = random_bytes(rng, key_len);
    std::memcpy(raw.bytes, key.data(), key.size());
    raw.len = static_cast<std::uint32_t>(key_len);
    cuda::Impl<CipherImpl::aes_ttable>::Key tk;
    cuda::Impl<CipherImpl::aes_bitsliced>::Key bk;
    cuda::Impl<CipherImpl::aes_ttable>::expand(raw, tk);
    cuda::Impl<CipherImpl::aes_bitsliced>::expand(raw, bk);
    for (int i = 0; i < 50; ++i) {
      const bytes in = random_bytes(rng, 32);
      std::uint8_t a[32], b[32], back[32];
      cuda::Impl<CipherImpl::aes_ttable>::encrypt(view, tk, in.data(), a, 2);
      cuda::Impl<CipherImpl::aes_bitsliced>::encrypt(view, bk, in.data(), b, 2);
      ASSERT_EQ(0, std::memcmp(a, b, 32)) << key_len;
      cuda::Impl<CipherImpl::aes_ttable>::decrypt(view, tk, a, back, 2);
      ASSERT_EQ(0, std::memcmp(back, in.data(), 32)) << key_len;
    }
  }
}

TEST(CudaKernelParts, CarrylessMultipliesMatchTheBitSerialOnes) {
  std::mt19937_64 rng(43);
  for (int i = 0; i < 20000; ++i) {  // 32 x 32: against shift-and-XOR
    const auto x = static_cast<std::uint32_t>(rng()), y = static_cast<std::uint32_t>(rng());
    std::uint64_t want = 0;
    for (int b = 0; b < 32; ++b)
      if ((y >> b) & 1u) want ^= std::uint64_t{x} << b;
    ASSERT_EQ(cuda::clmul32(x, y), want) << x << " " << y;
  }
  std::vector<algo::Gf128> special = {{0, 0}, {std::uint64_t{1} << 63, 0}, {0, 1}, {~0ull, ~0ull}, {1, 0},
                                      {0, std::uint64_t{1} << 63}};
  for (const auto& a : special)
    for (const auto& b : special) {
      const algo::Gf128 w = algo::gf128_mul(a, b), g = cuda::gf128_mul_ct(a, b);
      ASSERT_EQ(w.hi, g.hi);
      ASSERT_EQ(w.lo, g.lo);
    }
  for (int i = 0; i < 20000; ++i) {
    const algo::Gf128 a{rng(), rng()}, b{rng(), rng()};
    const algo::Gf128 w = algo::gf128_mul(a, b), g = cuda::gf128_mul_ct(a, b);
    ASSERT_EQ(w.hi, g.hi) << i;
    ASSERT_EQ(w.lo, g.lo) << i;
  }
}

TEST(CudaKernelParts, FindOwnerSkipsEmptyJobs) {
  const std::uint64_t begin[] = {0, 0, 3, 3, 3, 7, 8};  // jobs 0, 2, 3 own nothing; 6 jobs, 8 units
  const std::uint32_t want[] = {1, 1, 1, 4, 4, 4, 4, 5};
  for (std::uint64_t u = 0; u < 8; ++u) EXPECT_EQ(cuda::find_owner(begin, 6, u), want[u]) << u;
}

}  // namespace
}  // namespace cryptaccel

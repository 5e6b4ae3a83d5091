// The cuda engine's RSA without a GPU: the shared Montgomery arithmetic in 32-bit limbs (what the kernels run)
// against OpenSSL's BN; the host packing (limb-interleaved layout, offsets, grouping by modulus size and exponent
// kind, mixed keys, splitting into launches); and the per-thread kernel body run through EmulatedDevice and the RSA
// executor (pinned staging, streams, unpacking) on random moduli and exponents of every size the kernels are built
// for, against BN_mod_exp; the engine's private (CRT halves, and d for a three-prime key), public and modexp paths
// against the ref engine.
#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bn_test_util.hpp"
#include "cryptaccel/rsa.hpp"
#include "cuda/host/emulated_device.hpp"
#include "cuda/host/multi_device.hpp"
#include "cuda/rsa/rsa_executor.hpp"
#include "cuda/rsa/rsa_jobs.hpp"
#include "cuda/rsa/rsa_kernel_variant.hpp"
#include "cuda/rsa/rsa_plan.hpp"
#include "engine/engine.hpp"
#include "ref/ref_engine.hpp"
#include "rsa/key_impl.hpp"
#include "rsa/modulus.hpp"

namespace cryptaccel {
namespace {

namespace bn = algo::bn;
using cuda::RsaExpKind;
using cuda::RsaLaunch;
using cuda::RsaTask;
using cuda::rsa_word;
using rsa::limb;

using test::Bn;
using test::Ctx;
using test::CtxDel;

template <class W>
Bn to_bn(const W* a, std::size_t n) {
  bytes be(sizeof(W) * n);
  for (std::size_t k = 0; k < be.size(); ++k)
    be[be.size() - 1 - k] = static_cast<std::uint8_t>(a[k / sizeof(W)] >> (8 * (k % sizeof(W))));
  return Bn(BN_bin2bn(be.data(), static_cast<int>(be.size()), nullptr));
}

template <class W>
std::vector<W> from_bn(const BIGNUM* b, std::size_t n) {
  bytes be(sizeof(W) * n);
  EXPECT_GE(BN_bn2binpad(b, be.data(), static_cast<int>(be.size())), 0);
  std::vector<W> out(n);
  for (std::size_t k = 0; k < be.size(); ++k)
    out[k / sizeof(W)] |= static_cast<W>(be[be.size() - 1 - k]) << (8 * (k % sizeof(W)));
  return out;
}

/// A random odd modulus of exactly `bits` bits, big-endian.
bytes random_modulus(std::mt19937_64& rng, std::size_t bits) {
  bytes n((bits + 7) / 8);
  for (auto& b : n) b = static_cast<std::uint8_t>(rng());
  if (bits % 8) n[0] &= static_cast<std::uint8_t>((1u << (bits % 8)) - 1);
  n[0] |= static_cast<std::uint8_t>(1u << ((bits - 1) % 8));
  n.back() |= 1;
  return n;
}

/// A random value of `limbs` limbs below `m` (BN_rand_range).
std::vector<limb> below(const rsa::Modulus& m) {
  Bn n = to_bn(m.n.data(), m.limbs), r(BN_new());
  BN_rand_range(r.get(), n.get());
  return from_bn<limb>(r.get(), m.limbs);
}

// --- the arithmetic in 32-bit limbs ---

template <std::size_t N>
void check_words(std::mt19937_64& rng) {
  SCOPED_TRACE("32-bit words " + std::to_string(N));
  using W = std::uint32_t;
  std::vector<W> n(N), one(N), rr(N);
  for (auto& w : n) w = static_cast<W>(rng());
  n[N - 1] |= 0x80000000u;
  n[0] |= 1;
  bn::mont_constants<N>(one.data(), rr.data(), n.data());
  const W n0 = bn::mont_n0(n[0]);
  EXPECT_EQ(static_cast<W>(n0 * n[0]), 0xffffffffu);
  std::unique_ptr<BN_CTX, CtxDel> ctx(BN_CTX_new());
  Bn bnn = to_bn(n.data(), N), r(BN_new()), t(BN_new()), want(BN_new());
  BN_one(r.get());
  BN_lshift(r.get(), r.get(), static_cast<int>(32 * N));
  BN_mod(t.get(), r.get(), bnn.get(), ctx.get());
  EXPECT_EQ(BN_cmp(t.get(), to_bn(one.data(), N).get()), 0) << "R mod n";
  BN_mod_sqr(want.get(), t.get(), bnn.get(), ctx.get());
  EXPECT_EQ(BN_cmp(want.get(), to_bn(rr.data(), N).get()), 0) << "R^2 mod n";
  Bn rinv(BN_mod_inverse(nullptr, r.get(), bnn.get(), ctx.get()));
  for (int trial = 0; trial < 4; ++trial) {
    Bn ba(BN_new()), bb(BN_new());
    BN_rand_range(ba.get(), bnn.get());
    BN_rand_range(bb.get(), bnn.get());
    const auto a = from_bn<W>(ba.get(), N), b = from_bn<W>(bb.get(), N);
    std::vector<W> p(N), s(N);
    bn::mont_mul<N>(p.data(), a.data(), b.data(), n.data(), n0);
    BN_mod_mul(want.get(), ba.get(), bb.get(), bnn.get(), ctx.get());
    BN_mod_mul(want.get(), want.get(), rinv.get(), bnn.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(p.data(), N).get()), 0) << "mont_mul";
    bn::mont_sqr<N>(s.data(), a.data(), n.data(), n0);
    BN_mod_mul(want.get(), ba.get(), ba.get(), bnn.get(), ctx.get());
    BN_mod_mul(want.get(), want.get(), rinv.get(), bnn.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(s.data(), N).get()), 0) << "mont_sqr";
    std::vector<W> d(N);
    bn::mod_sub<N>(d.data(), a.data(), b.data(), n.data());
    BN_mod_sub(want.get(), ba.get(), bb.get(), bnn.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(d.data(), N).get()), 0) << "mod_sub";
  }
}

TEST(RsaCudaArith, ThirtyTwoBitLimbsAgainstBn) {
  std::mt19937_64 rng(1302);
  check_words<16>(rng);
  check_words<32>(rng);
  check_words<48>(rng);
  check_words<64>(rng);
  check_words<96>(rng);
}

TEST(RsaCudaArith, DeviceConstantsAreTheHostOnes) {
  // R = 2^(64 L) = 2^(32 * 2L): the host's R^2 serves the device; its n0 mod 2^32 is the device's n0.
  std::mt19937_64 rng(77);
  const rsa::Modulus m = rsa::make_modulus(random_modulus(rng, 2048), 32);
  std::vector<std::uint32_t> n32(64), one(64), rr(64);
  for (std::size_t k = 0; k < 64; ++k) n32[k] = static_cast<std::uint32_t>(m.n.v[k / 2] >> (32 * (k % 2)));
  bn::mont_constants<64>(one.data(), rr.data(), n32.data());
  EXPECT_EQ(BN_cmp(to_bn(rr.data(), 64).get(), to_bn(m.rr.data(), 32).get()), 0);
  EXPECT_EQ(BN_cmp(to_bn(one.data(), 64).get(), to_bn(m.one.data(), 32).get()), 0);
  EXPECT_EQ(bn::mont_n0(n32[0]), static_cast<std::uint32_t>(m.n0));
}

// --- packing ---

/// Owns the numbers a set of tasks points at.
struct TaskSet {
  std::vector<std::unique_ptr<rsa::Modulus>> moduli;
  std::vector<std::vector<limb>> exponents, bases, outs;
  std::vector<RsaTask> tasks;
  void reserve(std::size_t n) { exponents.reserve(n), bases.reserve(n), outs.reserve(n); }
  /// A random modulus of `bits` bits in the fewest 64-bit limbs (full moduli and CRT halves alike).
  const rsa::Modulus* add_modulus(std::mt19937_64& rng, std::size_t bits) {
    moduli.push_back(std::make_unique<rsa::Modulus>(rsa::make_modulus(random_modulus(rng, bits), (bits + 63) / 64)));
    return moduli.back().get();
  }
  /// A task with a random base and a random exponent of `e_bits` bits (public: e_bits significant, no bound).
  void add(std::mt19937_64& rng, const rsa::Modulus* m, std::size_t e_bits, RsaExpKind kind) {
    std::vector<limb> e(std::max<std::size_t>(1, kind == RsaExpKind::secret ? m->limbs : (e_bits + 63) / 64));
    for (std::size_t i = 0; i < e_bits; i += 64) e[i / 64] = rng();
    if (e_bits % 64) e[e_bits / 64] &= (limb{1} << (e_bits % 64)) - 1;
    if (e_bits) e[(e_bits - 1) / 64] |= limb{1} << ((e_bits - 1) % 64);
    exponents.push_back(e);
    bases.push_back(below(*m));
    outs.emplace_back(m->limbs, 0);
    tasks.push_back(RsaTask{m, exponents.back().data(), exponents.back().size(), e_bits, kind, bases.back().data(),
                            outs.back().data()});
  }
  /// base^e mod n by OpenSSL for task t.
  std::vector<limb> expected(std::size_t t) const {
    const RsaTask& k = tasks[t];
    std::unique_ptr<BN_CTX, CtxDel> ctx(BN_CTX_new());
    Bn r(BN_new());
    BN_mod_exp(r.get(), to_bn(k.base, k.modulus->limbs).get(), to_bn(k.exponent, k.exponent_limbs).get(),
               to_bn(k.modulus->n.data(), k.modulus->limbs).get(), ctx.get());
    return from_bn<limb>(r.get(), k.modulus->limbs);
  }
};

TEST(RsaCudaPlan, GroupsBySizeAndKindAndSplits) {
  std::mt19937_64 rng(5);
  TaskSet s;
  s.reserve(64);
  const rsa::Modulus* m1024 = s.add_modulus(rng, 1024);
  const rsa::Modulus* m2048 = s.add_modulus(rng, 2048);
  const rsa::Modulus* m512 = s.add_modulus(rng, 512);
  const rsa::Modulus* m2000 = s.add_modulus(rng, 2000);  // a 2048-bit slot
  // Interleaved: 2048 secret (7, two moduli), 1024 secret (4), 512 secret (3), 1024 public (3, e of 17 and 65 bits).
  for (int i = 0; i < 7; ++i) s.add(rng, i % 2 ? m2048 : m2000, 2048, RsaExpKind::secret);
  for (int i = 0; i < 4; ++i) s.add(rng, m1024, 1024, RsaExpKind::secret);
  for (int i = 0; i < 3; ++i) s.add(rng, m512, 512, RsaExpKind::secret);
  s.add(rng, m1024, 17, RsaExpKind::public_e);
  s.add(rng, m1024, 65, RsaExpKind::public_e);
  s.add(rng, m1024, 17, RsaExpKind::public_e);
  s.add(rng, m2048, 300, RsaExpKind::secret);  // another exponent bound: a group of its own
  const auto launches = cuda::rsa_plan(s.tasks, 3);
  // Groups in first-appearance order, split by 3: 2048-bit slots with 2048-bit exponents 3+3+1; 1024: 3+1; 512: 3;
  // public 1024: 3; 2048-bit slots with 300-bit exponents: 1.
  ASSERT_EQ(launches.size(), 8u);
  const std::size_t want_words[] = {64, 64, 64, 32, 32, 16, 32, 64};
  const std::size_t want_count[] = {3, 3, 1, 3, 1, 3, 3, 1};
  std::vector<std::size_t> seen;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const RsaLaunch& l = launches[i];
    SCOPED_TRACE("launch " + std::to_string(i));
    EXPECT_EQ(l.words, want_words[i]);
    EXPECT_EQ(l.count(), want_count[i]);
    EXPECT_EQ(l.kind, i == 6 ? RsaExpKind::public_e : RsaExpKind::secret);
    if (l.kind == RsaExpKind::secret) {
      EXPECT_EQ(l.e_words, l.words);
    }
    for (std::size_t t : l.tasks) {
      EXPECT_EQ(2 * s.tasks[t].modulus->limbs, l.words);
      EXPECT_EQ(s.tasks[t].kind, l.kind);
      seen.push_back(t);
    }
    for (std::size_t k = 1; k < l.tasks.size(); ++k) EXPECT_LT(l.tasks[k - 1], l.tasks[k]);  // task order kept
  }
  EXPECT_EQ(launches[6].e_words, 4u);  // the longest public exponent (65 bits): two limbs, four words
  EXPECT_EQ(launches[0].e_bits, 2048u);
  EXPECT_EQ(launches[7].e_bits, 300u);
  EXPECT_EQ(std::set<std::size_t>(seen.begin(), seen.end()).size(), s.tasks.size());
  EXPECT_EQ(seen.size(), s.tasks.size());
}

TEST(RsaCudaPlan, PacksLimbInterleavedAndUnpacks) {
  std::mt19937_64 rng(6);
  TaskSet s;
  s.reserve(8);
  const rsa::Modulus* a = s.add_modulus(rng, 1024);
  const rsa::Modulus* b = s.add_modulus(rng, 1000);
  for (int i = 0; i < 5; ++i) s.add(rng, i % 2 ? a : b, 1024, RsaExpKind::secret);
  const auto launches = cuda::rsa_plan(s.tasks);
  ASSERT_EQ(launches.size(), 1u);
  const RsaLaunch& l = launches[0];
  const std::uint64_t c = l.count(), N = l.words, E = l.e_words;
  ASSERT_EQ(c, 5u);
  ASSERT_EQ(N, 32u);
  const cuda::RsaLayout lay = cuda::RsaLayout::of(c, N, E);
  EXPECT_EQ(lay.words, l.buffer_words());
  EXPECT_EQ(lay.words, (3 * N + E + 1) * c);
  std::vector<rsa_word> buf(l.buffer_words(), 0xdeadbeefu);
  cuda::rsa_pack(l, s.tasks, buf.data());
  for (std::uint64_t j = 0; j < c; ++j) {
    const RsaTask& t = s.tasks[l.tasks[j]];
    for (std::uint64_t k = 0; k < N; ++k) {
      const auto word = [&](const limb* v) { return static_cast<rsa_word>(v[k / 2] >> (32 * (k % 2))); };
      ASSERT_EQ(buf[lay.x + k * c + j], word(t.base)) << j << " " << k;
      ASSERT_EQ(buf[lay.n + k * c + j], word(t.modulus->n.data()));
      ASSERT_EQ(buf[lay.rr + k * c + j], word(t.modulus->rr.data()));
      ASSERT_EQ(buf[lay.e + k * c + j], word(t.exponent));
    }
    EXPECT_EQ(buf[lay.n0 + j], static_cast<rsa_word>(t.modulus->n0));
  }
  const cuda::RsaModexpArgs args = cuda::rsa_launch_args(l, buf.data());
  EXPECT_EQ(args.n, buf.data() + lay.n);
  EXPECT_EQ(args.e, buf.data() + lay.e);
  EXPECT_EQ(args.n0, buf.data() + lay.n0);
  // Unpacking: word k of job j back into limb k/2 of its task's out.
  for (std::uint64_t j = 0; j < c; ++j)
    for (std::uint64_t k = 0; k < N; ++k) buf[lay.x + k * c + j] = static_cast<rsa_word>(1000 * j + k);
  cuda::rsa_unpack(l, s.tasks, buf.data());
  for (std::uint64_t j = 0; j < c; ++j)
    for (std::uint64_t i = 0; i < N / 2; ++i)
      ASSERT_EQ(s.tasks[l.tasks[j]].out[i], (limb{1000 * j + 2 * i + 1} << 32) | (1000 * j + 2 * i));
}

TEST(RsaCudaPlan, RejectsWhatTheKernelsCannotRun) {
  std::mt19937_64 rng(7);
  TaskSet s;
  s.reserve(4);
  const rsa::Modulus* m = s.add_modulus(rng, 1024);
  s.add(rng, m, 64, RsaExpKind::secret);
  s.tasks[0].exponent_limbs = m->limbs + 1;  // exponent longer than the modulus
  EXPECT_THROW(cuda::rsa_plan(s.tasks), InvalidArgument);
  rsa::Modulus odd;  // a 128-bit slot (4 words): no kernel for it
  odd.limbs = 2;
  s.tasks[0].modulus = &odd;
  s.tasks[0].exponent_limbs = 1;
  EXPECT_THROW(cuda::rsa_plan(s.tasks), InvalidArgument);
  EXPECT_NO_THROW(cuda::check_rsa_words(256));
  EXPECT_THROW(cuda::check_rsa_words(40), InvalidArgument);
}

// --- the kernel body through the emulated device ---

// --- kernel variants ---

TEST(RsaCudaVariant, NamesParseAndEnvironment) {
  for (cuda::RsaKernel k : {cuda::RsaKernel::thread, cuda::RsaKernel::fp64, cuda::RsaKernel::group})
    EXPECT_EQ(cuda::parse_rsa_kernel(cuda::rsa_kernel_name(k)), k);
  EXPECT_THROW(cuda::parse_rsa_kernel("fp32"), InvalidArgument);
  EXPECT_THROW(cuda::parse_rsa_kernel(""), InvalidArgument);
  for (std::size_t words : {16, 32, 48, 64, 96, 128, 256})
    EXPECT_TRUE(cuda::rsa_kernel_supports(cuda::RsaKernel::thread, words)) << words;
  EXPECT_FALSE(cuda::rsa_kernel_supports(cuda::RsaKernel::thread, 8));
  ::unsetenv("CRYPTACCEL_CUDA_RSA_KERNEL");
  EXPECT_EQ(cuda::rsa_kernel_from_env(), cuda::kDefaultRsaKernel);
  EXPECT_EQ(cuda::kDefaultRsaKernel, cuda::RsaKernel::group);  // the fastest on the first GPU run
  ::setenv("CRYPTACCEL_CUDA_RSA_KERNEL", "fp64", 1);
  EXPECT_EQ(cuda::rsa_kernel_from_env(), cuda::RsaKernel::fp64);
  ::setenv("CRYPTACCEL_CUDA_RSA_KERNEL", "Group", 1);
  EXPECT_THROW(cuda::rsa_kernel_from_env(), InvalidArgument);
  ::unsetenv("CRYPTACCEL_CUDA_RSA_KERNEL");
}

TEST(RsaCudaVariant, PlanFallsBackToThreadWhereAVariantIsNotBuilt) {
  std::mt19937_64 rng(12);
  TaskSet s;
  s.reserve(16);
  for (std::size_t bits : {512, 1024, 1536, 2048, 3072, 4096, 8192})
    s.add(rng, s.add_modulus(rng, bits), 17, RsaExpKind::public_e);
  for (cuda::RsaKernel k : {cuda::RsaKernel::thread, cuda::RsaKernel::fp64, cuda::RsaKernel::group}) {
    const auto launches = cuda::rsa_plan(s.tasks, cuda::kRsaMaxJobsPerLaunch, k);
    ASSERT_EQ(launches.size(), 7u);
    for (const RsaLaunch& l : launches)
      EXPECT_EQ(l.kernel, cuda::rsa_kernel_supports(k, l.words) ? k : cuda::RsaKernel::thread)
          << cuda::rsa_kernel_name(k) << " " << l.words;
    cuda::EmulatedDevice dev;
    EXPECT_THROW(dev.rsa(cuda::RsaModexpArgs{}, 8, RsaExpKind::secret, k, nullptr), InvalidArgument);
  }
}

TEST(RsaCudaVariant, Fp64AndGroupAreBuiltForTheirSizes) {
  for (cuda::RsaKernel k : {cuda::RsaKernel::fp64, cuda::RsaKernel::group})
    for (std::size_t words : {8, 16, 32, 48, 64, 96, 128, 256})
      EXPECT_EQ(cuda::rsa_kernel_supports(k, words), words >= 16 && words <= 64)
          << cuda::rsa_kernel_name(k) << " " << words;
}

/// The emulated runs, once per kernel variant.
class RsaCudaEmulated : public ::testing::TestWithParam<cuda::RsaKernel> {
 protected:
  /// That the variant under test ran at least one launch on `dev`.
  void expect_variant_ran(const cuda::EmulatedDevice& dev) const {
    EXPECT_GT(dev.rsa_launches(GetParam()), 0u) << cuda::rsa_kernel_name(GetParam());
  }
};

INSTANTIATE_TEST_SUITE_P(Kernels, RsaCudaEmulated,
                         ::testing::Values(cuda::RsaKernel::thread, cuda::RsaKernel::fp64, cuda::RsaKernel::group),
                         [](const auto& info) { return std::string(cuda::rsa_kernel_name(info.param)); });

TEST_P(RsaCudaEmulated, EveryKernelSizeAgainstOpenssl) {
  std::mt19937_64 rng(9009);
  TaskSet s;
  s.reserve(64);
  // Full-length secret exponents up to 2048-bit moduli; longer moduli with shorter exponents (the emulation runs
  // at the portable code's speed) — the arithmetic is the same per multiplication.
  struct Size {
    std::size_t bits, e_bits;
  };
  const Size sizes[] = {{512, 512}, {1024, 1024}, {1536, 1536}, {2048, 2048}, {3072, 700}, {4096, 500}, {8192, 130}};
  for (const Size& z : sizes) {
    const rsa::Modulus* m1 = s.add_modulus(rng, z.bits);
    const rsa::Modulus* m2 = s.add_modulus(rng, z.bits - 3);  // mixed keys; one shorter than its slot
    for (int i = 0; i < 3; ++i) s.add(rng, i % 2 ? m1 : m2, z.e_bits, RsaExpKind::secret);
    s.add(rng, m1, 17, RsaExpKind::public_e);
    s.add(rng, m2, 2, RsaExpKind::public_e);
    if (z.bits <= 2048) s.add(rng, m1, 65, RsaExpKind::public_e);
  }
  cuda::EmulatedDevice dev;
  cuda::run_rsa_tasks(dev, s.tasks, 2, GetParam());  // two jobs per launch: many launches over both streams
  EXPECT_GE(dev.rsa_launches(), 20u);
  expect_variant_ran(dev);
  EXPECT_EQ(dev.live_allocations(), 0u);
  for (std::size_t t = 0; t < s.tasks.size(); ++t)
    EXPECT_EQ(s.outs[t], s.expected(t)) << "task " << t << ", " << 64 * s.tasks[t].modulus->limbs << "-bit slot";
}

TEST_P(RsaCudaEmulated, ZeroExponentAndEdgeBases) {
  std::mt19937_64 rng(10);
  TaskSet s;
  s.reserve(8);
  for (std::size_t bits : {1024, 2048}) {
    const std::size_t first = s.tasks.size();
    const rsa::Modulus* m = s.add_modulus(rng, bits);
    s.add(rng, m, 0, RsaExpKind::secret);  // x^0 = 1
    s.add(rng, m, bits, RsaExpKind::secret);
    s.bases[first + 1].assign(m->limbs, 0);  // 0^e = 0
    s.add(rng, m, bits, RsaExpKind::secret);
    s.bases[first + 2] = std::vector<limb>(m->n.v.begin(), m->n.v.end());
    s.bases[first + 2][0] -= 1;  // n - 1
    s.add(rng, m, 1, RsaExpKind::public_e);
    s.bases[first + 3] = s.bases[first + 2];  // (n - 1)^1
  }
  for (std::size_t t = 0; t < s.tasks.size(); ++t) s.tasks[t].base = s.bases[t].data();
  cuda::EmulatedDevice dev;
  cuda::run_rsa_tasks(dev, s.tasks, cuda::kRsaMaxJobsPerLaunch, GetParam());
  expect_variant_ran(dev);
  for (std::size_t t = 0; t < s.tasks.size(); ++t) EXPECT_EQ(s.outs[t], s.expected(t)) << t;
}

TEST(RsaCudaMultiDevice, TasksSpreadOverDevicesMatchOpenssl) {
  // Mixed sizes and kinds over three emulated devices, split by rsa_task_weight with a low minimum.
  std::mt19937_64 rng(77);
  TaskSet s;
  s.reserve(64);
  const rsa::Modulus* m512 = s.add_modulus(rng, 512);
  const rsa::Modulus* m1024 = s.add_modulus(rng, 1024);
  for (int i = 0; i < 20; ++i) s.add(rng, i % 3 ? m512 : m1024, i % 3 ? 512 : 1024, RsaExpKind::secret);
  for (int i = 0; i < 10; ++i) s.add(rng, m1024, 17, RsaExpKind::public_e);
  std::uint64_t total = 0;
  for (const RsaTask& t : s.tasks) total += cuda::rsa_task_weight(t);
  EXPECT_EQ(cuda::rsa_task_weight(s.tasks[0]), 16u * 16u * 1024u) << "limbs^2 x exponent bits";
  cuda::EmulatedDevice d0, d1, d2;
  std::vector<cuda::Device*> devices{&d0, &d1, &d2};
  cuda::run_rsa_tasks(cuda::DeviceSet::of(devices), s.tasks, 4, cuda::RsaKernel::thread, total / 4);
  for (const cuda::EmulatedDevice* d : {&d0, &d1, &d2}) EXPECT_GT(d->rsa_launches(), 0u) << "a device got no work";
  for (std::size_t t = 0; t < s.tasks.size(); ++t) EXPECT_EQ(s.outs[t], s.expected(t)) << t;
}

// --- the engine's operations (rsa_jobs.cpp) through the emulated device, against ref ---

rsa::PrivateKey three_prime_key(std::size_t bits) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* pkey = nullptr;
  EXPECT_EQ(EVP_PKEY_keygen_init(ctx), 1);
  EXPECT_EQ(EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, static_cast<int>(bits)), 1);
  EXPECT_EQ(EVP_PKEY_CTX_set_rsa_keygen_primes(ctx, 3), 1);
  EXPECT_EQ(EVP_PKEY_generate(ctx, &pkey), 1);
  BIO* bio = BIO_new(BIO_s_mem());
  EXPECT_EQ(PEM_write_bio_PrivateKey(bio, pkey, nullptr, nullptr, 0, nullptr, nullptr), 1);
  char* p = nullptr;
  const long n = BIO_get_mem_data(bio, &p);
  std::string pem(p, static_cast<std::size_t>(n));
  BIO_free(bio);
  EVP_PKEY_free(pkey);
  EVP_PKEY_CTX_free(ctx);
  return rsa::PrivateKey::from_pem(pem);
}

TEST_P(RsaCudaEmulated, EnginePathsEqualRef) {
  std::mt19937_64 rng(11);
  std::vector<rsa::PrivateKey> keys;
  keys.push_back(rsa::PrivateKey::generate(1024));
  keys.push_back(rsa::PrivateKey::generate(2048));
  keys.push_back(three_prime_key(1024));
  ASSERT_TRUE(keys[0].impl().crt);
  ASSERT_FALSE(keys[2].impl().crt);
  std::vector<rsa::PublicKey> pubs;
  for (const auto& k : keys) pubs.push_back(k.public_key());
  cuda::EmulatedDevice dev;
  const cuda::RsaRunner run = [&](std::span<const RsaTask> tasks) { cuda::run_rsa_tasks(dev, tasks, 3, GetParam()); };
  const engine::Engine& ref = ref::ref_engine();
  // Mixed keys in one batch: 9 private and 9 public operations on random inputs below each modulus.
  std::vector<bytes> in, got, want;
  std::vector<engine::RsaPrivateJob> pj, pj_ref;
  std::vector<engine::RsaPublicJob> uj, uj_ref;
  const std::size_t jobs = 9;
  in.reserve(jobs), got.reserve(2 * jobs), want.reserve(2 * jobs);
  for (std::size_t i = 0; i < jobs; ++i) {
    const rsa::PrivateKey& k = keys[i % keys.size()];
    const std::vector<limb> x = below(k.impl().pubi().mod);
    bytes b(k.size());
    rsa::with_limbs(x.size(), [&](auto L) { bn::to_bytes<decltype(L)::value>(b.data(), b.size(), x.data()); });
    in.push_back(b);
  }
  for (std::size_t i = 0; i < jobs; ++i) {
    got.emplace_back(in[i].size()), want.emplace_back(in[i].size());
    pj.push_back({&keys[i % keys.size()], in[i].data(), got.back().data()});
    pj_ref.push_back({&keys[i % keys.size()], in[i].data(), want.back().data()});
  }
  for (std::size_t i = 0; i < jobs; ++i) {
    got.emplace_back(in[i].size()), want.emplace_back(in[i].size());
    uj.push_back({&pubs[i % keys.size()], in[i].data(), got.back().data()});
    uj_ref.push_back({&pubs[i % keys.size()], in[i].data(), want.back().data()});
  }
  cuda::rsa_private_jobs(pj, run);
  ref.run_rsa_private(pj_ref);
  cuda::rsa_public_jobs(uj, run);
  ref.run_rsa_public(uj_ref);
  for (std::size_t i = 0; i < 2 * jobs; ++i) EXPECT_EQ(got[i], want[i]) << (i < jobs ? "private " : "public ") << i % jobs;
  // The round trip closes: (x^d)^e = x.
  for (std::size_t i = 0; i < jobs; ++i) {
    bytes back(in[i].size());
    const engine::RsaPublicJob j{&pubs[i % keys.size()], got[i].data(), back.data()};
    ref.run_rsa_public({&j, 1});
    EXPECT_EQ(back, in[i]) << i;
  }
  // Raw modexp: a secret exponent on one modulus; an exponent longer than the modulus runs on the host instead.
  const rsa::Modulus& mod = keys[1].impl().pubi().mod;
  for (const std::size_t e_len : {std::size_t{3}, std::size_t{256}, std::size_t{300}}) {
    bytes e(e_len);
    for (auto& v : e) v = static_cast<std::uint8_t>(rng());
    std::vector<bytes> out(4, bytes(256)), ref_out(4, bytes(256));
    std::vector<engine::ModexpJob> mj, mj_ref;
    for (std::size_t i = 0; i < 4; ++i) {
      mj.push_back({in[1 + 3 * (i % 3)].data(), out[i].data()});
      mj_ref.push_back({in[1 + 3 * (i % 3)].data(), ref_out[i].data()});
    }
    const std::size_t before = dev.rsa_launches();
    cuda::rsa_modexp_jobs(mod, e, mj, run);
    ref.run_modexp(mod, e, mj_ref);
    EXPECT_EQ(out, ref_out) << "exponent of " << e_len << " bytes";
    EXPECT_EQ(dev.rsa_launches() > before, e_len <= 256) << e_len;
  }
  expect_variant_ran(dev);
  EXPECT_EQ(dev.live_allocations(), 0u);
}

}  // namespace
}  // namespace cryptaccel

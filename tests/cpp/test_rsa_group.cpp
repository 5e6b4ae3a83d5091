// The group RSA kernel variant without a GPU (src/cuda/rsa/lane_group.hpp, rsa_group_ops.hpp): the lane abstraction's
// shuffles and ballots against their CUDA semantics; the carry-lookahead against a serial ripple; the cooperative
// Montgomery product against OpenSSL (a b R^-1 mod n by BN_mod_mul) for every size the variant is built for, on
// random and edge operands (0, 1, n - 1, all-ones words, a modulus whose carries ripple through every lane); and whole
// launches (secret and public exponents, mixed moduli) through the emulation against BN_mod_exp. The full engine
// paths run in test_rsa_cuda_plan.cpp (Kernels/RsaCudaEmulated.*/group).
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bn_test_util.hpp"
#include "cryptaccel/error.hpp"
#include "cuda/rsa/lane_group.hpp"
#include "cuda/rsa/rsa_group_ops.hpp"
#include "cuda/rsa/rsa_kernel_variant.hpp"

namespace cryptaccel {
namespace {

using cuda::GroupNum;
using cuda::LaneWord;
using cuda::RsaExpKind;
using Words = std::vector<std::uint32_t>;

using test::Bn;
using test::Ctx;
using test::CtxDel;

Bn to_bn(const Words& a) {
  std::vector<std::uint8_t> be(4 * a.size());
  for (std::size_t k = 0; k < be.size(); ++k)
    be[be.size() - 1 - k] = static_cast<std::uint8_t>(a[k / 4] >> (8 * (k % 4)));
  return Bn(BN_bin2bn(be.data(), static_cast<int>(be.size()), nullptr));
}

Words from_bn(const BIGNUM* b, std::size_t n) {
  std::vector<std::uint8_t> be(4 * n);
  EXPECT_GE(BN_bn2binpad(b, be.data(), static_cast<int>(be.size())), 0);
  Words out(n, 0);
  for (std::size_t k = 0; k < be.size(); ++k)
    out[k / 4] |= static_cast<std::uint32_t>(be[be.size() - 1 - k]) << (8 * (k % 4));
  return out;
}

template <unsigned T, std::size_t L>
GroupNum<T, L> to_group(const Words& x) {
  GroupNum<T, L> g;
  for (unsigned l = 0; l < T; ++l)
    for (std::size_t s = 0; s < L; ++s) g.w[s].v[l] = x[l * L + s];
  return g;
}

template <unsigned T, std::size_t L>
Words from_group(const GroupNum<T, L>& g) {
  Words x(T * L);
  for (unsigned l = 0; l < T; ++l)
    for (std::size_t s = 0; s < L; ++s) x[l * L + s] = g.w[s].v[l];
  return x;
}

// --- the lane abstraction ---

template <unsigned T>
void check_lanes(std::mt19937_64& rng) {
  SCOPED_TRACE("lanes " + std::to_string(T));
  LaneWord<T> x;
  for (unsigned i = 0; i < T; ++i) x.v[i] = static_cast<std::uint32_t>(rng());
  const LaneWord<T> idx = LaneWord<T>::index();
  for (unsigned i = 0; i < T; ++i) EXPECT_EQ(idx.v[i], i);
  for (unsigned src : {0u, 1u, T / 2, T - 1}) {
    const LaneWord<T> b = cuda::shfl(x, src);
    for (unsigned i = 0; i < T; ++i) EXPECT_EQ(b.v[i], x.v[src]) << "shfl " << src << " lane " << i;
  }
  for (unsigned d : {1u, 3u}) {
    const LaneWord<T> dn = cuda::shfl_down(x, d), up = cuda::shfl_up(x, d);
    for (unsigned i = 0; i < T; ++i) {
      // CUDA: a lane whose source is outside the group (segment of width T) keeps its own value.
      EXPECT_EQ(dn.v[i], i + d < T ? x.v[i + d] : x.v[i]) << "shfl_down " << d << " lane " << i;
      EXPECT_EQ(up.v[i], i >= d ? x.v[i - d] : x.v[i]) << "shfl_up " << d << " lane " << i;
    }
  }
  for (int trial = 0; trial < 8; ++trial) {
    LaneWord<T> p;
    std::uint32_t want = 0;
    for (unsigned i = 0; i < T; ++i) {
      const bool on = rng() & 1;
      p.v[i] = on ? static_cast<std::uint32_t>(rng() | 0x100) : 0;  // any nonzero word counts
      want |= static_cast<std::uint32_t>(on) << i;
    }
    const std::uint32_t got = cuda::ballot(p);
    EXPECT_EQ(got, want);
    const LaneWord<T> bits = cuda::lane_bit<T>(got);
    for (unsigned i = 0; i < T; ++i) EXPECT_EQ(bits.v[i], (want >> i) & 1);
  }
  std::uint32_t full = 0;
  for (unsigned i = 0; i < T; ++i) full |= 1u << i;
  EXPECT_EQ(cuda::ballot(LaneWord<T>::all(7)), full);
  EXPECT_EQ(cuda::ballot(LaneWord<T>::all(0)), 0u);
  // Elementwise arithmetic: mac per lane is the scalar mac.
  LaneWord<T> y, z, carry = LaneWord<T>::all(0), c2;
  for (unsigned i = 0; i < T; ++i) {
    y.v[i] = static_cast<std::uint32_t>(rng());
    z.v[i] = static_cast<std::uint32_t>(rng());
  }
  c2 = carry;
  const LaneWord<T> r = cuda::mac(x, y, z, carry);
  for (unsigned i = 0; i < T; ++i) {
    const std::uint64_t p = std::uint64_t{x.v[i]} * y.v[i] + z.v[i] + c2.v[i];
    EXPECT_EQ(r.v[i], static_cast<std::uint32_t>(p));
    EXPECT_EQ(carry.v[i], static_cast<std::uint32_t>(p >> 32));
  }
}

TEST(RsaGroupLanes, ShufflesBallotsAndElementwise) {
  std::mt19937_64 rng(91);
  check_lanes<8>(rng);
  check_lanes<16>(rng);
  check_lanes<32>(rng);
}

TEST(RsaGroupLanes, CarryLookaheadIsTheRipple) {
  // For disjoint generate / propagate masks, the carry into each lane and out of the top lane, serially.
  std::mt19937_64 rng(92);
  for (int trial = 0; trial < 2000; ++trial) {
    std::uint32_t g = 0, p = 0;
    for (unsigned i = 0; i < 32; ++i) {
      const unsigned kind = rng() % (trial % 2 ? 3 : 8);  // odd trials: long propagate runs
      if (kind == 0) g |= 1u << i;
      else if (kind != 1) p |= 1u << i;
    }
    std::uint32_t out = 0;
    const LaneWord<32> cin = cuda::group_detail::carry_in<32>(g, p, out);
    std::uint32_t c = 0;
    for (unsigned i = 0; i < 32; ++i) {
      ASSERT_EQ(cin.v[i], c) << "lane " << i << " g " << g << " p " << p;
      c = ((g >> i) & 1) | (((p >> i) & 1) & c);
    }
    ASSERT_EQ(out, c);
  }
  // And for 8 lanes (bits above T are zero).
  std::uint32_t out = 0;
  const LaneWord<8> cin = cuda::group_detail::carry_in<8>(0x01, 0xfe, out);  // lane 0 generates, all others pass it
  for (unsigned i = 1; i < 8; ++i) EXPECT_EQ(cin.v[i], 1u);
  EXPECT_EQ(cin.v[0], 0u);
  EXPECT_EQ(out, 1u);
}

TEST(RsaGroupLanes, ShapesPerSize) {
  static_assert(cuda::rsa_group_lanes(16) == 8 && cuda::rsa_group_lanes(32) == 8, "the shapes tested below");
  static_assert(cuda::rsa_group_lanes(48) == 16 && cuda::rsa_group_lanes(64) == 16, "the shapes tested below");
  for (std::size_t words : {16, 32, 48, 64}) {
    EXPECT_TRUE(cuda::rsa_group_supports(words)) << words;
    const unsigned t = cuda::rsa_group_lanes(words);
    EXPECT_TRUE(t == 8 || t == 16 || t == 32) << words;
    EXPECT_EQ(words % t, 0u) << words;
  }
  for (std::size_t words : {0, 8, 24, 96, 128, 256}) EXPECT_FALSE(cuda::rsa_group_supports(words)) << words;
}

// --- the cooperative Montgomery product ---

/// Checks group_mont_mul(a, b) == a b R^-1 mod n and the square for N = T L words.
template <unsigned T, std::size_t L>
struct ProductCheck {
  static constexpr std::size_t N = T * L;
  Words n;
  std::uint32_t n0;
  Bn bnn, rinv;
  Ctx ctx{BN_CTX_new()};
  explicit ProductCheck(Words modulus) : n(std::move(modulus)), n0(algo::bn::mont_n0(n[0])), bnn(to_bn(n)) {
    Bn r(BN_new());
    BN_one(r.get());
    BN_lshift(r.get(), r.get(), static_cast<int>(32 * N));
    rinv.reset(BN_mod_inverse(nullptr, r.get(), bnn.get(), ctx.get()));
  }
  void check(const Words& a, const Words& b, const std::string& what) {
    SCOPED_TRACE(what);
    const auto ga = to_group<T, L>(a), gb = to_group<T, L>(b), gn = to_group<T, L>(n);
    const LaneWord<T> gn0 = LaneWord<T>::all(n0);
    GroupNum<T, L> p, s;
    cuda::group_mont_mul(p, ga, gb, gn, gn0);
    cuda::group_mont_mul(s, ga, ga, gn, gn0);
    Bn want(BN_new());
    BN_mod_mul(want.get(), to_bn(a).get(), to_bn(b).get(), bnn.get(), ctx.get());
    BN_mod_mul(want.get(), want.get(), rinv.get(), bnn.get(), ctx.get());
    EXPECT_EQ(from_group(p), from_bn(want.get(), N)) << "product";
    BN_mod_mul(want.get(), to_bn(a).get(), to_bn(a).get(), bnn.get(), ctx.get());
    BN_mod_mul(want.get(), want.get(), rinv.get(), bnn.get(), ctx.get());
    EXPECT_EQ(from_group(s), from_bn(want.get(), N)) << "square";
    GroupNum<T, L> alias = ga;  // r aliasing a
    cuda::group_mont_mul(alias, alias, gb, gn, gn0);
    EXPECT_EQ(from_group(alias), from_group(p)) << "aliased";
  }
  Words random_below(std::mt19937_64&) {
    Bn r(BN_new());
    BN_rand_range(r.get(), bnn.get());
    return from_bn(r.get(), N);
  }
  Words minus(std::uint32_t k) const {  // n - k
    Bn x = to_bn(n);
    BN_sub_word(x.get(), k);
    return from_bn(x.get(), N);
  }
};

template <unsigned T, std::size_t L>
void check_products(std::mt19937_64& rng) {
  constexpr std::size_t N = T * L;
  SCOPED_TRACE("words " + std::to_string(N) + " = " + std::to_string(T) + " lanes x " + std::to_string(L));
  std::vector<Words> moduli;
  Words n(N);
  for (auto& w : n) w = static_cast<std::uint32_t>(rng());
  n[N - 1] |= 0x80000000u, n[0] |= 1;
  moduli.push_back(n);  // random, full length
  n[N - 1] >>= 7;
  moduli.push_back(n);  // shorter than its slot (t near 2n leaves word N at 0)
  moduli.push_back(Words(N, 0xffffffffu));  // 2^(32N) - 1: every word all ones, carries through every lane
  Words sparse(N, 0);
  sparse[0] = 1, sparse[N - 1] = 0x80000000u;  // 2^(32N-1) + 1: long runs of zero words (borrows ripple)
  moduli.push_back(sparse);
  for (const Words& m : moduli) {
    ProductCheck<T, L> pc(m);
    Words zero(N, 0), one(N, 0), ones_top(N, 0);
    one[0] = 1;
    for (std::size_t k = N / 2; k < N; ++k) ones_top[k] = 0xffffffffu;  // all-ones top words, reduced below n
    {
      Bn v = to_bn(ones_top), r(BN_new());
      BN_mod(r.get(), v.get(), pc.bnn.get(), pc.ctx.get());
      ones_top = from_bn(r.get(), N);
    }
    const Words nm1 = pc.minus(1), nm2 = pc.minus(2);
    pc.check(zero, pc.random_below(rng), "0 * x");
    pc.check(one, one, "1 * 1");
    pc.check(one, nm1, "1 * (n - 1)");
    pc.check(nm1, nm1, "(n - 1)^2");
    pc.check(nm1, nm2, "(n - 1)(n - 2)");
    pc.check(ones_top, nm1, "all-ones top words * (n - 1)");
    pc.check(ones_top, ones_top, "all-ones top words squared");
    for (int t = 0; t < 6; ++t) pc.check(pc.random_below(rng), pc.random_below(rng), "random " + std::to_string(t));
  }
}

TEST(RsaGroupMont, ProductAndSquareAgainstBn) {
  std::mt19937_64 rng(93);
  check_products<8, 2>(rng);
  check_products<8, 4>(rng);
  check_products<16, 3>(rng);
  check_products<16, 4>(rng);
  // Other lane counts the same code allows (a GPU run may pick them): 32 lanes x 2 words, 8 lanes x 8 words.
  check_products<32, 2>(rng);
  check_products<8, 8>(rng);
}

// --- whole launches through the emulation ---

/// A launch of `jobs` exponentiations with `N`-word moduli (one of two random moduli per job), exponents of up to
/// `e_bits` bits (random lengths, including 0 and 1), bases below the modulus (0, 1, n - 1 among them); checks every
/// result against BN_mod_exp.
void check_launch(std::mt19937_64& rng, std::size_t N, RsaExpKind kind, std::size_t e_bits, std::size_t jobs) {
  SCOPED_TRACE("words " + std::to_string(N) + (kind == RsaExpKind::secret ? " secret" : " public") + " e_bits " +
               std::to_string(e_bits));
  Ctx ctx(BN_CTX_new());
  const std::uint32_t E = kind == RsaExpKind::secret ? static_cast<std::uint32_t>(N)
                                                     : static_cast<std::uint32_t>((e_bits + 31) / 32);
  const cuda::RsaLayout lay = cuda::RsaLayout::of(jobs, N, E);
  std::vector<cuda::rsa_word> buf(lay.words, 0);
  std::vector<Words> mods, bases, exps;
  for (int m = 0; m < 2; ++m) {
    Words n(N);
    for (auto& w : n) w = static_cast<std::uint32_t>(rng());
    n[N - 1] |= 0x80000000u, n[0] |= 1;
    if (m == 1) n[N - 1] >>= 3;  // mixed keys, one shorter than the slot
    mods.push_back(n);
  }
  for (std::size_t j = 0; j < jobs; ++j) {
    const Words& n = mods[j % 2];
    Bn bnn = to_bn(n), r(BN_new()), rr(BN_new()), x(BN_new());
    BN_one(r.get());
    BN_lshift(r.get(), r.get(), static_cast<int>(64 * N));
    BN_mod(rr.get(), r.get(), bnn.get(), ctx.get());  // R^2 mod n
    BN_rand_range(x.get(), bnn.get());
    Words base = from_bn(x.get(), N);
    if (j == 1) base.assign(N, 0);
    if (j == 2) base.assign(N, 0), base[0] = 1;
    if (j == 3) base = n, base[0] -= 1;
    Words e(E, 0);
    const std::size_t bits = j == 0 ? 0 : j == 4 ? 1 : j % 3 == 0 ? e_bits : 1 + rng() % e_bits;
    for (std::size_t b = 0; b < bits; ++b) e[b / 32] |= static_cast<std::uint32_t>(rng() & 1) << (b % 32);
    if (bits) e[(bits - 1) / 32] |= 1u << ((bits - 1) % 32);
    const Words rrw = from_bn(rr.get(), N);
    for (std::size_t k = 0; k < N; ++k) {
      buf[lay.x + k * jobs + j] = base[k];
      buf[lay.n + k * jobs + j] = n[k];
      buf[lay.rr + k * jobs + j] = rrw[k];
    }
    for (std::size_t k = 0; k < E; ++k) buf[lay.e + k * jobs + j] = e[k];
    buf[lay.n0 + j] = algo::bn::mont_n0(n[0]);
    bases.push_back(base);
    exps.push_back(e);
  }
  const cuda::RsaModexpArgs args =
      cuda::rsa_args(buf.data(), jobs, N, E, static_cast<std::uint32_t>(kind == RsaExpKind::secret ? e_bits : 0));
  cuda::rsa_emulate(args, N, kind, cuda::RsaKernel::group);
  for (std::size_t j = 0; j < jobs; ++j) {
    Bn want(BN_new());
    BN_mod_exp(want.get(), to_bn(bases[j]).get(), to_bn(exps[j]).get(), to_bn(mods[j % 2]).get(), ctx.get());
    Words got(N);
    for (std::size_t k = 0; k < N; ++k) got[k] = buf[lay.x + k * jobs + j];
    EXPECT_EQ(got, from_bn(want.get(), N)) << "job " << j;
  }
}

TEST(RsaGroupExp, LaunchesAgainstBnModExp) {
  std::mt19937_64 rng(94);
  // Secret exponents of full length for every size (exponents of random lengths up to it; 0 and 1 among them).
  check_launch(rng, 16, RsaExpKind::secret, 512, 7);
  check_launch(rng, 32, RsaExpKind::secret, 1024, 6);
  check_launch(rng, 48, RsaExpKind::secret, 1536, 6);
  check_launch(rng, 64, RsaExpKind::secret, 2048, 6);
  check_launch(rng, 64, RsaExpKind::secret, 301, 5);  // a bound that is not a multiple of the window
  // Public exponents: binary over E words.
  check_launch(rng, 16, RsaExpKind::public_e, 17, 5);
  check_launch(rng, 32, RsaExpKind::public_e, 65, 5);
  check_launch(rng, 48, RsaExpKind::public_e, 33, 5);
  check_launch(rng, 64, RsaExpKind::public_e, 17, 5);
}

TEST(RsaGroupExp, UnsupportedSizesThrow) {
  cuda::RsaModexpArgs a;
  EXPECT_THROW(cuda::rsa_emulate_group(a, 96, RsaExpKind::secret), InvalidArgument);
  EXPECT_THROW(cuda::rsa_emulate(a, 128, RsaExpKind::secret, cuda::RsaKernel::group), InvalidArgument);
}

}  // namespace
}  // namespace cryptaccel

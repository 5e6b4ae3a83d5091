// The cpu engine's MULX/ADX Montgomery kernels (src/rsa/mont_mulx.hpp) at every limb count RSA uses, against two
// oracles: OpenSSL's BN_mod_mul_montgomery and BN_from_montgomery (independent code) and the portable kernels (bn::PortableMont), on random
// operands and on the edges of the carry chains: 0, 1, n - 1, R mod n, moduli whose limbs are all ones (n = 2^k - 1,
// the largest N-limb modulus) or whose top limb is, and the smallest N-limb modulus 2^(64(N-1)) + 1. Products are
// also chained (a Montgomery exponentiation with the kernels against BN_mod_exp), so that outputs feed inputs as in
// RSA. Skipped, saying why, on a CPU without BMI2 and ADX; the host-Mont dispatcher's choice is checked too, and the
// SSE2 window-table lookup (MulxMont::lookup, any x86-64) against bn::ct_lookup.
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bn_test_util.hpp"
#include "algo/montgomery.hpp"
#include "common/cpu_features.hpp"
#include "rsa/mont_mulx.hpp"
#include "rsa/host_mont.hpp"

namespace cryptaccel {
namespace {

namespace bn = algo::bn;
using bn::limb;
using rsa::MulxMont;

using test::Bn;
using test::Ctx;
using test::CtxDel;

// mont_exp_ct reads its window table through MulxMont's SSE2 lookup (ops_lookup), the portable code through ct_lookup.
static_assert(bn::HasLookup<MulxMont, 16, limb>::value);
static_assert(!bn::HasLookup<bn::PortableMont, 16, limb>::value);
struct MontDel {
  void operator()(BN_MONT_CTX* m) const { BN_MONT_CTX_free(m); }
};

// Limbs are little-endian 64-bit words: on x86-64 their bytes are the number's little-endian bytes.
Bn to_bn(const std::vector<limb>& a) {
  return Bn(BN_lebin2bn(reinterpret_cast<const unsigned char*>(a.data()), static_cast<int>(8 * a.size()), nullptr));
}

std::vector<limb> from_bn(const BIGNUM* b, std::size_t n) {
  std::vector<limb> out(n);
  EXPECT_GE(BN_bn2lebinpad(b, reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(8 * n)), 0);
  return out;
}

#define SKIP_WITHOUT_MULX()                                                                             \
  if (!rsa::mulx_adx_available())                                                                       \
  GTEST_SKIP() << "this CPU (after CRYPTACCEL_CPU_MASK) lacks BMI2 or ADX: the MULX/ADX kernels are not tested " \
                  "(features: "                                                                         \
               << cryptaccel::cpu_features().names() << ")"

/// The moduli of one limb count: random full-size ones, and the edge shapes.
template <std::size_t N>
std::vector<std::vector<limb>> moduli(std::mt19937_64& rng) {
  std::vector<std::vector<limb>> out;
  for (int i = 0; i < 4; ++i) {  // random, top bit set
    std::vector<limb> n(N);
    for (limb& x : n) x = rng();
    n[0] |= 1, n[N - 1] |= limb{1} << 63;
    out.push_back(n);
  }
  out.emplace_back(N, ~limb{0});  // 2^(64N) - 1: every limb all ones
  std::vector<limb> top(N);       // top limb all ones, the rest random
  for (limb& x : top) x = rng();
  top[0] |= 1, top[N - 1] = ~limb{0};
  out.push_back(top);
  std::vector<limb> low(N, 0);  // 2^(64(N-1)) + 1: the smallest N-limb modulus (n0 = -1)
  low[0] = 1, low[N - 1] = 1;
  out.push_back(low);
  std::vector<limb> mid(N, 0);  // 2^(32 N) - 1 style: half the limbs all ones, a small-ish modulus in N limbs
  for (std::size_t i = 0; i < N / 2; ++i) mid[i] = ~limb{0};
  out.push_back(mid);
  return out;
}

/// Operands below n: 0, 1, 2, n - 1, n - 2, R mod n, R^2 mod n, and random ones.
template <std::size_t N>
std::vector<std::vector<limb>> operands(const std::vector<limb>& n) {
  std::vector<std::vector<limb>> out;
  auto small = [&](limb v) {
    std::vector<limb> x(N, 0);
    x[0] = v;
    out.push_back(x);
  };
  small(0), small(1), small(2);
  const Bn bnn = to_bn(n);
  for (int d : {1, 2}) {
    Bn x(BN_dup(bnn.get()));
    EXPECT_EQ(BN_sub_word(x.get(), d), 1);
    out.push_back(from_bn(x.get(), N));
  }
  std::vector<limb> one(N), rr(N);
  bn::mont_constants<N>(one.data(), rr.data(), n.data());
  out.push_back(one), out.push_back(rr);
  for (int i = 0; i < 6; ++i) {
    Bn r(BN_new());
    EXPECT_EQ(BN_rand_range(r.get(), bnn.get()), 1);
    out.push_back(from_bn(r.get(), N));
  }
  return out;
}

template <std::size_t N>
void check_products() {
  std::mt19937_64 rng(0x6d756c78 + N);
  std::unique_ptr<BN_CTX, CtxDel> ctx(BN_CTX_new());
  for (const std::vector<limb>& n : moduli<N>(rng)) {
    SCOPED_TRACE("modulus top limb " + std::to_string(n[N - 1]) + ", low limb " + std::to_string(n[0]));
    const limb n0 = bn::mont_n0(n[0]);
    const Bn bnn = to_bn(n);
    std::unique_ptr<BN_MONT_CTX, MontDel> mont(BN_MONT_CTX_new());
    ASSERT_EQ(BN_MONT_CTX_set(mont.get(), bnn.get(), ctx.get()), 1);
    const std::vector<std::vector<limb>> ops = operands<N>(n);
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Bn bi = to_bn(ops[i]);
      // square: against OpenSSL and against the portable kernel; also in place (r aliases a)
      {
        std::vector<limb> r(N), p(N), inplace = ops[i];
        MulxMont::sqr<N>(r.data(), ops[i].data(), n.data(), n0);
        bn::PortableMont::sqr<N>(p.data(), ops[i].data(), n.data(), n0);
        MulxMont::sqr<N>(inplace.data(), inplace.data(), n.data(), n0);
        Bn e(BN_new());
        ASSERT_EQ(BN_mod_mul_montgomery(e.get(), bi.get(), bi.get(), mont.get(), ctx.get()), 1);
        EXPECT_EQ(r, from_bn(e.get(), N)) << "sqr, operand " << i;
        EXPECT_EQ(r, p) << "sqr vs portable, operand " << i;
        EXPECT_EQ(inplace, r) << "sqr in place, operand " << i;
      }
      for (std::size_t j = 0; j < ops.size(); ++j) {
        std::vector<limb> r(N), p(N), ra = ops[i], rb = ops[j];
        MulxMont::mul<N>(r.data(), ops[i].data(), ops[j].data(), n.data(), n0);
        bn::PortableMont::mul<N>(p.data(), ops[i].data(), ops[j].data(), n.data(), n0);
        MulxMont::mul<N>(ra.data(), ra.data(), ops[j].data(), n.data(), n0);
        MulxMont::mul<N>(rb.data(), ops[i].data(), rb.data(), n.data(), n0);
        const Bn bj = to_bn(ops[j]);
        Bn e(BN_new());
        ASSERT_EQ(BN_mod_mul_montgomery(e.get(), bi.get(), bj.get(), mont.get(), ctx.get()), 1);
        EXPECT_EQ(r, from_bn(e.get(), N)) << "mul, operands " << i << ", " << j;
        EXPECT_EQ(r, p) << "mul vs portable, operands " << i << ", " << j;
        EXPECT_EQ(ra, r) << "mul, r aliasing a, operands " << i << ", " << j;
        EXPECT_EQ(rb, r) << "mul, r aliasing b, operands " << i << ", " << j;
        // REDC of the full product a b < n^2 < n R: against BN_from_montgomery and the portable REDC
        std::vector<limb> t(2 * N), tp, rr(N), pr(N);
        bn::mul_full<N>(t.data(), ops[i].data(), ops[j].data());
        tp = t;
        const Bn bt = Bn(BN_lebin2bn(reinterpret_cast<const unsigned char*>(t.data()), static_cast<int>(16 * N), nullptr));
        MulxMont::redc<N>(rr.data(), t.data(), n.data(), n0);
        bn::PortableMont::redc<N>(pr.data(), tp.data(), n.data(), n0);
        Bn f(BN_new());
        ASSERT_EQ(BN_from_montgomery(f.get(), bt.get(), mont.get(), ctx.get()), 1);
        EXPECT_EQ(rr, from_bn(f.get(), N)) << "redc, operands " << i << ", " << j;
        EXPECT_EQ(rr, pr) << "redc vs portable, operands " << i << ", " << j;
      }
    }
  }
}

/// A constant-time Montgomery exponentiation on the MULX kernels (outputs feeding inputs) against BN_mod_exp.
template <std::size_t N>
void check_exponentiation() {
  std::mt19937_64 rng(0x657870 + N);
  std::unique_ptr<BN_CTX, CtxDel> ctx(BN_CTX_new());
  std::vector<limb> n(N);
  for (limb& x : n) x = rng();
  n[0] |= 1, n[N - 1] |= limb{1} << 63;
  std::vector<limb> one(N), rr(N), base(N), e(N), x(N);
  bn::mont_constants<N>(one.data(), rr.data(), n.data());
  const bn::MontView m{n.data(), rr.data(), one.data(), bn::mont_n0(n[0])};
  const Bn bnn = to_bn(n);
  Bn b(BN_new()), be(BN_new()), want(BN_new());
  ASSERT_EQ(BN_rand_range(b.get(), bnn.get()), 1);
  const std::size_t bits = N <= 32 ? 64 * N : 256;  // keep the 6144/8192-bit cases short
  ASSERT_EQ(BN_rand(be.get(), static_cast<int>(bits), BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY), 1);
  base = from_bn(b.get(), N), e = from_bn(be.get(), N);
  bn::to_mont<N, MulxMont>(x.data(), base.data(), m);
  bn::mont_exp_ct<N, MulxMont>(x.data(), x.data(), e.data(), N, bits, m);
  bn::from_mont<N, MulxMont>(x.data(), x.data(), m);
  ASSERT_EQ(BN_mod_exp(want.get(), b.get(), be.get(), bnn.get(), ctx.get()), 1);
  EXPECT_EQ(x, from_bn(want.get(), N));
}

/// The SSE2 window-table scan against bn::ct_lookup (the portable scan, itself checked in test_rsa_arith.cpp) for
/// every index of a 32-entry table (mont_exp_ct's) and of a 3-entry one, with entries of random limbs.
template <std::size_t N>
void check_lookup() {
  std::mt19937_64 rng(0x6c6b + N);
  for (const std::size_t count : {std::size_t{32}, std::size_t{3}}) {
    std::vector<limb> table(count * N);
    for (limb& x : table) x = rng();
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<limb> got(N, ~limb{0}), want(N);
      MulxMont::lookup<N>(got.data(), table.data(), count, i);
      bn::ct_lookup<N>(want.data(), table.data(), count, limb{i});
      EXPECT_EQ(got, want) << "entry " << i << " of " << count;
      EXPECT_EQ(got, std::vector<limb>(table.begin() + i * N, table.begin() + (i + 1) * N));
    }
  }
}

template <class T>
class MulxMontTest : public ::testing::Test {};
using LimbCounts =
    ::testing::Types<std::integral_constant<std::size_t, 4>, std::integral_constant<std::size_t, 8>,
                     std::integral_constant<std::size_t, 12>, std::integral_constant<std::size_t, 16>,
                     std::integral_constant<std::size_t, 24>, std::integral_constant<std::size_t, 32>,
                     std::integral_constant<std::size_t, 48>, std::integral_constant<std::size_t, 64>,
                     std::integral_constant<std::size_t, 128>>;
TYPED_TEST_SUITE(MulxMontTest, LimbCounts);

TYPED_TEST(MulxMontTest, ProductsSquaresAndReductionsMatchOpenSslAndPortable) {
  SKIP_WITHOUT_MULX();
  check_products<TypeParam::value>();
}

TYPED_TEST(MulxMontTest, ExponentiationMatchesBnModExp) {
  SKIP_WITHOUT_MULX();
  check_exponentiation<TypeParam::value>();
}

TYPED_TEST(MulxMontTest, WindowLookupMatchesCtLookup) { check_lookup<TypeParam::value>(); }

TEST(HostMont, PortableWhenAskedOrWithoutMulx) {
  const bool mulx = rsa::with_host_mont(false, [](auto ops) { return std::is_same_v<decltype(ops), MulxMont>; });
  EXPECT_EQ(mulx, rsa::mulx_adx_available());
  const bool portable_ref =
      rsa::with_host_mont(true, [](auto ops) { return std::is_same_v<decltype(ops), bn::PortableMont>; });
  EXPECT_TRUE(portable_ref);
  const cryptaccel::CpuFeatures& f = cryptaccel::cpu_features();
  EXPECT_EQ(rsa::mulx_adx_available(), f.bmi2 && f.adx);
}

}  // namespace
}  // namespace cryptaccel

// Montgomery arithmetic (src/algo/bignum.hpp, montgomery.hpp) at every instantiated limb count against OpenSSL's
// BN on random operands: CIOS products, squares, REDC, R and R^2, constant-time and public exponentiation, CT
// lookup and modular subtraction; the raw modexp API against BN_mod_exp for moduli of many sizes.
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <memory>
#include <random>
#include <vector>

#include "bn_test_util.hpp"
#include "algo/montgomery.hpp"
#include "cryptaccel/rsa.hpp"
#include "rsa/modulus.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

namespace bn = algo::bn;
using bn::limb;

using test::Bn;
using test::Ctx;
using test::CtxDel;

Bn to_bn(const limb* a, std::size_t n) {
  bytes be(8 * n);
  for (std::size_t k = 0; k < be.size(); ++k) be[be.size() - 1 - k] = static_cast<std::uint8_t>(a[k / 8] >> (8 * (k % 8)));
  return Bn(BN_bin2bn(be.data(), static_cast<int>(be.size()), nullptr));
}

std::vector<limb> from_bn(const BIGNUM* b, std::size_t n) {
  bytes be(8 * n);
  EXPECT_GE(BN_bn2binpad(b, be.data(), static_cast<int>(be.size())), 0);
  std::vector<limb> out(n);
  for (std::size_t k = 0; k < be.size(); ++k) out[k / 8] |= static_cast<limb>(be[be.size() - 1 - k]) << (8 * (k % 8));
  return out;
}

/// A random odd modulus of exactly 64n bits (or `bits` bits when given) and random operands below it.
template <std::size_t N>
class Fixture {
 public:
  explicit Fixture(std::mt19937_64& rng, std::size_t bits = 64 * N) : rng_(rng) {
    n.assign(N, 0);
    for (std::size_t i = 0; i < (bits + 63) / 64; ++i) n[i] = rng();
    if (bits % 64) n[bits / 64] &= (limb{1} << (bits % 64)) - 1;
    n[(bits - 1) / 64] |= limb{1} << ((bits - 1) % 64);
    n[0] |= 1;
    one.assign(N, 0), rr.assign(N, 0);
    bn::mont_constants<N>(one.data(), rr.data(), n.data());
    n0 = bn::mont_n0(n[0]);
    bnn = to_bn(n.data(), N);
  }
  std::vector<limb> below() {  // uniform-ish value < n
    Bn r(BN_new());
    BN_rand_range(r.get(), bnn.get());
    return from_bn(r.get(), N);
  }
  bn::MontView view() const { return {n.data(), rr.data(), one.data(), n0}; }
  std::mt19937_64& rng_;
  std::vector<limb> n, one, rr;
  limb n0;
  Bn bnn;
};

template <std::size_t N>
void check_size(std::mt19937_64& rng, std::size_t bits) {
  SCOPED_TRACE("limbs " + std::to_string(N) + ", modulus bits " + std::to_string(bits));
  Fixture<N> f(rng, bits);
  std::unique_ptr<BN_CTX, CtxDel> ctx(BN_CTX_new());
  // R mod n and R^2 mod n.
  Bn r(BN_new()), t(BN_new()), u(BN_new());
  BN_one(r.get());
  BN_lshift(r.get(), r.get(), static_cast<int>(64 * N));
  BN_mod(t.get(), r.get(), f.bnn.get(), ctx.get());
  EXPECT_EQ(BN_cmp(t.get(), to_bn(f.one.data(), N).get()), 0);
  BN_mod_sqr(u.get(), t.get(), f.bnn.get(), ctx.get());
  EXPECT_EQ(BN_cmp(u.get(), to_bn(f.rr.data(), N).get()), 0);
  // -n^-1 mod 2^64.
  EXPECT_EQ(f.n0 * f.n[0], ~limb{0});
  Bn rinv(BN_mod_inverse(nullptr, r.get(), f.bnn.get(), ctx.get()));
  for (int trial = 0; trial < (N >= 64 ? 2 : 6); ++trial) {
    const auto a = f.below(), b = f.below();
    Bn ba = to_bn(a.data(), N), bb = to_bn(b.data(), N), want(BN_new()), got;
    // CIOS product a b R^-1.
    std::vector<limb> p(N);
    bn::mont_mul<N>(p.data(), a.data(), b.data(), f.n.data(), f.n0);
    BN_mod_mul(want.get(), ba.get(), bb.get(), f.bnn.get(), ctx.get());
    BN_mod_mul(want.get(), want.get(), rinv.get(), f.bnn.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(p.data(), N).get()), 0) << "mont_mul";
    // Square a^2 R^-1, in place.
    std::vector<limb> s = a;
    bn::mont_sqr<N>(s.data(), s.data(), f.n.data(), f.n0);
    BN_mod_mul(want.get(), ba.get(), ba.get(), f.bnn.get(), ctx.get());
    BN_mod_mul(want.get(), want.get(), rinv.get(), f.bnn.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(s.data(), N).get()), 0) << "mont_sqr";
    // Full products.
    std::vector<limb> full(2 * N), full2(2 * N);
    bn::mul_full<N>(full.data(), a.data(), b.data());
    BN_mul(want.get(), ba.get(), bb.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(full.data(), 2 * N).get()), 0) << "mul_full";
    bn::sqr_full<N>(full2.data(), a.data());
    BN_sqr(want.get(), ba.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(full2.data(), 2 * N).get()), 0) << "sqr_full";
    // mod_sub.
    std::vector<limb> d(N);
    bn::mod_sub<N>(d.data(), a.data(), b.data(), f.n.data());
    BN_mod_sub(want.get(), ba.get(), bb.get(), f.bnn.get(), ctx.get());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(d.data(), N).get()), 0) << "mod_sub";
    // Exponentiation, constant time (secret exponent of a random length) and public.
    std::vector<limb> e(N);
    const std::size_t e_bits = 1 + rng() % (64 * N);
    for (std::size_t i = 0; i < N; ++i) e[i] = rng();
    for (std::size_t i = e_bits; i < 64 * N; ++i) e[i / 64] &= ~(limb{1} << (i % 64));
    Bn be = to_bn(e.data(), N);
    BN_mod_exp(want.get(), ba.get(), be.get(), f.bnn.get(), ctx.get());
    std::vector<limb> x(N), y(N);
    bn::to_mont<N>(x.data(), a.data(), f.view());
    bn::mont_exp_ct<N>(y.data(), x.data(), e.data(), N, e_bits, f.view());
    bn::from_mont<N>(y.data(), y.data(), f.view());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(y.data(), N).get()), 0) << "mont_exp_ct";
    bn::mont_exp_public<N>(y.data(), x.data(), e.data(), N, f.view());
    bn::from_mont<N>(y.data(), y.data(), f.view());
    EXPECT_EQ(BN_cmp(want.get(), to_bn(y.data(), N).get()), 0) << "mont_exp_public";
  }
  // REDC of a 2N-limb value below n R.
  const auto a = f.below(), b = f.below();
  std::vector<limb> full(2 * N), red(N);
  bn::mul_full<N>(full.data(), a.data(), b.data());
  Bn prod = to_bn(full.data(), 2 * N), want(BN_new());
  bn::redc<N>(red.data(), full.data(), f.n.data(), f.n0);
  BN_mod_mul(want.get(), prod.get(), rinv.get(), f.bnn.get(), ctx.get());
  EXPECT_EQ(BN_cmp(want.get(), to_bn(red.data(), N).get()), 0) << "redc";
}

TEST(RsaArith, MontgomeryEveryLimbCountAgainstBn) {
  std::mt19937_64 rng(9001);
  check_size<8>(rng, 512);
  check_size<16>(rng, 1024);
  check_size<16>(rng, 1000);  // a modulus shorter than its limbs
  check_size<24>(rng, 1536);
  check_size<32>(rng, 2048);
  check_size<48>(rng, 3072);
  check_size<64>(rng, 4096);
  check_size<128>(rng, 8192);
}

TEST(RsaArith, EdgeOperands) {
  // 0, 1 and n - 1 through products and exponentiation (exponent 0 gives 1, exponent 1 the base).
  std::mt19937_64 rng(7);
  constexpr std::size_t N = 16;
  Fixture<N> f(rng);
  std::unique_ptr<BN_CTX, CtxDel> ctx(BN_CTX_new());
  std::vector<limb> zero(N, 0), nm1 = f.n, e0(N, 0), e1(N, 0), x(N), y(N);
  nm1[0] -= 1;
  e1[0] = 1;
  bn::to_mont<N>(x.data(), nm1.data(), f.view());
  bn::mont_exp_ct<N>(y.data(), x.data(), e0.data(), N, 64 * N, f.view());
  bn::from_mont<N>(y.data(), y.data(), f.view());
  std::vector<limb> one(N, 0);
  one[0] = 1;
  EXPECT_EQ(y, one);
  bn::mont_exp_ct<N>(y.data(), x.data(), e1.data(), N, 64 * N, f.view());
  bn::from_mont<N>(y.data(), y.data(), f.view());
  EXPECT_EQ(y, nm1);
  bn::mont_mul<N>(y.data(), zero.data(), x.data(), f.n.data(), f.n0);
  EXPECT_EQ(y, zero);
  // (n-1)^2 = 1 mod n.
  bn::mont_sqr<N>(y.data(), x.data(), f.n.data(), f.n0);
  bn::from_mont<N>(y.data(), y.data(), f.view());
  EXPECT_EQ(y, one);
}

TEST(RsaArith, CtLookupAndMasks) {
  std::vector<limb> table(32 * 4);
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = 1000 + i;
  for (limb idx = 0; idx < 32; ++idx) {
    limb r[4];
    bn::ct_lookup<4>(r, table.data(), 32, idx);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(r[j], table[idx * 4 + j]);
  }
  EXPECT_EQ(bn::eq_mask(5, 5), ~limb{0});
  EXPECT_EQ(bn::eq_mask(5, 6), limb{0});
  EXPECT_EQ(bn::eq_mask(0, limb{1} << 63), limb{0});
}

TEST(RsaArith, ModexpBatchAgainstBnModExp) {
  std::mt19937_64 rng(42);
  std::unique_ptr<BN_CTX, CtxDel> ctx(BN_CTX_new());
  for (std::size_t bits : {17u, 64u, 521u, 1024u, 1500u, 2048u, 3071u, 4096u, 8192u}) {
    SCOPED_TRACE("modulus bits " + std::to_string(bits));
    bytes mod = test::random_bytes(rng, (bits + 7) / 8);
    if (bits % 8) mod[0] &= static_cast<std::uint8_t>((1u << (bits % 8)) - 1);
    mod[0] |= static_cast<std::uint8_t>(1u << ((bits - 1) % 8));
    mod.back() |= 1;
    const bytes e = test::random_bytes(rng, 1 + rng() % (bits >= 4096 ? 64 : bits / 8 + 8));
    std::vector<bytes> bases = {test::random_bytes(rng, mod.size()), test::random_bytes(rng, mod.size() + 5), bytes{},
                                bytes{1}, mod};
    std::vector<bytes_view> views(bases.begin(), bases.end());
    for (const char* engine : {"ref", "auto"}) {
      const auto got = rsa::modexp_batch(views, e, mod, BatchOptions{engine});
      ASSERT_EQ(got.size(), bases.size());
      Bn n(BN_bin2bn(mod.data(), static_cast<int>(mod.size()), nullptr));
      Bn be(BN_bin2bn(e.data(), static_cast<int>(e.size()), nullptr));
      for (std::size_t i = 0; i < bases.size(); ++i) {
        Bn b(BN_bin2bn(bases[i].data(), static_cast<int>(bases[i].size()), nullptr)), want(BN_new());
        BN_mod_exp(want.get(), b.get(), be.get(), n.get(), ctx.get());
        bytes w(mod.size());
        BN_bn2binpad(want.get(), w.data(), static_cast<int>(w.size()));
        EXPECT_EQ(test::to_hex(got[i]), test::to_hex(w)) << engine << " base " << i;
      }
    }
  }
  // A modulus with leading zero bytes keeps its length in the results; even moduli are refused.
  const bytes mod = {0, 0, 0x01, 0x01};  // 257
  const bytes base = {3};
  const std::vector<bytes_view> one_base = {base};
  const auto got = rsa::modexp_batch(one_base, bytes{2}, mod);
  EXPECT_EQ(test::to_hex(got[0]), "00000009");
  EXPECT_THROW(rsa::modexp_batch(one_base, bytes{2}, bytes{0x10, 0x00}), InvalidArgument);
  EXPECT_THROW(rsa::modexp_batch(one_base, bytes{2}, bytes{}), InvalidArgument);
}

}  // namespace
}  // namespace cryptaccel

// The AVX-512 IFMA exponentiation of the CRT halves of RSA-2048/3072/4096 (src/cpu/rsa_ifma.hpp) against OpenSSL's
// BN_mod_exp (independent code), at 1024, 1536 and 2048 bits: random odd moduli of the full size and shorter,
// random bases and exponents, and the edges: base 0, 1 and m - 1, exponent 0, 1 and all ones, the largest modulus
// 2^1024 - 1, two different moduli in the one call (the two halves must not mix). Skipped, saying why, on a CPU
// without IFMA. Random cases draw from a seed printed on failure; CRYPTACCEL_TEST_SEED replays one.
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>

#include "bn_test_util.hpp"
#include "test_util.hpp"
#include "cpu/rsa_ifma.hpp"

namespace cryptaccel {
namespace {

using algo::bn::limb;
using test::Bn;
using test::Ctx;

std::uint64_t seed() { return test::seed_or(20261127); }

constexpr int kMax = 32;  // 64-bit limbs of the largest size (2048 bits)

Bn to_bn(const limb x[kMax]) {
  Bn b(BN_new());
  BN_zero(b.get());
  for (int i = kMax - 1; i >= 0; --i) {
    BN_lshift(b.get(), b.get(), 64);
    BN_add_word(b.get(), x[i]);  // BN_ULONG is 64 bits on x86-64
  }
  return b;
}

std::string hex(const limb x[kMax]) {
  Bn b = to_bn(x);
  char* s = BN_bn2hex(b.get());
  std::string out(s);
  OPENSSL_free(s);
  return out;
}

/// base^e mod m by OpenSSL.
std::string expected(const limb base[kMax], const limb e[kMax], const limb m[kMax]) {
  Ctx ctx(BN_CTX_new());
  Bn r(BN_new()), b = to_bn(base), x = to_bn(e), n = to_bn(m);
  EXPECT_EQ(BN_mod_exp(r.get(), b.get(), x.get(), n.get(), ctx.get()), 1);
  limb out[kMax] = {};
  BN_bn2lebinpad(r.get(), reinterpret_cast<unsigned char*>(out), sizeof out);
  return hex(out);
}

/// A random odd modulus of `bits` bits (top bit set), zero above.
void random_modulus(limb m[kMax], int bits, std::mt19937_64& rng) {
  for (int i = 0; i < kMax; ++i) m[i] = rng();
  for (int b = bits; b < 64 * kMax; ++b) m[b / 64] &= ~(limb{1} << (b % 64));
  m[(bits - 1) / 64] |= limb{1} << ((bits - 1) % 64);
  m[0] |= 1;
}

/// A random value below m (a few bits shorter, so below it).
void random_below(limb x[kMax], const limb m[kMax], std::mt19937_64& rng) {
  int top = 64 * kMax - 1;
  while (top > 0 && !((m[top / 64] >> (top % 64)) & 1)) --top;
  for (int i = 0; i < kMax; ++i) x[i] = rng();
  for (int b = top; b < 64 * kMax; ++b) x[b / 64] &= ~(limb{1} << (b % 64));
}

/// Runs both halves at once at `Bits` and checks each against OpenSSL (values in kMax-limb arrays, zero above).
template <std::size_t Bits>
void check(const limb ba[kMax], const limb ea[kMax], const limb ma[kMax], const limb bb[kMax], const limb eb[kMax],
           const limb mb[kMax], const std::string& what) {
  const cpu::IfmaModulus<Bits> pa(ma), pb(mb);
  limb oa[kMax] = {}, ob[kMax] = {};
  cpu::ifma_mod_exp_x2<Bits>(oa, ba, ea, pa, ob, bb, eb, pb);
  EXPECT_EQ(hex(oa), expected(ba, ea, ma)) << what << " (first half, " << Bits << " bits)";
  EXPECT_EQ(hex(ob), expected(bb, eb, mb)) << what << " (second half, " << Bits << " bits)";
}

template <class T>
class RsaIfma : public testing::Test {
 protected:
  static constexpr std::size_t kBits = T::value;
  void SetUp() override {
    if (!cpu::ifma_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU (or CRYPTACCEL_CPU_MASK hides it)";
  }
};
using Sizes = testing::Types<std::integral_constant<std::size_t, 1024>, std::integral_constant<std::size_t, 1536>,
                             std::integral_constant<std::size_t, 2048>>;
TYPED_TEST_SUITE(RsaIfma, Sizes);

TYPED_TEST(RsaIfma, RandomModuliBasesAndExponentsMatchOpenssl) {
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() + bits);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  for (int round = 0; round < 12; ++round) {
    const int bits_a = round % 3 == 0 ? bits : bits - static_cast<int>(rng() % 200);
    const int bits_b = round % 4 == 0 ? bits : bits - static_cast<int>(rng() % 200);
    limb ma[kMax], mb[kMax], ba[kMax], bb[kMax], ea[kMax] = {}, eb[kMax] = {};
    random_modulus(ma, bits_a, rng);
    random_modulus(mb, bits_b, rng);
    random_below(ba, ma, rng);
    random_below(bb, mb, rng);
    for (int i = 0; i < bits / 64; ++i) ea[i] = rng(), eb[i] = rng();
    check<TestFixture::kBits>(ba, ea, ma, bb, eb, mb, "round " + std::to_string(round));
  }
}

TYPED_TEST(RsaIfma, Edges) {
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() ^ 0x5eed ^ bits);
  limb m_all[kMax] = {}, m_rand[kMax], zero[kMax] = {}, one[kMax] = {1}, ones[kMax] = {}, m_minus_1[kMax], x[kMax];
  for (int i = 0; i < bits / 64; ++i) m_all[i] = ~limb{0}, ones[i] = ~limb{0};  // 2^bits - 1 (odd)
  random_modulus(m_rand, bits, rng);
  for (const limb* m : {static_cast<const limb*>(m_all), static_cast<const limb*>(m_rand)}) {
    for (int i = 0; i < kMax; ++i) m_minus_1[i] = m[i];
    m_minus_1[0] -= 1;  // m is odd
    random_below(x, m, rng);
    check<TestFixture::kBits>(zero, ones, m, one, ones, m, "0^e and 1^e");
    check<TestFixture::kBits>(x, zero, m, x, one, m, "x^0 and x^1");
    check<TestFixture::kBits>(m_minus_1, ones, m, m_minus_1, one, m, "(m-1)^e");
    check<TestFixture::kBits>(x, ones, m, m_minus_1, zero, m, "x^(2^bits-1), (m-1)^0");
  }
  check<TestFixture::kBits>(x, ones, m_all, x, ones, m_rand, "two different moduli");
}

}  // namespace
}  // namespace cryptaccel

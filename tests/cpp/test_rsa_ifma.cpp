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

#include "ifma_test_util.hpp"
#include "test_util.hpp"
#include "cpu/rsa_ifma.hpp"

namespace cryptaccel {
namespace {

using test::ifma::expected;
using test::ifma::hex;
using test::ifma::kMax;
using test::ifma::limb;
using test::ifma::random_below;
using test::ifma::random_modulus;

std::uint64_t seed() { return test::seed_or(20261127); }

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
class RsaIfma : public test::ifma::Fixture<T> {};
using Sizes = test::ifma::Sizes;
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

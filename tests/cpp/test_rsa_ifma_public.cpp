// RSA's public operation on AVX-512 IFMA (cpu::ifma_mod_exp_public, src/cpu/rsa_ifma.hpp) against OpenSSL's BN_mod_exp
// at 2048, 3072 and 4096 bits: random odd moduli of the full size and shorter, random bases, the exponents RSA uses
// (65537, 3) and the ones that take the other branches (0, 1, 2 and other even ones, random 64-bit and full-size
// ones), and the edges base 0, 1, m - 1 and the modulus 2^bits - 1. Skipped, saying why, on a CPU without IFMA.
// Random cases draw from a seed printed on failure; CRYPTACCEL_TEST_SEED replays one.
#include <gtest/gtest.h>

#include <random>
#include <string>

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

std::uint64_t seed() { return test::seed_or(20261128); }

/// base^e mod m on the kernel (e of `e_limbs` limbs) against OpenSSL.
template <std::size_t Bits>
void check(const limb base[kMax], const limb e[kMax], std::size_t e_limbs, const limb m[kMax], const std::string& what) {
  const cpu::IfmaModulus<Bits> mod(m);
  limb out[kMax] = {};
  cpu::ifma_mod_exp_public<Bits>(out, base, e, e_limbs, mod);
  EXPECT_EQ(hex(out), expected(base, e, m)) << what << " (" << Bits << " bits)";
}

template <class T>
class RsaIfmaPublic : public test::ifma::Fixture<T> {};
TYPED_TEST_SUITE(RsaIfmaPublic, test::ifma::PublicSizes);

TYPED_TEST(RsaIfmaPublic, RandomModuliBasesAndExponentsMatchOpenssl) {
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() + bits);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  const limb small_exponents[] = {65537, 3, 1, 0, 2, 4, 65536, 0x10001000ull};
  for (int round = 0; round < 16; ++round) {
    const int m_bits = round % 2 == 0 ? bits : bits - 1 - static_cast<int>(rng() % 300);
    limb m[kMax], base[kMax], e[kMax] = {};
    random_modulus(m, m_bits, rng);
    random_below(base, m, rng);
    std::size_t e_limbs = 1;
    if (round < 8) {
      e[0] = small_exponents[round];
    } else if (round < 12) {
      e[0] = rng();
    } else {  // a full-size exponent, its top limb in the last place (e_limbs counts it)
      e_limbs = bits / 64;
      for (std::size_t i = 0; i < e_limbs; ++i) e[i] = rng();
    }
    check<TestFixture::kBits>(base, e, e_limbs, m, "round " + std::to_string(round) + ", e[0] = " + std::to_string(e[0]));
  }
}

TYPED_TEST(RsaIfmaPublic, Edges) {
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() ^ 0xe11 ^ bits);
  limb m_all[kMax] = {}, m_rand[kMax], zero[kMax] = {}, one[kMax] = {1}, m_minus_1[kMax], x[kMax];
  const limb f4[kMax] = {65537}, three[kMax] = {3}, two[kMax] = {2};
  for (int i = 0; i < bits / 64; ++i) m_all[i] = ~limb{0};  // 2^bits - 1 (odd)
  random_modulus(m_rand, bits, rng);
  for (const limb* m : {static_cast<const limb*>(m_all), static_cast<const limb*>(m_rand)}) {
    for (int i = 0; i < kMax; ++i) m_minus_1[i] = m[i];
    m_minus_1[0] -= 1;  // m is odd
    random_below(x, m, rng);
    check<TestFixture::kBits>(zero, f4, 1, m, "0^65537");
    check<TestFixture::kBits>(one, f4, 1, m, "1^65537");
    check<TestFixture::kBits>(m_minus_1, f4, 1, m, "(m-1)^65537");
    check<TestFixture::kBits>(m_minus_1, two, 1, m, "(m-1)^2");
    check<TestFixture::kBits>(x, three, 1, m, "x^3");
    check<TestFixture::kBits>(x, one, 1, m, "x^1");
    check<TestFixture::kBits>(x, zero, 1, m, "x^0");
    check<TestFixture::kBits>(x, f4, kMax, m, "x^65537 with e given as many limbs, zero above");
  }
  // Moduli just below 2^bits (top limb all ones, the rest random), where the last product (below 2m) can need bit
  // `bits`; reaching it takes a result below about m 2^-31, so this checks the neighbourhood, not that bit itself.
  for (int i = 0; i < 24; ++i) {
    limb m_top[kMax];
    random_modulus(m_top, bits, rng);
    m_top[bits / 64 - 1] = ~limb{0};
    random_below(x, m_top, rng);
    check<TestFixture::kBits>(x, i % 2 ? f4 : three, 1, m_top, "random base " + std::to_string(i) + " modulo ~2^bits");
  }
}

}  // namespace
}  // namespace cryptaccel

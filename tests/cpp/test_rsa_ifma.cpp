// The AVX-512 IFMA exponentiation of RSA-2048's CRT halves (src/cpu/rsa_ifma.hpp) against OpenSSL's BN_mod_exp
// (independent code): random odd moduli of 1024 bits and shorter (the radix-52 layout has 16 spare bits at the top),
// random bases and exponents, and the edges: base 0, 1 and m - 1, exponent 0, 1 and all ones, the largest modulus
// 2^1024 - 1, two different moduli in the one call (the two halves must not mix). Skipped, saying why, on a CPU
// without IFMA. Random cases draw from a seed printed on failure; CRYPTACCEL_TEST_SEED replays one.
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <cstdlib>
#include <random>
#include <string>

#include "bn_test_util.hpp"
#include "cpu/rsa_ifma.hpp"

namespace cryptaccel {
namespace {

using algo::bn::limb;
using test::Bn;
using test::Ctx;

std::uint64_t seed() {
  const char* s = std::getenv("CRYPTACCEL_TEST_SEED");
  return s && *s ? std::strtoull(s, nullptr, 0) : 20261127;
}

Bn to_bn(const limb x[16]) {
  Bn b(BN_new());
  BN_zero(b.get());
  for (int i = 15; i >= 0; --i) {
    BN_lshift(b.get(), b.get(), 64);
    BN_add_word(b.get(), x[i]);  // BN_ULONG is 64 bits on x86-64
  }
  return b;
}

std::string hex(const limb x[16]) {
  Bn b = to_bn(x);
  char* s = BN_bn2hex(b.get());
  std::string out(s);
  OPENSSL_free(s);
  return out;
}

/// base^e mod m by OpenSSL.
std::string expected(const limb base[16], const limb e[16], const limb m[16]) {
  Ctx ctx(BN_CTX_new());
  Bn r(BN_new()), b = to_bn(base), x = to_bn(e), n = to_bn(m);
  EXPECT_EQ(BN_mod_exp(r.get(), b.get(), x.get(), n.get(), ctx.get()), 1);
  limb out[16] = {};
  BN_bn2lebinpad(r.get(), reinterpret_cast<unsigned char*>(out), sizeof out);
  return hex(out);
}

/// A random odd modulus of `bits` bits (top bit set).
void random_modulus(limb m[16], int bits, std::mt19937_64& rng) {
  for (int i = 0; i < 16; ++i) m[i] = rng();
  for (int b = bits; b < 1024; ++b) m[b / 64] &= ~(limb{1} << (b % 64));
  m[(bits - 1) / 64] |= limb{1} << ((bits - 1) % 64);
  m[0] |= 1;
}

/// A random value below m (a few bits shorter, so below it).
void random_below(limb x[16], const limb m[16], std::mt19937_64& rng) {
  int top = 1023;
  while (top > 0 && !((m[top / 64] >> (top % 64)) & 1)) --top;
  for (int i = 0; i < 16; ++i) x[i] = rng();
  for (int b = top; b < 1024; ++b) x[b / 64] &= ~(limb{1} << (b % 64));
}

class RsaIfma : public testing::Test {
 protected:
  void SetUp() override {
    if (!cpu::ifma_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU (or CRYPTACCEL_CPU_MASK hides it)";
  }
  /// Runs both halves at once and checks each against OpenSSL.
  static void check(const limb ba[16], const limb ea[16], const limb ma[16], const limb bb[16], const limb eb[16],
                    const limb mb[16], const std::string& what) {
    const cpu::IfmaModulus1024 pa(ma), pb(mb);
    limb oa[16], ob[16];
    cpu::ifma_mod_exp_1024_x2(oa, ba, ea, pa, ob, bb, eb, pb);
    EXPECT_EQ(hex(oa), expected(ba, ea, ma)) << what << " (first half)";
    EXPECT_EQ(hex(ob), expected(bb, eb, mb)) << what << " (second half)";
  }
};

TEST_F(RsaIfma, RandomModuliBasesAndExponentsMatchOpenssl) {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  for (int round = 0; round < 24; ++round) {
    const int bits_a = round % 3 == 0 ? 1024 : 1024 - static_cast<int>(rng() % 200);
    const int bits_b = round % 4 == 0 ? 1024 : 1024 - static_cast<int>(rng() % 200);
    limb ma[16], mb[16], ba[16], bb[16], ea[16], eb[16];
    random_modulus(ma, bits_a, rng);
    random_modulus(mb, bits_b, rng);
    random_below(ba, ma, rng);
    random_below(bb, mb, rng);
    for (int i = 0; i < 16; ++i) ea[i] = rng(), eb[i] = rng();
    check(ba, ea, ma, bb, eb, mb, "round " + std::to_string(round));
  }
}

TEST_F(RsaIfma, Edges) {
  std::mt19937_64 rng(seed() ^ 0x5eed);
  limb m_all[16], m_rand[16], zero[16] = {}, one[16] = {1}, ones[16], m_minus_1[16], x[16];
  for (int i = 0; i < 16; ++i) m_all[i] = ~limb{0}, ones[i] = ~limb{0};  // 2^1024 - 1 (odd)
  random_modulus(m_rand, 1024, rng);
  for (const limb* m : {static_cast<const limb*>(m_all), static_cast<const limb*>(m_rand)}) {
    for (int i = 0; i < 16; ++i) m_minus_1[i] = m[i];
    m_minus_1[0] -= 1;  // m is odd
    random_below(x, m, rng);
    check(zero, ones, m, one, ones, m, "0^e and 1^e");
    check(x, zero, m, x, one, m, "x^0 and x^1");
    check(m_minus_1, ones, m, m_minus_1, one, m, "(m-1)^e");
    check(x, ones, m, m_minus_1, zero, m, "x^(2^1024-1), (m-1)^0");
  }
  check(x, ones, m_all, x, ones, m_rand, "two different moduli");
}

}  // namespace
}  // namespace cryptaccel

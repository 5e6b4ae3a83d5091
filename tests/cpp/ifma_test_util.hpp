// Shared by the tests of the AVX-512 IFMA exponentiation kernels (test_rsa_ifma.cpp: two CRT halves at once;
// test_rsa_ifma_mb.cpp: eight lanes): numbers as kMax little-endian 64-bit limbs (zero above their size), OpenSSL's
// BN_mod_exp as the oracle, random moduli and bases, and the typed fixture over the three sizes (1024, 1536 and
// 2048-bit moduli, the CRT halves of RSA-2048/3072/4096) that skips, saying why, on a CPU without IFMA.
#pragma once
#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>

#include <array>
#include <cstddef>
#include <random>
#include <string>
#include <type_traits>

#include "algo/bignum.hpp"
#include "bn_test_util.hpp"
#include "cpu/rsa_ifma.hpp"

namespace cryptaccel::test::ifma {

using algo::bn::limb;

inline constexpr int kMax = 64;  ///< 64-bit limbs of the largest size (4096 bits: ifma_mod_exp_public)
using Value = std::array<limb, kMax>;

/// A kMax-limb little-endian number as a BIGNUM.
inline Bn to_bn(const limb* x) {
  Bn b(BN_new());
  BN_lebin2bn(reinterpret_cast<const unsigned char*>(x), static_cast<int>(sizeof(limb) * kMax), b.get());
  return b;
}

/// A kMax-limb number in hex (BN_bn2hex: no leading zeros), for readable assertions.
inline std::string hex(const limb* x) {
  Bn b = to_bn(x);
  char* s = BN_bn2hex(b.get());
  std::string out(s);
  OPENSSL_free(s);
  return out;
}

/// base^e mod m by OpenSSL, in hex.
inline std::string expected(const limb* base, const limb* e, const limb* m) {
  Ctx ctx(BN_CTX_new());
  Bn r(BN_new()), b = to_bn(base), x = to_bn(e), n = to_bn(m);
  EXPECT_EQ(BN_mod_exp(r.get(), b.get(), x.get(), n.get(), ctx.get()), 1);
  Value out{};
  BN_bn2lebinpad(r.get(), reinterpret_cast<unsigned char*>(out.data()), sizeof(limb) * kMax);
  return hex(out.data());
}

/// A random odd modulus of exactly `bits` bits (top bit set), zero above.
inline void random_modulus(limb* m, int bits, std::mt19937_64& rng) {
  for (int i = 0; i < kMax; ++i) m[i] = rng();
  for (int b = bits; b < 64 * kMax; ++b) m[b / 64] &= ~(limb{1} << (b % 64));
  m[(bits - 1) / 64] |= limb{1} << ((bits - 1) % 64);
  m[0] |= 1;
}

/// A random value below m: below its top set bit, so shorter than m.
inline void random_below(limb* x, const limb* m, std::mt19937_64& rng) {
  int top = 64 * kMax - 1;
  while (top > 0 && !((m[top / 64] >> (top % 64)) & 1)) --top;
  for (int i = 0; i < kMax; ++i) x[i] = rng();
  for (int b = top; b < 64 * kMax; ++b) x[b / 64] &= ~(limb{1} << (b % 64));
}

/// Base of the typed suites: kBits from the type, skipped without IFMA.
template <class T>
class Fixture : public testing::Test {
 protected:
  static constexpr std::size_t kBits = T::value;
  void SetUp() override {
    if (!cpu::ifma_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU (or CRYPTACCEL_CPU_MASK hides it)";
  }
};
using Sizes = testing::Types<std::integral_constant<std::size_t, 1024>, std::integral_constant<std::size_t, 1536>,
                             std::integral_constant<std::size_t, 2048>>;
/// The full moduli of RSA-2048/3072/4096 (ifma_mod_exp_public).
using PublicSizes = testing::Types<std::integral_constant<std::size_t, 2048>, std::integral_constant<std::size_t, 3072>,
                                   std::integral_constant<std::size_t, 4096>>;

}  // namespace cryptaccel::test::ifma

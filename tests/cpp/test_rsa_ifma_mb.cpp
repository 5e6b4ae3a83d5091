// The multi-buffer AVX-512 IFMA exponentiation (src/cpu/rsa_ifma_mb.hpp: eight exponentiations per call, one per
// lane) against OpenSSL's BN_mod_exp (independent code), at 1024, 1536 and 2048 bits: eight different random moduli,
// bases and exponents per call (lanes must not mix), moduli whose top 52-bit limb is almost full or almost empty,
// moduli near 2^bits and just above 2^(bits-1), bases 0, 1 and m - 1, exponents 0, 1 and all ones, unused lanes
// (not written) and outputs aliasing their bases. Skipped, saying why, on a CPU without IFMA. Random cases draw from
// a seed printed on failure; CRYPTACCEL_TEST_SEED replays one.
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <algorithm>
#include <array>
#include <memory>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ifma_test_util.hpp"
#include "test_util.hpp"
#include "cpu/rsa_ifma_mb.hpp"

namespace cryptaccel {
namespace {

using test::ifma::kMax;
using test::ifma::limb;
using test::ifma::Value;

std::uint64_t seed() { return test::seed_or(20261128); }

constexpr int kLanes = static_cast<int>(cpu::kIfmaMbLanes);

std::string hex(const Value& x) { return test::ifma::hex(x.data()); }
std::string expected(const Value& base, const Value& e, const Value& m) {
  return test::ifma::expected(base.data(), e.data(), m.data());
}
Value random_modulus(int bits, std::mt19937_64& rng) {
  Value m;
  test::ifma::random_modulus(m.data(), bits, rng);
  return m;
}
Value random_below(const Value& m, std::mt19937_64& rng) {
  Value x;
  test::ifma::random_below(x.data(), m.data(), rng);
  return x;
}

/// A random exponent of up to `bits` bits.
Value random_exponent(int bits, std::mt19937_64& rng) {
  Value e{};
  for (int i = 0; i < bits / 64; ++i) e[i] = rng();
  return e;
}

/// One lane's inputs.
struct Lane {
  Value base, e, m;
  std::string what;
};

/// Runs the eight lanes in one call at `Bits` and checks each against OpenSSL. `used[l]` false: lane l is passed as
/// unused and its output must stay untouched. `alias`: the outputs overwrite the bases.
template <std::size_t Bits>
void check(const std::array<Lane, kLanes>& lanes, const std::string& what, std::array<bool, kLanes> used = {},
           bool alias = false) {
  bool any_unused = false;
  for (bool u : used) any_unused |= !u;
  if (!any_unused || !used[0]) used.fill(true);  // default: every lane
  std::array<std::unique_ptr<cpu::IfmaModulus<Bits>>, kLanes> mods;
  std::array<Value, kLanes> outs, bases;
  limb* out[kLanes];
  const limb* base[kLanes];
  const limb* exp[kLanes];
  const cpu::IfmaModulus<Bits>* mod[kLanes];
  const Value sentinel = [] {
    Value v;
    v.fill(0x5a5a5a5a5a5a5a5aULL);
    return v;
  }();
  for (int l = 0; l < kLanes; ++l) {
    mods[l] = std::make_unique<cpu::IfmaModulus<Bits>>(lanes[l].m.data());
    bases[l] = lanes[l].base;
    outs[l] = sentinel;
    out[l] = alias ? bases[l].data() : outs[l].data();
    base[l] = bases[l].data();
    exp[l] = lanes[l].e.data();
    mod[l] = used[l] ? mods[l].get() : nullptr;
  }
  cpu::ifma_mod_exp_mb8<Bits>(out, base, exp, mod);
  for (int l = 0; l < kLanes; ++l) {
    const Value& written = alias ? bases[l] : outs[l];
    if (!used[l]) {
      EXPECT_EQ(hex(written), hex(alias ? lanes[l].base : sentinel)) << what << ": unused lane " << l << " was written";
      continue;
    }
    Value got{};  // the Bits / 64 limbs of the result (the sentinel stays above them)
    std::copy_n(written.begin(), Bits / 64, got.begin());
    EXPECT_EQ(hex(got), expected(lanes[l].base, lanes[l].e, lanes[l].m))
        << what << ", lane " << l << " (" << lanes[l].what << ", " << Bits << " bits)";
  }
}

template <class T>
class RsaIfmaMb : public test::ifma::Fixture<T> {};
using Sizes = test::ifma::Sizes;
TYPED_TEST_SUITE(RsaIfmaMb, Sizes);

/// Moduli lengths that put the top 52-bit limb at its fullest and emptiest, for `bits`-bit moduli and shorter.
std::vector<int> edge_lengths(int bits) {
  const int top = (bits - 1) / 52;  // index of the limb holding bit bits - 1
  return {bits, bits - 1, 52 * top + 1, 52 * top, 52 * top - 1, 52 * (top - 1) + 1};
}

TYPED_TEST(RsaIfmaMb, RandomMixedLanesMatchOpenssl) {
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() + bits);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  const std::vector<int> edges = edge_lengths(bits);
  for (int round = 0; round < 6; ++round) {
    std::array<Lane, kLanes> lanes;
    for (int l = 0; l < kLanes; ++l) {
      const int r = static_cast<int>(rng() % 4);
      const int mbits = r == 0   ? bits
                        : r == 1 ? edges[rng() % edges.size()]
                                 : bits - static_cast<int>(rng() % 200);
      lanes[l].m = random_modulus(mbits, rng);
      lanes[l].base = random_below(lanes[l].m, rng);
      lanes[l].e = random_exponent(bits, rng);
      lanes[l].what = std::to_string(mbits) + "-bit modulus";
    }
    check<TestFixture::kBits>(lanes, "round " + std::to_string(round));
  }
}

TYPED_TEST(RsaIfmaMb, OneModulusEightBasesAndRsaLikeExponents) {
  // The shape of RSA use: the same prime in several lanes with different bases; exponents below the modulus.
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() ^ 0xabc ^ bits);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  const Value p = random_modulus(bits, rng), q = random_modulus(bits, rng);
  std::array<Lane, kLanes> lanes;
  for (int l = 0; l < kLanes; ++l) {
    lanes[l].m = l % 2 ? q : p;
    lanes[l].base = random_below(lanes[l].m, rng);
    lanes[l].e = random_below(lanes[l].m, rng);
    lanes[l].what = l % 2 ? "q" : "p";
  }
  check<TestFixture::kBits>(lanes, "p/q halves");
  check<TestFixture::kBits>(lanes, "p/q halves, outputs over the bases", {}, true);
}

TYPED_TEST(RsaIfmaMb, Edges) {
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() ^ 0x5eed ^ bits);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  Value m_all{}, m_near{}, m_low{}, zero{}, one{}, ones{};
  one[0] = 1;
  for (int i = 0; i < bits / 64; ++i) m_all[i] = ~limb{0}, ones[i] = ~limb{0};  // 2^bits - 1
  m_near = m_all;
  m_near[0] -= 0x1234;  // 2^bits - 0x1235 (odd)
  m_low[0] = 1;
  m_low[(bits - 1) / 64] = limb{1} << ((bits - 1) % 64);  // 2^(bits-1) + 1
  const std::vector<int> edges = edge_lengths(bits);
  std::vector<Value> moduli = {m_all, m_near, m_low};
  for (int len : edges) moduli.push_back(random_modulus(len, rng));
  for (std::size_t first = 0; first < moduli.size(); first += 2) {
    std::array<Lane, kLanes> lanes;
    for (int l = 0; l < kLanes; ++l) {
      const Value& m = moduli[(first + static_cast<std::size_t>(l) / 4) % moduli.size()];
      Value m_minus_1 = m;
      m_minus_1[0] -= 1;  // m is odd
      lanes[l].m = m;
      switch (l % 4) {
        case 0: lanes[l].base = zero, lanes[l].e = ones, lanes[l].what = "0^(2^bits-1)"; break;
        case 1: lanes[l].base = one, lanes[l].e = random_exponent(bits, rng), lanes[l].what = "1^e"; break;
        case 2: lanes[l].base = m_minus_1, lanes[l].e = l < 4 ? ones : one, lanes[l].what = "(m-1)^e"; break;
        default:
          lanes[l].base = random_below(m, rng), lanes[l].e = l < 4 ? zero : one, lanes[l].what = "x^0, x^1";
          break;
      }
    }
    check<TestFixture::kBits>(lanes, "edge moduli " + std::to_string(first));
  }
  // m - 1 to the power all-ones (odd: m - 1) and 2 (1) on the extreme moduli.
  std::array<Lane, kLanes> lanes;
  for (int l = 0; l < kLanes; ++l) {
    lanes[l].m = moduli[static_cast<std::size_t>(l) % 3];
    lanes[l].base = lanes[l].m;
    lanes[l].base[0] -= 1;
    lanes[l].e = l < 4 ? ones : Value{2};
    lanes[l].what = "(m-1)^e on 2^bits-1, 2^bits-0x1235, 2^(bits-1)+1";
  }
  check<TestFixture::kBits>(lanes, "extreme moduli");
}

TYPED_TEST(RsaIfmaMb, UnusedLanesAreNotWritten) {
  constexpr int bits = static_cast<int>(TestFixture::kBits);
  std::mt19937_64 rng(seed() ^ 0x77 ^ bits);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  std::array<Lane, kLanes> lanes;
  for (int l = 0; l < kLanes; ++l) {
    lanes[l].m = random_modulus(bits - static_cast<int>(rng() % 3), rng);
    lanes[l].base = random_below(lanes[l].m, rng);
    lanes[l].e = random_exponent(bits, rng);
    lanes[l].what = "random";
  }
  check<TestFixture::kBits>(lanes, "lanes 0-3 only", {true, true, true, true, false, false, false, false});
  check<TestFixture::kBits>(lanes, "lanes 0, 2, 7", {true, false, true, false, false, false, false, true}, true);
  check<TestFixture::kBits>(lanes, "lane 0 only", {true, false, false, false, false, false, false, false});
}

}  // namespace
}  // namespace cryptaccel

// The PCLMULQDQ GHASH of the cpu engine (src/cpu/ghash_pclmul.cpp) against the portable bit-serial GF(2^128)
// multiply and GHASH of src/algo/ghash.hpp, on random and edge-case inputs. Skips (with the reason) on a CPU without
// PCLMULQDQ.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "algo/ghash.hpp"
#include "common/cpu_features.hpp"
#include "cpu/ghash_pclmul.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using test::random_bytes;
using test::to_hex;

class GhashPclmul : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cpu::ghash_pclmul_available())
      GTEST_SKIP() << "this CPU lacks PCLMULQDQ or SSSE3 (features: " << cryptaccel::cpu_features().names() << ")";
  }
  std::mt19937_64 rng_{0x6c1a55};
};

/// Field elements that exercise the reduction: 0, 1 (top bit of byte 0), x^127 (low bit of byte 15), all ones, and
/// single high/low terms.
std::vector<bytes> edge_elements() {
  std::vector<bytes> v = {bytes(16, 0), bytes(16, 0xFF)};
  for (int bit : {0, 1, 7, 8, 63, 64, 120, 121, 126, 127}) {
    bytes e(16, 0);
    e[bit / 8] = static_cast<std::uint8_t>(0x80 >> (bit % 8));
    v.push_back(e);
  }
  return v;
}

bytes portable_mul(bytes_view a, bytes_view b) {
  bytes out(16);
  algo::gf128_store(algo::gf128_mul(algo::gf128_load(a.data()), algo::gf128_load(b.data())), out.data());
  return out;
}

TEST_F(GhashPclmul, MultiplyMatchesPortable) {
  const std::vector<bytes> edges = edge_elements();
  std::vector<std::pair<bytes, bytes>> pairs;
  for (const bytes& a : edges)
    for (const bytes& b : edges) pairs.emplace_back(a, b);
  for (int i = 0; i < 1000; ++i) {
    pairs.emplace_back(random_bytes(rng_, 16), random_bytes(rng_, 16));
    pairs.emplace_back(random_bytes(rng_, 16), edges[i % edges.size()]);
    pairs.emplace_back(edges[i % edges.size()], random_bytes(rng_, 16));
  }
  for (const auto& [a, b] : pairs) {
    bytes got = a;
    cpu::gf128_mul_pclmul(got.data(), b.data());
    ASSERT_EQ(to_hex(got), to_hex(portable_mul(a, b))) << "a=" << to_hex(a) << " b=" << to_hex(b);
  }
}

TEST_F(GhashPclmul, GhashMatchesPortableForEveryLength) {
  // Lengths 0..400 cover 0..8 blocks after a group of 8, the aggregated groups, and partial final blocks.
  for (int trial = 0; trial < 3; ++trial) {
    const bytes h = trial == 0 ? edge_elements()[2] : random_bytes(rng_, 16);  // H = 1 first, then random
    cpu::GhashPclmulKey key;
    cpu::ghash_pclmul_init(key, h.data());
    for (std::size_t len = 0; len <= 400; ++len) {
      const bytes data = random_bytes(rng_, len), y0 = random_bytes(rng_, 16);
      algo::Ghash g;
      g.init(h.data());
      g.y = algo::gf128_load(y0.data());
      g.update_padded(data.data(), len);
      bytes want(16), got = y0;
      algo::gf128_store(g.y, want.data());
      cpu::ghash_pclmul(key, got.data(), data.data(), len);
      ASSERT_EQ(to_hex(got), to_hex(want)) << "len=" << len << " H=" << to_hex(h);
    }
  }
  // One long message (a MiB), absorbed at once and in uneven whole-block pieces: the same state.
  const bytes h = random_bytes(rng_, 16), data = random_bytes(rng_, (1 << 20) + 5);
  cpu::GhashPclmulKey key;
  cpu::ghash_pclmul_init(key, h.data());
  algo::Ghash g;
  g.init(h.data());
  g.update_padded(data.data(), data.size());
  bytes want(16), whole(16, 0), pieces(16, 0);
  algo::gf128_store(g.y, want.data());
  cpu::ghash_pclmul(key, whole.data(), data.data(), data.size());
  EXPECT_EQ(to_hex(whole), to_hex(want));
  std::size_t pos = 0;
  while (data.size() - pos > 16 * 300) {
    const std::size_t n = 16 * (1 + rng_() % 300);
    cpu::ghash_pclmul(key, pieces.data(), data.data() + pos, n);
    pos += n;
  }
  cpu::ghash_pclmul(key, pieces.data(), data.data() + pos, data.size() - pos);
  EXPECT_EQ(to_hex(pieces), to_hex(want));
}

}  // namespace
}  // namespace cryptaccel

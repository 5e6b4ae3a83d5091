// aes_round_keys (cryptaccel/aes.hpp) and keccak_p1600_bytes (cryptaccel/hash.hpp): FIPS-197's key expansion example,
// the equivalent inverse cipher's keys against AES-NI's AESIMC, Keccak-p with 24 rounds against keccak_f1600_batch,
// and the argument checks.
#include <gtest/gtest.h>
#include <immintrin.h>

#include <cstring>
#include <random>

#include "cryptaccel/aes.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "test_util.hpp"

using namespace cryptaccel;

namespace {

/// AES-NI's InvMixColumns of one round key (the caller checks that the CPU has AES-NI).
__attribute__((target("aes"))) void aesimc(const std::uint8_t* in, std::uint8_t* out) {
  __m128i x;
  std::memcpy(&x, in, 16);
  x = _mm_aesimc_si128(x);
  std::memcpy(out, &x, 16);
}

}  // namespace

TEST(AesRoundKeys, Fips197ExpansionAndEquivalentInverse) {
  // FIPS-197 Appendix A.1: key 2b7e1516 28aed2a6 abf71588 09cf4f3c, last round key w[40..43].
  const bytes key = from_hex("2b7e151628aed2a6abf7158809cf4f3c");
  const bytes rk = aes_round_keys(key);
  ASSERT_EQ(rk.size(), 16u * 11);
  EXPECT_EQ(to_hex(bytes_view(rk).subspan(0, 16)), to_hex(key));
  EXPECT_EQ(to_hex(bytes_view(rk).subspan(160, 16)), "d014f9a8c9ee2589e13f0cc8b6630ca6");

  std::mt19937_64 rng(test::seed_or(197));
  for (const std::size_t len : {16u, 24u, 32u}) {
    const bytes k = test::random_bytes(rng, len);
    const bytes enc = aes_round_keys(k), dec = aes_round_keys(k, true);
    ASSERT_EQ(enc.size(), dec.size());
    const std::size_t n = enc.size() / 16;
    EXPECT_EQ(std::memcmp(enc.data(), dec.data(), 16), 0);                         // round key 0 as it is
    EXPECT_EQ(std::memcmp(enc.data() + 16 * (n - 1), dec.data() + 16 * (n - 1), 16), 0);  // and the last
    if (!__builtin_cpu_supports("aes")) continue;
    for (std::size_t r = 1; r + 1 < n; ++r) {  // InvMixColumns, as AESIMC computes it
      std::uint8_t want[16];
      aesimc(enc.data() + 16 * r, want);
      EXPECT_EQ(std::memcmp(want, dec.data() + 16 * r, 16), 0) << "key " << len << " round " << r;
    }
  }
  EXPECT_THROW(aes_round_keys(bytes(20)), InvalidArgument);
}

TEST(KeccakP1600Bytes, TwentyFourRoundsAreKeccakFAndArgumentsAreChecked) {
  std::mt19937_64 rng(test::seed_or(202));
  bytes states = test::random_bytes(rng, 3 * 200);
  std::vector<KeccakState> batch(3);
  for (std::size_t s = 0; s < 3; ++s)
    for (std::size_t i = 0; i < 25; ++i)
      for (std::size_t b = 0; b < 8; ++b) batch[s][i] |= std::uint64_t{states[200 * s + 8 * i + b]} << (8 * b);
  keccak_f1600_batch(batch, "ref");
  keccak_p1600_bytes(states, 24);
  for (std::size_t s = 0; s < 3; ++s)
    for (std::size_t i = 0; i < 25; ++i)
      for (std::size_t b = 0; b < 8; ++b)
        ASSERT_EQ(states[200 * s + 8 * i + b], static_cast<std::uint8_t>(batch[s][i] >> (8 * b)));
  bytes one = test::random_bytes(rng, 200), twice = one;
  keccak_p1600_bytes(one, 12);  // Keccak-p[1600, 12] = the last 12 rounds: applying 12 then 12 is not 24
  keccak_p1600_bytes(twice, 24);
  EXPECT_NE(one, twice);
  EXPECT_THROW(keccak_p1600_bytes(one, 0), InvalidArgument);
  EXPECT_THROW(keccak_p1600_bytes(one, 25), InvalidArgument);
  bytes odd(199);
  EXPECT_THROW(keccak_p1600_bytes(odd, 24), InvalidArgument);
}

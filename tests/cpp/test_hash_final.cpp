// The GPU's final-block path of algo::hash_message (algo::hash_final: the padded final block(s) built word by word in
// registers) against the host's (hash_final_blocks into a buffer, then hash_blocks), which the vector suites check:
// every variant, every tail length from 0 to one block less, message lengths whose bit count needs the top bits of
// SHA-384/512's 16-byte length field, random tails from a seed printed on failure (CRYPTACCEL_TEST_SEED replays).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "algo/hash_message.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using algo::HashVariant;

constexpr HashVariant kVariants[] = {
    HashVariant::sha224,   HashVariant::sha256,   HashVariant::sha384,   HashVariant::sha512,
    HashVariant::sha512_224, HashVariant::sha512_256, HashVariant::sha3_224, HashVariant::sha3_256,
    HashVariant::sha3_384, HashVariant::sha3_512, HashVariant::shake128, HashVariant::shake256,
    HashVariant::sm3};

TEST(HashFinal, WordsInRegistersMatchTheBufferPath) {
  const std::uint64_t seed = test::seed_or(20261128);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const HashVariant v : kVariants) {
    const std::size_t block = algo::hash_block_size(v);
    for (std::size_t tail_len = 0; tail_len < block; ++tail_len) {
      // Whole blocks before the tail (the total length counts them), up to lengths beyond 2^61 bytes.
      for (const std::uint64_t whole : {std::uint64_t{0}, std::uint64_t{3}, (std::uint64_t{1} << 61) / block + 5}) {
        const bytes tail = test::random_bytes(rng, tail_len);
        const std::uint64_t total = whole * block + tail_len;
        std::uint64_t start[25];
        for (std::uint64_t& w : start) w = rng();
        if (algo::hash_family(v) != algo::HashFamily::keccak)
          for (int i = 8; i < 25; ++i) start[i] = 0;  // SHA-2/SM3 keep 8 words
        if (algo::hash_family(v) == algo::HashFamily::sha256 || algo::hash_family(v) == algo::HashFamily::sm3)
          for (int i = 0; i < 8; ++i) start[i] &= 0xFFFFFFFFu;  // one 32-bit word per slot

        std::uint64_t want[25], got[25];
        std::copy(start, start + 25, want);
        std::copy(start, start + 25, got);
        std::uint8_t last[2 * 168];
        const std::size_t n = algo::hash_final_blocks(v, tail.data(), tail_len, total, last);
        algo::hash_blocks(v, want, last, n);
        algo::hash_final(v, got, tail.data(), tail_len, total);
        ASSERT_EQ(test::to_hex(bytes_view(reinterpret_cast<const std::uint8_t*>(got), sizeof got)),
                  test::to_hex(bytes_view(reinterpret_cast<const std::uint8_t*>(want), sizeof want)))
            << "variant " << static_cast<int>(v) << ", tail " << tail_len << " bytes, total " << total;
      }
    }
  }
}

}  // namespace
}  // namespace cryptaccel

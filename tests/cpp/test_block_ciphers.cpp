// Known-answer tests of the raw block ciphers and of the bitsliced S-boxes against independent derivations.
#include <gtest/gtest.h>

#include "algo/aes_bitsliced.hpp"
#include "algo/sm4.hpp"
#include "cryptaccel/aes.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/sm4.hpp"
#include "test_util.hpp"

using namespace cryptaccel;
using test::from_hex;
using test::to_hex;

namespace {

// Scalar GF(2^8) helpers, written independently of the bitsliced code, to derive the S-boxes from their definitions.
std::uint8_t gf_mul(std::uint8_t a, std::uint8_t b, unsigned poly) {
  unsigned r = 0;
  for (int i = 0; i < 8; ++i)
    if ((b >> i) & 1) r ^= unsigned{a} << i;
  for (int k = 14; k >= 8; --k)
    if ((r >> k) & 1) r ^= (0x100u | poly) << (k - 8);
  return static_cast<std::uint8_t>(r);
}
std::uint8_t gf_inv(std::uint8_t a, unsigned poly) {
  if (a == 0) return 0;
  for (unsigned b = 1; b < 256; ++b)
    if (gf_mul(a, static_cast<std::uint8_t>(b), poly) == 1) return static_cast<std::uint8_t>(b);
  return 0;
}
std::uint8_t rotl8(std::uint8_t x, int n) { return static_cast<std::uint8_t>((x << n) | (x >> (8 - n))); }

}  // namespace

TEST(AesSbox, MatchesFips197Definition) {
  std::uint8_t all[256];
  for (int i = 0; i < 256; ++i) all[i] = static_cast<std::uint8_t>(i);
  for (int i = 0; i < 256; i += 64) algo::aes_sbox_bytes(all + i, 64);
  for (int x = 0; x < 256; ++x) {
    const std::uint8_t b = gf_inv(static_cast<std::uint8_t>(x), 0x1B);
    const std::uint8_t expected = b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63;
    ASSERT_EQ(all[x], expected) << "x=" << x;
  }
  EXPECT_EQ(all[0x00], 0x63);
  EXPECT_EQ(all[0x53], 0xED);  // FIPS-197 §5.1.1 worked example
}

TEST(AesSbox, InverseUndoesForward) {
  std::uint64_t p[8];
  std::uint8_t in[64], out[64];
  for (int base = 0; base < 256; base += 64) {
    for (int i = 0; i < 64; ++i) in[i] = static_cast<std::uint8_t>(base + i);
    algo::bytes_to_planes(in, 64, p);
    algo::aes_sbox_planes(p);
    algo::aes_inv_sbox_planes(p);
    algo::planes_to_bytes(p, 64, out);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], in[i]);
  }
}

TEST(Sm4Sbox, MatchesStandardTableEntries) {
  // Spot values of the GB/T 32907 table (row 0 and the last entry); the full cipher is checked by the KATs below.
  const std::uint8_t expected_row0[16] = {0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7,
                                          0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05};
  std::uint32_t words[5] = {0x00010203, 0x04050607, 0x08090a0b, 0x0c0d0e0f, 0xff};
  algo::sm4_tau_words<5>(words);
  std::uint8_t got[16];
  for (int i = 0; i < 4; ++i) algo::store_be32(got + 4 * i, words[i]);
  EXPECT_EQ(to_hex(bytes_view(got, 16)), to_hex(bytes_view(expected_row0, 16)));
  EXPECT_EQ(words[4] & 0xFF, 0x48u);
}

struct AesKat {
  const char* key;
  const char* plaintext;
  const char* ciphertext;
};

// FIPS-197 Appendix C.1–C.3.
const AesKat kFips197[] = {
    {"000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {"000102030405060708090a0b0c0d0e0f1011121314151617", "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"},
    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "00112233445566778899aabbccddeeff",
     "8ea2b7ca516745bfeafc49904b496089"},
};

TEST(Aes, Fips197AppendixC) {
  for (const auto& kat : kFips197) {
    Aes aes(from_hex(kat.key));
    bytes pt = from_hex(kat.plaintext), ct(16), back(16);
    aes.encrypt_blocks(pt, ct);
    EXPECT_EQ(to_hex(ct), kat.ciphertext);
    aes.decrypt_blocks(ct, back);
    EXPECT_EQ(back, pt);
  }
}

TEST(Aes, ManyBlocksEqualOneByOne) {
  std::mt19937_64 rng(7);
  for (std::size_t key_len : {16u, 24u, 32u}) {
    Aes aes(test::random_bytes(rng, key_len));
    for (std::size_t blocks : {1u, 2u, 3u, 4u, 5u, 9u}) {
      bytes pt = test::random_bytes(rng, 16 * blocks), all(pt.size()), one(16);
      aes.encrypt_blocks(pt, all);
      for (std::size_t b = 0; b < blocks; ++b) {
        aes.encrypt_blocks(bytes_view(pt).subspan(16 * b, 16), one);
        EXPECT_EQ(to_hex(one), to_hex(bytes_view(all).subspan(16 * b, 16)));
      }
    }
  }
}

TEST(Aes, RejectsBadKeyLength) {
  EXPECT_THROW(Aes(bytes(15)), InvalidArgument);
  EXPECT_THROW(Aes(bytes(33)), InvalidArgument);
}

TEST(Sm4, StandardExample) {
  const bytes key = from_hex("0123456789abcdeffedcba9876543210");
  Sm4 sm4(key);
  bytes block = key, out(16);
  sm4.encrypt_blocks(block, out);
  EXPECT_EQ(to_hex(out), "681edf34d206965e86b3e94f536e4246");  // GB/T 32907 example 1
  sm4.decrypt_blocks(out, block);
  EXPECT_EQ(block, key);
}

TEST(Sm4, AllLanesEqualOneByOne) {
  std::mt19937_64 rng(11);
  Sm4 sm4(test::random_bytes(rng, 16));
  for (std::size_t blocks : {1u, 15u, 16u, 17u, 33u}) {
    bytes pt = test::random_bytes(rng, 16 * blocks), all(pt.size()), one(16), back(pt.size());
    sm4.encrypt_blocks(pt, all);
    for (std::size_t b = 0; b < blocks; ++b) {
      sm4.encrypt_blocks(bytes_view(pt).subspan(16 * b, 16), one);
      EXPECT_EQ(to_hex(one), to_hex(bytes_view(all).subspan(16 * b, 16)));
    }
    sm4.decrypt_blocks(all, back);
    EXPECT_EQ(back, pt);
  }
}

TEST(Sm4, RejectsBadKeyLength) { EXPECT_THROW(Sm4(bytes(24)), InvalidArgument); }

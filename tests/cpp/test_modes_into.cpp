// encrypt_into / decrypt_into (include/cryptaccel/modes.hpp): the same bytes as encrypt / decrypt for every mode, in
// place too, a buffer too small refused before anything is written, and a failed decryption (bad tag, bad padding)
// leaving no plaintext in the caller's buffer.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

TEST(ModesInto, SameAsOneShotInPlaceToo) {
  std::mt19937_64 rng(11);
  for (const char* name : {"aes-128-cbc", "aes-256-ctr", "aes-128-gcm", "aes-256-xts", "sm4-ecb", "sm4-gcm"}) {
    const CipherSpec spec = CipherSpec::parse(name);
    for (std::size_t len : {0u, 1u, 16u, 17u, 1000u, 70000u}) {
      if (spec.mode == Mode::xts && len < 16) continue;
      if (!spec.pads() && spec.mode == Mode::ecb && len % 16) continue;
      const bytes key = test::random_bytes(rng, spec.key_size());
      const bytes iv = spec.mode == Mode::ecb ? bytes{} : test::random_bytes(rng, spec.mode == Mode::gcm ? 12 : 16);
      const bytes plain = test::random_bytes(rng, len);
      CipherParams p;
      p.key = key, p.iv = iv;
      const std::string where = std::string(name) + " length " + std::to_string(len);
      const bytes want = encrypt(spec, p, plain);
      bytes out(encrypted_size(spec, len) + 5, 0xee);
      ASSERT_EQ(encrypt_into(spec, p, plain, out, "cpu"), want.size()) << where;
      EXPECT_EQ(test::to_hex(bytes_view(out).first(want.size())), test::to_hex(want)) << where;
      bytes in_place(encrypted_size(spec, len));
      std::copy(plain.begin(), plain.end(), in_place.begin());
      ASSERT_EQ(encrypt_into(spec, p, bytes_view(in_place).first(len), in_place, "cpu"), want.size()) << where;
      EXPECT_EQ(test::to_hex(in_place), test::to_hex(want)) << where << " (in place)";
      const std::size_t n = decrypt_into(spec, p, in_place, in_place, "cpu");
      EXPECT_EQ(test::to_hex(bytes_view(in_place).first(n)), test::to_hex(plain)) << where << " (decrypt in place)";
    }
  }
}

TEST(ModesInto, SmallBuffersAreRefusedAndFailuresLeaveNoPlaintext) {
  const bytes key(16, 1), iv(16, 2), nonce(12, 3), plain(100, 'p');
  CipherParams cbc;
  cbc.key = key, cbc.iv = iv;
  const CipherSpec cbc_spec = CipherSpec::parse("aes-128-cbc");
  bytes small(encrypted_size(cbc_spec, plain.size()) - 1, 0x77);
  EXPECT_THROW(encrypt_into(cbc_spec, cbc, plain, small), InvalidArgument);
  EXPECT_TRUE(std::all_of(small.begin(), small.end(), [](std::uint8_t b) { return b == 0x77; }));
  bytes ct = encrypt(cbc_spec, cbc, plain);
  ct.back() ^= 1;  // the padding goes bad
  bytes out(ct.size(), 0x55);
  EXPECT_THROW(decrypt_into(cbc_spec, cbc, ct, out), BadDecrypt);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0; }));
  CipherParams gcm;
  gcm.key = key, gcm.iv = nonce;
  const CipherSpec gcm_spec = CipherSpec::parse("aes-128-gcm");
  bytes sealed = encrypt(gcm_spec, gcm, plain);
  sealed[3] ^= 1;
  bytes opened(sealed.size() - 16, 0x55);
  EXPECT_THROW(decrypt_into(gcm_spec, gcm, sealed, opened), AuthenticationFailed);
  EXPECT_TRUE(std::all_of(opened.begin(), opened.end(), [](std::uint8_t b) { return b == 0; }));
}

}  // namespace
}  // namespace cryptaccel

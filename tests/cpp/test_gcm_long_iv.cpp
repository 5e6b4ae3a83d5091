// AES-GCM with IVs longer than OpenSSL's 128-byte limit (SP 800-38D allows up to 2^64 bits): the cpu engine computes
// J0 = GHASH(IV) itself and equals the ref engine, and a wrong tag releases nothing. Under ctest
// cpu_ghash_without_vpclmulqdq this runs the cpu engine's OpenSSL path (src/cpu/openssl_aes.cpp), elsewhere its VAES
// kernel. Seeded (CRYPTACCEL_TEST_SEED replays).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "test_util.hpp"

using namespace cryptaccel;

TEST(GcmLongIv, CpuMatchesRefAndRefusesAWrongTag) {
  const std::uint64_t seed = test::seed_or(0x61c);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const char* name : {"aes-128-gcm", "aes-192-gcm", "aes-256-gcm"}) {
    const CipherSpec spec = CipherSpec::parse(name);
    for (const std::size_t iv_len : {129u, 200u, 1000u, 4096u}) {
      const bytes key = test::random_bytes(rng, spec.key_size()), iv = test::random_bytes(rng, iv_len);
      const bytes aad = test::random_bytes(rng, rng() % 40), pt = test::random_bytes(rng, rng() % 3000);
      CipherParams params{key, iv, aad, 16, 0};
      SCOPED_TRACE(std::string(name) + " iv_len=" + std::to_string(iv_len) + " pt=" + std::to_string(pt.size()));
      const bytes want = encrypt(spec, params, pt, "ref");
      std::string used;
      ASSERT_EQ(test::to_hex(encrypt(spec, params, pt, "cpu", &used)), test::to_hex(want));
      EXPECT_EQ(used, "cpu");
      EXPECT_EQ(decrypt(spec, params, want, "cpu"), pt);
      bytes bad = want;
      bad.back() ^= 1;
      EXPECT_THROW(decrypt(spec, params, bad, "cpu"), AuthenticationFailed);
    }
  }
}

// The cpu engine's VAES AES-CTR kernel (src/cpu/aes_ctr_vaes.hpp) against OpenSSL's EVP AES-CTR (independent code, the
// same 128-bit big-endian counter): AES-128, AES-192 and AES-256, lengths around the 16- and 64-byte steps and the 256-byte
// main loop, counters whose low 64 bits wrap inside the message (at every offset near the end of a 16-block stretch)
// and the full 128-bit wrap, in place and out of place. Skipped, saying why, on a CPU without VAES and AVX-512.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cpu/aes_ctr_vaes.hpp"
#include "guard_pages.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

bytes openssl_ctr(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view in) {
  const EVP_CIPHER* cipher = spec.cipher == BlockCipher::aes128   ? EVP_aes_128_ctr()
                             : spec.cipher == BlockCipher::aes192 ? EVP_aes_192_ctr()
                                                                  : EVP_aes_256_ctr();
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  bytes out(in.size() + 16);
  int n = 0, m = 0;
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, cipher, nullptr, key.data(), iv.data()), 1);
  EXPECT_EQ(EVP_EncryptUpdate(ctx, out.data(), &n, in.data(), static_cast<int>(in.size())), 1);
  EXPECT_EQ(EVP_EncryptFinal_ex(ctx, out.data() + n, &m), 1);
  EVP_CIPHER_CTX_free(ctx);
  out.resize(static_cast<std::size_t>(n + m));
  return out;
}

class AesCtrVaes : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!cpu::aes_ctr_vaes_available()) GTEST_SKIP() << "no VAES with AVX-512 on this CPU (or CRYPTACCEL_CPU_MASK)";
  }
};

TEST_P(AesCtrVaes, MatchesOpensslAtEveryLengthAndCounterWrap) {
  const CipherSpec spec = CipherSpec::parse(GetParam());
  const std::uint64_t seed = test::seed_or(20261127);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const bytes key = test::random_bytes(rng, spec.key_size());
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);
  for (std::size_t n : {511u, 512u, 513u, 1023u, 4096u, 4097u, 65536u + 15u}) lengths.push_back(n);
  for (std::size_t len : lengths) {
    for (int wrap : {-1, 0, 1, 2, 15, 16, 17}) {  // -1: a random counter; k: the low half wraps after k blocks
      bytes iv = test::random_bytes(rng, 16);
      if (wrap >= 0) {
        for (int i = 8; i < 16; ++i) iv[i] = 0xff;  // low half 2^64 - 1 ...
        std::uint64_t lo = ~std::uint64_t{0} - static_cast<std::uint64_t>(wrap) + 1;  // ... minus (wrap - 1)
        for (int i = 15; i >= 8; --i, lo >>= 8) iv[i] = static_cast<std::uint8_t>(lo);
        if (wrap == 16 && len % 7 == 0)
          for (int i = 0; i < 8; ++i) iv[i] = 0xff;  // and now and then the high half too: the full 128-bit wrap
      }
      const bytes in = test::random_bytes(rng, len);
      const std::string where = "length " + std::to_string(len) + ", iv " + test::to_hex(iv);
      const bytes want = openssl_ctr(spec, key, iv, in);
      bytes out(len, 0xa5);
      CipherJob job{key, iv, in, out};
      cpu::aes_ctr_vaes_run(spec, job);
      ASSERT_EQ(int(job.status), int(JobStatus::ok)) << where;
      ASSERT_EQ(test::to_hex(out), test::to_hex(want)) << where;
      bytes inplace = in;
      CipherJob same{key, iv, inplace, inplace};
      cpu::aes_ctr_vaes_run(spec, same);
      ASSERT_EQ(test::to_hex(inplace), test::to_hex(want)) << where << " (in place)";
    }
  }
}

TEST_P(AesCtrVaes, NeverTouchesABytePastTheEnd) {
  // Input and output end right before a page that may not be read or written: a load or store past the last byte
  // (the masked tail's job) faults here.
  const CipherSpec spec = CipherSpec::parse(GetParam());
  test::GuardPages guarded;
  std::mt19937_64 rng(7);
  const bytes key = test::random_bytes(rng, spec.key_size()), iv = test::random_bytes(rng, 16);
  for (std::size_t len : {1u, 15u, 17u, 63u, 65u, 255u, 257u, 1000u}) {
    std::uint8_t* in = guarded.input(len);
    std::uint8_t* out = guarded.output(len);
    const bytes data = test::random_bytes(rng, len);
    std::copy(data.begin(), data.end(), in);
    CipherJob job{key, iv, bytes_view(in, len), mutable_bytes(out, len)};
    cpu::aes_ctr_vaes_run(spec, job);
    EXPECT_EQ(test::to_hex(bytes_view(out, len)), test::to_hex(openssl_ctr(spec, key, iv, data))) << len;
  }
}

INSTANTIATE_TEST_SUITE_P(Aes, AesCtrVaes, testing::Values("aes-128-ctr", "aes-192-ctr", "aes-256-ctr"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace cryptaccel

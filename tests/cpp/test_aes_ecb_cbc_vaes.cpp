// The cpu engine's VAES AES-CBC decryption (src/cpu/aes_ecb_cbc_vaes.hpp) against OpenSSL's EVP (independent code;
// the same file's ECB and CBC encryption are checked through the engine suites, every mode against OpenSSL):
// AES-128, AES-192 and AES-256, every whole-block length up to 80 blocks and a few long ones (the 16-block loop, the
// 4-block tail, a partial last group), in place and out of place, and with input and output ending at a page that
// faults if touched. Skipped, saying why, on a CPU without VAES and AVX-512.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <random>
#include <string>

#include "cpu/aes_ecb_cbc_vaes.hpp"
#include "guard_pages.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

bytes openssl_cbc_decrypt(bytes_view key, bytes_view iv, bytes_view in) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  bytes out(in.size() + 16);
  int n = 0, m = 0;
  const EVP_CIPHER* cipher = key.size() == 16   ? EVP_aes_128_cbc()
                             : key.size() == 24 ? EVP_aes_192_cbc()
                                                : EVP_aes_256_cbc();
  EXPECT_EQ(EVP_DecryptInit_ex(ctx, cipher, nullptr, key.data(), iv.data()), 1);
  EVP_CIPHER_CTX_set_padding(ctx, 0);
  EXPECT_EQ(EVP_DecryptUpdate(ctx, out.data(), &n, in.data(), static_cast<int>(in.size())), 1);
  EXPECT_EQ(EVP_DecryptFinal_ex(ctx, out.data() + n, &m), 1);
  EVP_CIPHER_CTX_free(ctx);
  out.resize(static_cast<std::size_t>(n + m));
  return out;
}

class AesCbcVaes : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!cpu::aes_cbc_vaes_serves(CipherSpec::parse(GetParam())))
      GTEST_SKIP() << "no VAES with AVX-512 on this CPU (or CRYPTACCEL_CPU_MASK)";
  }
};

TEST_P(AesCbcVaes, MatchesOpensslAtEveryLengthInPlaceToo) {
  const CipherSpec spec = CipherSpec::parse(GetParam());
  std::mt19937_64 rng(5);
  const bytes key = test::random_bytes(rng, spec.key_size());
  std::vector<std::size_t> blocks;
  for (std::size_t b = 1; b <= 80; ++b) blocks.push_back(b);
  for (std::size_t b : {255u, 256u, 257u, 4096u + 3u}) blocks.push_back(b);
  for (std::size_t b : blocks) {
    const bytes iv = test::random_bytes(rng, 16), in = test::random_bytes(rng, 16 * b);
    const bytes want = openssl_cbc_decrypt(key, iv, in);
    bytes out(in.size(), 0xa5);
    cpu::aes_cbc_vaes_decrypt(key, iv.data(), in.data(), out.data(), in.size());
    ASSERT_EQ(test::to_hex(out), test::to_hex(want)) << b << " blocks";
    bytes same = in;
    cpu::aes_cbc_vaes_decrypt(key, iv.data(), same.data(), same.data(), same.size());
    ASSERT_EQ(test::to_hex(same), test::to_hex(want)) << b << " blocks, in place";
  }
}

TEST_P(AesCbcVaes, NeverTouchesABytePastTheEnd) {
  const CipherSpec spec = CipherSpec::parse(GetParam());
  test::GuardPages guarded;
  std::mt19937_64 rng(9);
  const bytes key = test::random_bytes(rng, spec.key_size()), iv = test::random_bytes(rng, 16);
  for (std::size_t b : {1u, 2u, 3u, 5u, 17u, 19u, 33u}) {
    const std::size_t len = 16 * b;
    std::uint8_t* in = guarded.input(len);
    std::uint8_t* out = guarded.output(len);
    const bytes data = test::random_bytes(rng, len);
    std::copy(data.begin(), data.end(), in);
    cpu::aes_cbc_vaes_decrypt(key, iv.data(), in, out, len);
    EXPECT_EQ(test::to_hex(bytes_view(out, len)), test::to_hex(openssl_cbc_decrypt(key, iv, data))) << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Aes, AesCbcVaes, testing::Values("aes-128-cbc", "aes-192-cbc", "aes-256-cbc"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace cryptaccel

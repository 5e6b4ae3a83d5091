// The cpu engine's one-pass AES-GCM kernel (src/cpu/aes_gcm_vaes.hpp) against OpenSSL's EVP AES-GCM (independent
// code): AES-128, AES-192 and AES-256, every message length around the 16-, 64- and 256-byte steps, IVs of 12 bytes and of
// other lengths (J0 from GHASH, so the 32-bit counter can start anywhere), AAD lengths around the same steps,
// truncated tags, in place and out of place; a tampered tag, ciphertext or AAD fails and leaves the output zero; the
// split key's building blocks from counters whose low 32 bits wrap inside a chunk against the OpenSSL-based split key;
// and no load or store past either end of the buffers. Skipped, saying why, on a CPU without VAES and VPCLMULQDQ.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/aes_gcm_vaes.hpp"
#include "cpu/openssl_aes.hpp"
#include "guard_pages.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

struct Sealed {
  bytes ct, tag;
};

Sealed openssl_seal(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view aad, bytes_view pt,
                    std::size_t tag_len) {
  const EVP_CIPHER* cipher = spec.cipher == BlockCipher::aes128   ? EVP_aes_128_gcm()
                             : spec.cipher == BlockCipher::aes192 ? EVP_aes_192_gcm()
                                                                  : EVP_aes_256_gcm();
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  Sealed s{bytes(pt.size() + 16), bytes(tag_len)};
  int n = 0, m = 0;
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, cipher, nullptr, nullptr, nullptr), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(iv.size()), nullptr), 1);
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, nullptr, nullptr, key.data(), iv.data()), 1);
  EXPECT_EQ(EVP_EncryptUpdate(ctx, nullptr, &n, aad.data(), static_cast<int>(aad.size())), 1);
  EXPECT_EQ(EVP_EncryptUpdate(ctx, s.ct.data(), &n, pt.data(), static_cast<int>(pt.size())), 1);
  EXPECT_EQ(EVP_EncryptFinal_ex(ctx, s.ct.data() + n, &m), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, static_cast<int>(tag_len), s.tag.data()), 1);
  EVP_CIPHER_CTX_free(ctx);
  s.ct.resize(static_cast<std::size_t>(n + m));
  return s;
}

std::uint64_t test_seed() { return test::seed_or(20261128); }

class AesGcmVaes : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!cpu::aes_gcm_vaes_available())
      GTEST_SKIP() << "no VAES and VPCLMULQDQ with AVX-512 on this CPU (or CRYPTACCEL_CPU_MASK)";
  }
  CipherSpec spec() const { return CipherSpec::parse(GetParam()); }
};

TEST_P(AesGcmVaes, SealsAndOpensAsOpensslAtEveryLength) {
  const CipherSpec spec = this->spec();
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);
  for (std::size_t n : {511u, 512u, 513u, 1023u, 1024u, 4095u, 4096u, 4097u, 65536u + 15u}) lengths.push_back(n);
  const std::size_t iv_lengths[] = {12, 1, 8, 16, 17, 60, 128};  // OpenSSL takes at most 128
  const std::size_t aad_lengths[] = {0, 1, 13, 16, 64, 255, 256, 257, 1000};
  const std::size_t tag_lengths[] = {16, 4, 8, 12, 15};
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const std::size_t len = lengths[i];
    const std::size_t iv_len = iv_lengths[i % std::size(iv_lengths)];
    const std::size_t aad_len = aad_lengths[(i / 3) % std::size(aad_lengths)];
    const std::size_t tag_len = tag_lengths[(i / 7) % std::size(tag_lengths)];
    const bytes key = test::random_bytes(rng, spec.key_size());
    const bytes iv = test::random_bytes(rng, iv_len), aad = test::random_bytes(rng, aad_len);
    const bytes pt = test::random_bytes(rng, len);
    const std::string where = "length " + std::to_string(len) + ", iv " + std::to_string(iv_len) + " B, aad " +
                              std::to_string(aad_len) + " B, tag " + std::to_string(tag_len) + " B";
    const Sealed want = openssl_seal(spec, key, iv, aad, pt, tag_len);

    bytes ct(len, 0xa5), tag(tag_len);
    CipherJob enc{key, iv, pt, ct, aad, tag};
    cpu::aes_gcm_vaes_run(spec, Direction::encrypt, enc);
    ASSERT_EQ(int(enc.status), int(JobStatus::ok)) << where;
    ASSERT_EQ(enc.out_len, len) << where;
    ASSERT_EQ(test::to_hex(ct), test::to_hex(want.ct)) << where;
    ASSERT_EQ(test::to_hex(tag), test::to_hex(want.tag)) << where;

    bytes inplace = pt, tag2(tag_len);
    CipherJob enc2{key, iv, inplace, inplace, aad, tag2};
    cpu::aes_gcm_vaes_run(spec, Direction::encrypt, enc2);
    ASSERT_EQ(test::to_hex(inplace), test::to_hex(want.ct)) << where << " (in place)";
    ASSERT_EQ(test::to_hex(tag2), test::to_hex(want.tag)) << where << " (in place)";

    CipherJob dec{key, iv, inplace, inplace, aad, tag2};  // decrypt in place
    cpu::aes_gcm_vaes_run(spec, Direction::decrypt, dec);
    ASSERT_EQ(int(dec.status), int(JobStatus::ok)) << where << " (decrypt)";
    ASSERT_EQ(test::to_hex(inplace), test::to_hex(pt)) << where << " (decrypt)";
  }
}

TEST_P(AesGcmVaes, TamperingFailsAndReleasesNothing) {
  const CipherSpec spec = this->spec();
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed ^ 0x7a);
  for (std::size_t len : {1u, 16u, 100u, 256u, 1000u, 5000u}) {
    const bytes key = test::random_bytes(rng, spec.key_size()), iv = test::random_bytes(rng, 12);
    const bytes aad = test::random_bytes(rng, 20), pt = test::random_bytes(rng, len);
    const Sealed good = openssl_seal(spec, key, iv, aad, pt, 16);
    for (int what = 0; what < 3; ++what) {  // flip a bit of the tag, the ciphertext, the AAD
      bytes ct = good.ct, tag = good.tag, a = aad;
      bytes& target = what == 0 ? tag : what == 1 ? ct : a;
      target[rng() % target.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      bytes out(len, 0xa5);
      CipherJob dec{key, iv, ct, out, a, tag};
      cpu::aes_gcm_vaes_run(spec, Direction::decrypt, dec);
      const std::string where = "length " + std::to_string(len) + ", tampered " + std::to_string(what);
      ASSERT_EQ(int(dec.status), int(JobStatus::auth_failed)) << where;
      ASSERT_EQ(dec.out_len, 0u) << where;
      ASSERT_EQ(dec.error, "authentication failed: tag mismatch") << where;
      ASSERT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0; })) << where;
    }
  }
}

TEST_P(AesGcmVaes, SplitKeyMatchesOpensslSplitKeyAcrossTheCounterWrap) {
  const CipherSpec spec = this->spec();
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed ^ 0x5b);
  const bytes key = test::random_bytes(rng, spec.key_size());
  const auto ours = cpu::aes_gcm_vaes_split_key(spec.cipher, key);
  const auto reference = cpu::openssl_aes_gcm_split_key(spec.cipher, key);
  ASSERT_TRUE(ours && reference);
  for (std::size_t len : {16u, 48u, 256u, 272u, 4096u, 4096u + 16u + 5u}) {
    for (int wrap : {-1, 1, 2, 3, 4, 16, 17, 100}) {  // -1: a random counter; k: the low 32 bits wrap after k blocks
      bytes counter = test::random_bytes(rng, 16);
      if (wrap >= 0) {
        const std::uint32_t low = 0u - static_cast<std::uint32_t>(wrap);
        for (int i = 0; i < 4; ++i) counter[12 + i] = static_cast<std::uint8_t>(low >> (24 - 8 * i));
      }
      const std::string where = "length " + std::to_string(len) + ", counter " + test::to_hex(counter);
      const bytes in = test::random_bytes(rng, len);
      bytes want(len), got(len), want_hash(16, 0), got_hash(16, 0x5a);
      reference->ctr32(counter.data(), in.data(), want.data(), len);
      reference->ghash(want_hash.data(), want.data(), len);
      ours->encrypt_and_hash(counter.data(), in.data(), got.data(), len, got_hash.data());
      ASSERT_EQ(test::to_hex(got), test::to_hex(want)) << where << " (encrypt_and_hash)";
      ASSERT_EQ(test::to_hex(got_hash), test::to_hex(want_hash)) << where << " (encrypt_and_hash)";

      bytes plain = want, plain_hash(16, 0x5a);  // decrypting the ciphertext in place gives `in` back
      ours->hash_and_decrypt(counter.data(), plain.data(), plain.data(), len, plain_hash.data());
      ASSERT_EQ(test::to_hex(plain), test::to_hex(in)) << where << " (hash_and_decrypt)";
      ASSERT_EQ(test::to_hex(plain_hash), test::to_hex(want_hash)) << where << " (hash_and_decrypt)";

      bytes ctr_only(len);
      ours->ctr32(counter.data(), in.data(), ctr_only.data(), len);
      ASSERT_EQ(test::to_hex(ctr_only), test::to_hex(want)) << where << " (ctr32)";
      std::uint8_t block[16], want_block[16];
      ours->encrypt_block(counter.data(), block);
      reference->encrypt_block(counter.data(), want_block);
      ASSERT_EQ(test::to_hex(bytes_view(block, 16)), test::to_hex(bytes_view(want_block, 16))) << where;
    }
  }
}

TEST_P(AesGcmVaes, NeverTouchesABytePastTheEnd) {
  // Input, output and AAD end right before a page that may not be read or written: a load or store past the last
  // byte (the masked tails' job) faults here.
  const CipherSpec spec = this->spec();
  std::mt19937_64 rng(test_seed() ^ 0x3c);
  const bytes key = test::random_bytes(rng, spec.key_size()), iv = test::random_bytes(rng, 12);
  test::GuardPages pages;
  for (std::size_t len = 1; len <= 600; ++len) {
    std::uint8_t* in = pages.input(len);
    const bytes pt = test::random_bytes(rng, len);
    std::memcpy(in, pt.data(), len);
    const Sealed want = openssl_seal(spec, key, iv, {}, pt, 16);
    std::uint8_t* out = pages.output(len);
    bytes tag(16);
    CipherJob enc{key, iv, bytes_view(in, len), mutable_bytes(out, len), {}, tag};
    cpu::aes_gcm_vaes_run(spec, Direction::encrypt, enc);
    ASSERT_EQ(test::to_hex(bytes_view(out, len)), test::to_hex(want.ct)) << "length " << len;
    CipherJob dec{key, iv, bytes_view(out, len), mutable_bytes(out, len), {}, tag};
    cpu::aes_gcm_vaes_run(spec, Direction::decrypt, dec);
    ASSERT_EQ(int(dec.status), int(JobStatus::ok)) << "length " << len;
  }
}

std::string test_name(const testing::TestParamInfo<const char*>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Ciphers, AesGcmVaes, testing::Values("aes-128-gcm", "aes-192-gcm", "aes-256-gcm"), test_name);

}  // namespace
}  // namespace cryptaccel

// RSA on every engine that runs it, against OpenSSL's EVP_PKEY on fresh keys (1024, 2048, 3072, 4096; one 8192-bit
// OpenSSL key from test data): PKCS#1 v1.5 signatures byte-identical, PSS and OAEP / PKCS#1 v1.5 encryption
// cross-checked both ways, tampered signatures and ciphertexts rejected, mixed-key batches, key formats, the
// private-result check against an inconsistent key.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/encoder.h>
#include <openssl/param_build.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "cryptaccel/rsa.hpp"
#include "engine/engine.hpp"
#include "rsa/key_impl.hpp"
#include "rsa/padding.hpp"
#include "rsa8192_key.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using rsa::PrivateKey;
using rsa::PublicKey;

struct PkeyDel {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::shared_ptr<EVP_PKEY>;

std::string pem_of(EVP_PKEY* pkey, bool pkcs1 = false) {
  BIO* bio = BIO_new(BIO_s_mem());
  if (pkcs1) {
    OSSL_ENCODER_CTX* ctx = OSSL_ENCODER_CTX_new_for_pkey(pkey, EVP_PKEY_KEYPAIR, "PEM", "type-specific", nullptr);
    EXPECT_EQ(OSSL_ENCODER_to_bio(ctx, bio), 1);
    OSSL_ENCODER_CTX_free(ctx);
  } else {
    EXPECT_EQ(PEM_write_bio_PrivateKey(bio, pkey, nullptr, nullptr, 0, nullptr, nullptr), 1);
  }
  char* p = nullptr;
  const long n = BIO_get_mem_data(bio, &p);
  std::string out(p, static_cast<std::size_t>(n));
  BIO_free(bio);
  return out;
}

Pkey pkey_from_pem(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* p = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return Pkey(p, PkeyDel{});
}

/// A fresh OpenSSL key per size (shared by the tests of this binary), with our PrivateKey read from its PEM.
struct TestKey {
  Pkey pkey;
  PrivateKey key;
};
const TestKey& test_key(std::size_t bits) {
  static std::mutex mutex;
  static std::map<std::size_t, std::unique_ptr<TestKey>> keys;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = keys[bits];
  if (!slot) {
    Pkey pkey = bits == 8192 ? pkey_from_pem(test::kRsa8192Pem)
                             : Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(bits)), PkeyDel{});
    slot = std::make_unique<TestKey>(TestKey{pkey, PrivateKey::from_pem(pem_of(pkey.get()))});
  }
  return *slot;
}

const EVP_MD* md_of(HashAlgorithm h) {
  if (h == rsa::kSha1) return EVP_sha1();
  return EVP_get_digestbyname(rsa::digest_name(h).c_str());
}

bytes ossl_sign(EVP_PKEY* pkey, bytes_view msg, HashAlgorithm h, int padding, int salt = RSA_PSS_SALTLEN_DIGEST) {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  EVP_PKEY_CTX* pctx = nullptr;
  EXPECT_EQ(EVP_DigestSignInit(md, &pctx, md_of(h), nullptr, pkey), 1);
  EVP_PKEY_CTX_set_rsa_padding(pctx, padding);
  if (padding == RSA_PKCS1_PSS_PADDING) EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, salt);
  size_t len = 0;
  EXPECT_EQ(EVP_DigestSign(md, nullptr, &len, msg.data(), msg.size()), 1);
  bytes sig(len);
  EXPECT_EQ(EVP_DigestSign(md, sig.data(), &len, msg.data(), msg.size()), 1);
  EVP_MD_CTX_free(md);
  sig.resize(len);
  return sig;
}

bool ossl_verify(EVP_PKEY* pkey, bytes_view msg, bytes_view sig, HashAlgorithm h, int padding,
                 int salt = RSA_PSS_SALTLEN_AUTO) {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  EVP_PKEY_CTX* pctx = nullptr;
  EXPECT_EQ(EVP_DigestVerifyInit(md, &pctx, md_of(h), nullptr, pkey), 1);
  EVP_PKEY_CTX_set_rsa_padding(pctx, padding);
  if (padding == RSA_PKCS1_PSS_PADDING) EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, salt);
  const int r = EVP_DigestVerify(md, sig.data(), sig.size(), msg.data(), msg.size());
  EVP_MD_CTX_free(md);
  return r == 1;
}

/// OpenSSL encrypt (decrypt when `decrypt`) with OAEP(hash, label) or PKCS#1 v1.5.
bytes ossl_crypt(EVP_PKEY* pkey, bytes_view in, bool decrypt, int padding, HashAlgorithm h = HashAlgorithm::sha256,
                 bytes_view label = {}) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(pkey, nullptr);
  EXPECT_EQ(decrypt ? EVP_PKEY_decrypt_init(ctx) : EVP_PKEY_encrypt_init(ctx), 1);
  EVP_PKEY_CTX_set_rsa_padding(ctx, padding);
  if (padding == RSA_PKCS1_OAEP_PADDING) {
    EVP_PKEY_CTX_set_rsa_oaep_md(ctx, md_of(h));
    EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md_of(h));
    if (!label.empty()) {
      void* l = OPENSSL_memdup(label.data(), label.size());
      EVP_PKEY_CTX_set0_rsa_oaep_label(ctx, l, static_cast<int>(label.size()));
    }
  }
  size_t len = 0;
  auto run = [&](std::uint8_t* out) {
    return decrypt ? EVP_PKEY_decrypt(ctx, out, &len, in.data(), in.size())
                   : EVP_PKEY_encrypt(ctx, out, &len, in.data(), in.size());
  };
  EXPECT_EQ(run(nullptr), 1);
  bytes out(len);
  EXPECT_EQ(run(out.data()), 1);
  out.resize(len);
  EVP_PKEY_CTX_free(ctx);
  return out;
}

/// Engines that run RSA here (ref always; cpu and cuda when available).
std::vector<std::string> rsa_engines() { return {"ref", "cpu", "cuda"}; }

class RsaEngine : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    try {
      (void)engine::select_rsa_engine(GetParam(), 2048);
    } catch (const EngineUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
  }
  std::string_view eng() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(Engines, RsaEngine, ::testing::ValuesIn(rsa_engines()),
                         [](const auto& info) { return info.param; });

TEST_P(RsaEngine, Pkcs1v15SignaturesByteIdenticalToOpenssl) {
  std::mt19937_64 rng(1);
  for (std::size_t bits : {1024u, 2048u, 3072u, 4096u}) {
    const TestKey& k = test_key(bits);
    for (HashAlgorithm h : {HashAlgorithm::sha256, rsa::kSha1, HashAlgorithm::sha224, HashAlgorithm::sha384,
                            HashAlgorithm::sha512, HashAlgorithm::sha512_256, HashAlgorithm::sha3_256}) {
      if (bits > 2048 && h != HashAlgorithm::sha256) continue;  // every digest on the small keys; CI time
      SCOPED_TRACE(std::to_string(bits) + " " + rsa::digest_name(h));
      const bytes msg = test::random_bytes(rng, rng() % 300);
      rsa::SignOptions o;
      o.hash = h;
      o.engine = eng();
      const bytes sig = rsa::sign(k.key, msg, o);
      EXPECT_EQ(test::to_hex(sig), test::to_hex(ossl_sign(k.pkey.get(), msg, h, RSA_PKCS1_PADDING)));
      EXPECT_TRUE(rsa::verify(k.key.public_key(), msg, sig, o));
      bytes bad = sig;
      bad[rng() % bad.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      EXPECT_FALSE(rsa::verify(k.key.public_key(), msg, bad, o));
      bytes other = msg;
      other.push_back(1);
      EXPECT_FALSE(rsa::verify(k.key.public_key(), other, sig, o));
      // Prehashed (openssl pkeyutl without -rawin): the same signature from the digest.
      o.prehashed = true;
      EXPECT_EQ(rsa::sign(k.key, rsa::digest(h, msg), o), sig);
    }
  }
}

TEST_P(RsaEngine, PssBothWaysWithOpenssl) {
  std::mt19937_64 rng(2);
  for (std::size_t bits : {1024u, 2048u, 3072u, 4096u}) {
    const TestKey& k = test_key(bits);
    const bytes msg = test::random_bytes(rng, 100);
    for (HashAlgorithm h : {HashAlgorithm::sha256, HashAlgorithm::sha512}) {
      if (bits == 1024 && h == HashAlgorithm::sha512) continue;  // 2 * 64 + 2 bytes do not fit in 128
      SCOPED_TRACE(std::to_string(bits) + " " + rsa::digest_name(h));
      rsa::SignOptions o;
      o.padding = rsa::SignaturePadding::pss;
      o.hash = h;
      o.engine = eng();
      // Ours (salt = digest length) verified by OpenSSL; OpenSSL's (maximal salt) verified by ours with salt recovery.
      const bytes sig = rsa::sign(k.key, msg, o);
      EXPECT_TRUE(ossl_verify(k.pkey.get(), msg, sig, h, RSA_PKCS1_PSS_PADDING, RSA_PSS_SALTLEN_DIGEST));
      const bytes theirs = ossl_sign(k.pkey.get(), msg, h, RSA_PKCS1_PSS_PADDING, RSA_PSS_SALTLEN_MAX);
      EXPECT_TRUE(rsa::verify(k.key.public_key(), msg, theirs, o));
      rsa::SignOptions exact = o;
      exact.salt_length = rsa::digest_size(h);
      EXPECT_TRUE(rsa::verify(k.key.public_key(), msg, sig, exact));
      EXPECT_FALSE(rsa::verify(k.key.public_key(), msg, theirs, exact));  // wrong salt length
      // Salt 0 and an MGF1 hash different from the message hash.
      rsa::SignOptions zero = o;
      zero.salt_length = 0;
      zero.mgf_hash = HashAlgorithm::sha384;
      const bytes sig0 = rsa::sign(k.key, msg, zero);
      EXPECT_TRUE(rsa::verify(k.key.public_key(), msg, sig0, zero));
      rsa::SignOptions auto_salt = zero;
      auto_salt.salt_length.reset();
      EXPECT_TRUE(rsa::verify(k.key.public_key(), msg, sig0, auto_salt));
      bytes bad = sig;
      bad[bad.size() / 2] ^= 4;
      EXPECT_FALSE(rsa::verify(k.key.public_key(), msg, bad, o));
    }
  }
}

TEST_P(RsaEngine, EncryptionBothWaysWithOpenssl) {
  std::mt19937_64 rng(3);
  for (std::size_t bits : {1024u, 2048u, 3072u, 4096u}) {
    const TestKey& k = test_key(bits);
    const PublicKey pub = k.key.public_key();
    for (HashAlgorithm h : {HashAlgorithm::sha256, rsa::kSha1, HashAlgorithm::sha512}) {
      if (bits == 1024 && h == HashAlgorithm::sha512) {  // no room for any message: refused
        EXPECT_THROW(rsa::encrypt(pub, bytes{1}, rsa::EncryptOptions{rsa::EncryptionPadding::oaep, h}), InvalidArgument);
        continue;
      }
      SCOPED_TRACE(std::to_string(bits) + " OAEP " + rsa::digest_name(h));
      const bytes label = h == rsa::kSha1 ? bytes{} : test::random_bytes(rng, 9);
      rsa::EncryptOptions o;
      o.hash = h;
      o.label = label;
      o.engine = eng();
      const bytes msg = test::random_bytes(rng, 1 + rng() % 40);
      const bytes ct = rsa::encrypt(pub, msg, o);
      EXPECT_EQ(ossl_crypt(k.pkey.get(), ct, true, RSA_PKCS1_OAEP_PADDING, h, label), msg);
      const bytes theirs = ossl_crypt(k.pkey.get(), msg, false, RSA_PKCS1_OAEP_PADDING, h, label);
      EXPECT_EQ(rsa::decrypt(k.key, theirs, o), msg);
      bytes bad = theirs;
      bad[rng() % bad.size()] ^= 0x10;
      EXPECT_THROW(rsa::decrypt(k.key, bad, o), InvalidCiphertext);
      rsa::EncryptOptions wrong_label = o;
      const bytes other_label = {1, 2, 3};
      wrong_label.label = other_label;
      EXPECT_THROW(rsa::decrypt(k.key, theirs, wrong_label), InvalidCiphertext);
    }
    SCOPED_TRACE(std::to_string(bits) + " PKCS#1 v1.5");
    rsa::EncryptOptions p;
    p.padding = rsa::EncryptionPadding::pkcs1v15;
    p.engine = eng();
    const bytes msg = test::random_bytes(rng, 1 + rng() % 60);
    EXPECT_EQ(ossl_crypt(k.pkey.get(), rsa::encrypt(pub, msg, p), true, RSA_PKCS1_PADDING), msg);
    const bytes theirs = ossl_crypt(k.pkey.get(), msg, false, RSA_PKCS1_PADDING);
    EXPECT_EQ(rsa::decrypt(k.key, theirs, p), msg);
    // Empty and maximal messages.
    EXPECT_EQ(rsa::decrypt(k.key, rsa::encrypt(pub, {}, p), p), bytes{});
    const bytes longest = test::random_bytes(rng, k.key.size() - 11);
    EXPECT_EQ(rsa::decrypt(k.key, rsa::encrypt(pub, longest, p), p), longest);
    EXPECT_THROW(rsa::encrypt(pub, test::random_bytes(rng, k.key.size() - 10), p), InvalidArgument);
    // Malformed ciphertexts: wrong length, not below n, bad padding.
    EXPECT_THROW(rsa::decrypt(k.key, bytes(k.key.size() - 1, 1), p), InvalidCiphertext);
    EXPECT_THROW(rsa::decrypt(k.key, bytes(k.key.size(), 0xff), p), InvalidCiphertext);
    // Blocks that are never valid PKCS#1 v1.5 (raw RSA of a chosen block): no zero separator; block type 1.
    bytes no_separator(k.key.size(), 0x5a), type1(k.key.size(), 0xff);
    no_separator[0] = 0, no_separator[1] = 2;
    type1[0] = 0, type1[1] = 1, type1[20] = 0;
    EXPECT_THROW(rsa::decrypt(k.key, ossl_crypt(k.pkey.get(), no_separator, false, RSA_NO_PADDING), p), InvalidCiphertext);
    EXPECT_THROW(rsa::decrypt(k.key, ossl_crypt(k.pkey.get(), type1, false, RSA_NO_PADDING), p), InvalidCiphertext);
    // An OAEP ciphertext: its block is a valid v1.5 block about once in 400 (byte 1 = 0x02, no zero in the next 8
    // bytes, a zero after them), so the expectation is read off the block itself (OpenSSL's raw decryption).
    const bytes oaep_ct = rsa::encrypt(pub, msg, rsa::EncryptOptions{});
    const bytes block = ossl_crypt(k.pkey.get(), oaep_ct, true, RSA_NO_PADDING);
    const auto separator = std::find(block.begin() + 2, block.end(), std::uint8_t{0});
    const bool valid_v15 = block[0] == 0 && block[1] == 2 && separator != block.end() && separator - block.begin() >= 10;
    if (valid_v15)
      EXPECT_EQ(rsa::decrypt(k.key, oaep_ct, p), bytes(separator + 1, block.end()));
    else
      EXPECT_THROW(rsa::decrypt(k.key, oaep_ct, p), InvalidCiphertext);
  }
}

TEST_P(RsaEngine, MixedKeyBatches) {
  std::mt19937_64 rng(4);
  const std::vector<const TestKey*> keys = {&test_key(1024), &test_key(2048), &test_key(3072)};
  std::vector<PublicKey> pubs;
  for (const TestKey* k : keys) pubs.push_back(k->key.public_key());
  constexpr std::size_t kJobs = 9;
  std::vector<bytes> msgs, sigs;
  std::vector<rsa::SignJob> sj(kJobs);
  for (std::size_t i = 0; i < kJobs; ++i) {
    msgs.push_back(test::random_bytes(rng, 20 + i));
    sigs.emplace_back(keys[i % 3]->key.size());
  }
  for (std::size_t i = 0; i < kJobs; ++i) sj[i] = rsa::SignJob{&keys[i % 3]->key, msgs[i], sigs[i]};
  const BatchReport r = rsa::sign_batch(sj, {}, BatchOptions{eng()});
  EXPECT_EQ(r.succeeded, kJobs);
  EXPECT_EQ(r.engine, eng());
  for (std::size_t i = 0; i < kJobs; ++i)
    EXPECT_EQ(sigs[i], ossl_sign(keys[i % 3]->pkey.get(), msgs[i], HashAlgorithm::sha256, RSA_PKCS1_PADDING)) << i;
  // Verify: every third signature tampered, one with the wrong key.
  std::vector<bytes> tampered = sigs;
  for (std::size_t i = 0; i < kJobs; i += 3) tampered[i][5] ^= 1;
  std::vector<rsa::VerifyJob> vj(kJobs);
  for (std::size_t i = 0; i < kJobs; ++i) vj[i] = rsa::VerifyJob{&pubs[i % 3], msgs[i], tampered[i]};
  vj[4].key = &pubs[2];  // job 4 was signed with keys[1]
  rsa::verify_batch(vj, {}, BatchOptions{eng()});
  for (std::size_t i = 0; i < kJobs; ++i) {
    EXPECT_EQ(vj[i].status, JobStatus::ok);
    EXPECT_EQ(vj[i].valid, i % 3 != 0 && i != 4) << i;
  }
  // Decrypt: OpenSSL OAEP ciphertexts under the three keys; one corrupted.
  std::vector<bytes> cts, outs;
  for (std::size_t i = 0; i < kJobs; ++i) {
    cts.push_back(ossl_crypt(keys[i % 3]->pkey.get(), msgs[i], false, RSA_PKCS1_OAEP_PADDING));
    outs.emplace_back(keys[i % 3]->key.size());
  }
  cts[7][3] ^= 0x80;
  std::vector<rsa::DecryptJob> dj(kJobs);
  for (std::size_t i = 0; i < kJobs; ++i) dj[i] = rsa::DecryptJob{&keys[i % 3]->key, cts[i], outs[i]};
  const BatchReport dr = rsa::decrypt_batch(dj, {}, BatchOptions{eng()});
  EXPECT_EQ(dr.succeeded, kJobs - 1);
  for (std::size_t i = 0; i < kJobs; ++i) {
    if (i == 7) {
      EXPECT_EQ(dj[i].status, JobStatus::bad_decrypt);
      continue;
    }
    ASSERT_EQ(dj[i].status, JobStatus::ok) << i << dj[i].error;
    EXPECT_EQ(bytes(outs[i].begin(), outs[i].begin() + static_cast<std::ptrdiff_t>(dj[i].plaintext_len)), msgs[i]);
  }
  // A wrong-size signature buffer fails only its own job.
  bytes small(10);
  std::vector<rsa::SignJob> bad = {rsa::SignJob{&keys[0]->key, msgs[0], small}, rsa::SignJob{&keys[0]->key, msgs[0], sigs[0]}};
  const BatchReport br = rsa::sign_batch(bad, {}, BatchOptions{eng()});
  EXPECT_EQ(br.failed, 1u);
  EXPECT_EQ(bad[0].status, JobStatus::invalid_argument);
  EXPECT_EQ(bad[1].status, JobStatus::ok);
}

// Batches large enough for the cpu engine's multi-buffer IFMA kernel (src/cpu/rsa_ifma_mb.hpp: the CRT halves of
// four signatures of one size class per call): RSA-2048-class jobs under two keys (2048 and 2040 bits, so the lanes
// of one call hold different primes), RSA-3072 and -4096 jobs, and RSA-1024 jobs (no IFMA kernel) interleaved, so
// that a run holds full groups, groups with unused lanes and single jobs; on one thread and on two. Every signature
// must be OpenSSL's.
TEST_P(RsaEngine, MultiBufferSizedBatchesOfMixedKeys) {
  std::mt19937_64 rng(8);
  const TestKey* a = &test_key(2048);
  const TestKey* b = &test_key(2040);
  const TestKey* c = &test_key(3072);
  const TestKey* d = &test_key(4096);
  const TestKey* e = &test_key(1024);
  const std::vector<const TestKey*> order = {a, b, c, a, d, b, e, a, c, b, d, a, b, c, d, a, b, c, d, a, c, e};
  std::vector<bytes> msgs, sigs;
  for (std::size_t i = 0; i < order.size(); ++i) msgs.push_back(test::random_bytes(rng, 10 + i));
  for (std::size_t threads : {1u, 2u}) {
    SCOPED_TRACE(std::to_string(threads) + " thread(s)");
    sigs.clear();
    for (const TestKey* k : order) sigs.emplace_back(k->key.size());
    std::vector<rsa::SignJob> jobs(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) jobs[i] = rsa::SignJob{&order[i]->key, msgs[i], sigs[i]};
    BatchOptions batch{eng()};
    batch.threads = threads;
    const BatchReport r = rsa::sign_batch(jobs, {}, batch);
    EXPECT_EQ(r.succeeded, order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      EXPECT_EQ(sigs[i], ossl_sign(order[i]->pkey.get(), msgs[i], HashAlgorithm::sha256, RSA_PKCS1_PADDING))
          << "job " << i << " (" << order[i]->key.bits() << " bits): " << jobs[i].error;
  }
}

// Every private operation draws its blinding pair from the key's pool of jointly inverted random values
// (src/rsa/private_op.cpp): sign more than two pools' worth (kPool fresh values, each used kRefresh times) with one
// fresh key, on two threads, so that refills and refreshes happen mid-batch; every signature must be OpenSSL's. A
// wrong inverse in the pool would make the result check reject the operation (or, without it, the signature).
TEST_P(RsaEngine, BlindingPoolRefillsStayCorrect) {
  constexpr std::size_t kJobs = 2 * rsa::Blinding::kPool * rsa::Blinding::kRefresh + rsa::Blinding::kRefresh + 3;
  std::mt19937_64 rng(7);
  const Pkey pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t{1024}), PkeyDel{});
  const PrivateKey key = PrivateKey::from_pem(pem_of(pkey.get()));
  std::vector<bytes> msgs, sigs;
  for (std::size_t i = 0; i < kJobs; ++i) {
    msgs.push_back(test::random_bytes(rng, 32));
    sigs.emplace_back(key.size());
  }
  std::vector<rsa::SignJob> jobs(kJobs);
  for (std::size_t i = 0; i < kJobs; ++i) jobs[i] = rsa::SignJob{&key, msgs[i], sigs[i]};
  BatchOptions batch{eng()};
  batch.threads = 2;
  const BatchReport r = rsa::sign_batch(jobs, {}, batch);
  EXPECT_EQ(r.succeeded, kJobs);
  for (std::size_t i = 0; i < kJobs; ++i)
    ASSERT_EQ(sigs[i], ossl_sign(pkey.get(), msgs[i], HashAlgorithm::sha256, RSA_PKCS1_PADDING))
        << "job " << i << ": " << jobs[i].error;
}

TEST_P(RsaEngine, Rsa8192Once) {
  const TestKey& k = test_key(8192);
  EXPECT_EQ(k.key.bits(), 8192u);
  const bytes msg = {'h', 'i'};
  rsa::SignOptions o;
  o.engine = eng();
  const bytes sig = rsa::sign(k.key, msg, o);
  EXPECT_EQ(sig, ossl_sign(k.pkey.get(), msg, HashAlgorithm::sha256, RSA_PKCS1_PADDING));
  EXPECT_TRUE(rsa::verify(k.key.public_key(), msg, sig, o));
}

TEST(RsaKeys, FormatsAndPasswords) {
  const TestKey& k = test_key(1024);
  const PublicKey pub = k.key.public_key();
  // PKCS#1 "RSA PRIVATE KEY", PKCS#8, encrypted PKCS#8 (ours) and DER.
  const PrivateKey a = PrivateKey::from_pem(pem_of(k.pkey.get(), true));
  EXPECT_EQ(a.public_key().n(), pub.n());
  const std::string enc = k.key.to_pem("correct horse");
  EXPECT_NE(enc.find("ENCRYPTED PRIVATE KEY"), std::string::npos);
  EXPECT_EQ(PrivateKey::from_pem(enc, "correct horse").public_key().n(), pub.n());
  EXPECT_THROW(PrivateKey::from_pem(enc, "wrong"), InvalidArgument);
  EXPECT_THROW(PrivateKey::from_pem(enc), InvalidArgument);
  EXPECT_EQ(PrivateKey::from_pem(k.key.to_pem()).public_key().e(), pub.e());
  // Public keys: SPKI PEM (ours), PKCS#1 PEM and DER (OpenSSL's encoders), from_numbers.
  EXPECT_EQ(PublicKey::from_pem(pub.to_pem()).n(), pub.n());
  for (const char* structure : {"SubjectPublicKeyInfo", "type-specific"}) {
    for (const char* type : {"PEM", "DER"}) {
      BIO* bio = BIO_new(BIO_s_mem());
      OSSL_ENCODER_CTX* ctx = OSSL_ENCODER_CTX_new_for_pkey(k.pkey.get(), EVP_PKEY_PUBLIC_KEY, type, structure, nullptr);
      ASSERT_EQ(OSSL_ENCODER_to_bio(ctx, bio), 1);
      OSSL_ENCODER_CTX_free(ctx);
      char* p = nullptr;
      const long n = BIO_get_mem_data(bio, &p);
      const std::string data(p, static_cast<std::size_t>(n));
      BIO_free(bio);
      const PublicKey got = std::string(type) == "PEM"
                                ? PublicKey::from_pem(data)
                                : PublicKey::from_der(bytes(data.begin(), data.end()));
      EXPECT_EQ(got.n(), pub.n()) << structure << " " << type;
      EXPECT_EQ(got.bits(), 1024u);
    }
  }
  EXPECT_EQ(PublicKey::from_numbers(pub.n(), pub.e()).size(), 128u);
  EXPECT_EQ(pub.e(), (bytes{0x01, 0x00, 0x01}));
  // Refused: garbage, a 512-bit key, a non-RSA key.
  EXPECT_THROW(PublicKey::from_pem("not a key"), InvalidArgument);
  EXPECT_THROW(PrivateKey::from_der(bytes{1, 2, 3}), InvalidArgument);
  Pkey small(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(512)), PkeyDel{});
  EXPECT_THROW(PrivateKey::from_pem(pem_of(small.get())), InvalidArgument);
  Pkey ec(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"), PkeyDel{});
  EXPECT_THROW(PrivateKey::from_pem(pem_of(ec.get())), InvalidArgument);
  EXPECT_THROW(PrivateKey::generate(1000 - 512), InvalidArgument);
  // generate(): a key OpenSSL accepts.
  const PrivateKey g = PrivateKey::generate(1024, 3);
  EXPECT_EQ(g.public_key().e(), bytes{3});
  Pkey gp = pkey_from_pem(g.to_pem());
  ASSERT_TRUE(gp);
  const bytes msg = {1, 2, 3};
  EXPECT_TRUE(ossl_verify(gp.get(), msg, rsa::sign(g, msg), HashAlgorithm::sha256, RSA_PKCS1_PADDING));
}

TEST(RsaKeys, InconsistentKeyIsCaughtByTheResultCheck) {
  // A key whose CRT exponent dp is wrong (as after a fault in memory): the signature would leak a factor of n
  // (Boneh–DeMillo–Lipton), so the check must refuse to release it, on every engine.
  const TestKey& k = test_key(1024);
  BIGNUM *n = nullptr, *e = nullptr, *d = nullptr, *p = nullptr, *q = nullptr, *dp = nullptr, *dq = nullptr,
         *qi = nullptr;
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_N, &n);
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_E, &e);
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_D, &d);
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_FACTOR1, &p);
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_FACTOR2, &q);
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_EXPONENT1, &dp);
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_EXPONENT2, &dq);
  EVP_PKEY_get_bn_param(k.pkey.get(), OSSL_PKEY_PARAM_RSA_COEFFICIENT1, &qi);
  BN_add_word(dp, 2);
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, p);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, q);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qi);
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* bad = nullptr;
  ASSERT_EQ(EVP_PKEY_fromdata_init(ctx), 1);
  ASSERT_EQ(EVP_PKEY_fromdata(ctx, &bad, EVP_PKEY_KEYPAIR, params), 1);
  Pkey badp(bad, PkeyDel{});
  OSSL_PARAM_free(params), OSSL_PARAM_BLD_free(bld), EVP_PKEY_CTX_free(ctx);
  for (BIGNUM* b : {n, e, d, p, q, dp, dq, qi}) BN_clear_free(b);
  const PrivateKey key = PrivateKey::from_pem(pem_of(badp.get()));
  for (const std::string& engine : rsa_engines()) {
    try {
      (void)engine::select_rsa_engine(engine, 1024);
    } catch (const EngineUnavailable&) {
      continue;
    }
    rsa::SignOptions o;
    o.engine = engine;
    EXPECT_THROW(rsa::sign(key, bytes{1, 2, 3}, o), Error) << engine;
    bytes sig(key.size(), 0xaa);
    const bytes msg = {1};
    rsa::SignJob job{&key, msg, sig};
    rsa::sign_batch({&job, 1}, o, BatchOptions{engine});
    EXPECT_NE(job.status, JobStatus::ok);
    EXPECT_EQ(sig, bytes(key.size(), 0)) << "nothing of the faulty result is released";
  }
}

TEST(RsaKeys, DigestNames) {
  EXPECT_EQ(rsa::parse_digest("SHA-1"), rsa::kSha1);
  EXPECT_EQ(rsa::parse_digest("sha256"), HashAlgorithm::sha256);
  EXPECT_EQ(rsa::digest_size(rsa::kSha1), 20u);
  EXPECT_EQ(rsa::digest_name(HashAlgorithm::sha512_256), "sha512-256");
  EXPECT_THROW(rsa::digest_size(HashAlgorithm::sm3), InvalidArgument);
  EXPECT_THROW(rsa::parse_digest("md5"), InvalidArgument);
}

}  // namespace
}  // namespace cryptaccel

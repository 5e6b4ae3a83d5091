// SHA512_Init and friends are deprecated in OpenSSL 3 (kept through 3.x); see openssl_sha512_one below.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "cpu/openssl_digest.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <array>

#include "algo/hash_message.hpp"
#include "cryptaccel/types.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel::cpu {
namespace {

/// OpenSSL's name for each algorithm, in HashAlgorithm order.
constexpr std::array<const char*, 13> kNames = {"SHA224",   "SHA256",   "SHA384",   "SHA512",   "SHA512-224",
                                                "SHA512-256", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512",
                                                "SHAKE128", "SHAKE256", "SM3"};

/// Digests fetched once for the process (nullptr where this OpenSSL lacks one).
const EVP_MD* evp_md(HashAlgorithm algorithm) {
  static const auto table = [] {
    std::array<EVP_MD*, kNames.size()> t{};
    for (std::size_t i = 0; i < kNames.size(); ++i) t[i] = EVP_MD_fetch(nullptr, kNames[i], nullptr);
    ERR_clear_error();
    return t;
  }();
  return table[static_cast<std::size_t>(algorithm)];
}

/// This thread's digest context, kept between calls: it saves allocating and freeing an EVP_MD_CTX per call (OpenSSL
/// 3.0 still renews the provider context inside it on every EVP_DigestInit_ex2, which is why openssl_sha512_one
/// exists). What stays in it after a call is the last message's final chaining value; its buffered input was
/// cleansed by the final call.
EVP_MD_CTX* context_for_this_thread() {
  struct Owner {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Owner() { EVP_MD_CTX_free(ctx); }
  };
  thread_local Owner owner;
  return owner.ctx;
}

}  // namespace

bool openssl_digest_supports(HashAlgorithm algorithm) { return evp_md(algorithm) != nullptr; }

// Not through EVP, whose provider context EVP_DigestInit frees and allocates again for every message: 649 against
// 836 TSC cycles for a 16-byte SHA-512 (best of 300 x 100 on the Xeon of bench/results/2026-11-28-xeon-2c-ifma-vaes).
// SHA-512/t has no public init: SHA512_Init's context takes FIPS 180-4's initial hash value for t (algo::hash_init)
// and the digest length, which SHA512_Final honours for 28 and 32 bytes.
bool openssl_sha512_one(HashAlgorithm algorithm, HashJob& job) {
  const algo::HashVariant v = engine::to_variant(algorithm);
  if (algo::hash_family(v) != algo::HashFamily::sha512) return false;
  SHA512_CTX c;
  std::uint64_t iv[25];
  algo::hash_init(v, iv);
  bool ok = SHA512_Init(&c) == 1;
  for (int i = 0; i < 8; ++i) c.h[i] = iv[i];
  c.md_len = static_cast<unsigned>(job.digest.size());
  ok = ok && SHA512_Update(&c, job.in.data(), job.in.size()) == 1 && SHA512_Final(job.digest.data(), &c) == 1;
  secure_wipe(&c, sizeof c);
  job.status = ok ? JobStatus::ok : JobStatus::invalid_argument;
  if (!ok) job.error = "OpenSSL digest failed";
  return true;
}

void openssl_digest_run(HashAlgorithm algorithm, std::span<HashJob> jobs, std::size_t min_bytes) {
  const EVP_MD* md = evp_md(algorithm);
  const bool xof = hash_info(algorithm).xof;
  EVP_MD_CTX* ctx = context_for_this_thread();
  for (HashJob& job : jobs) {
    if (job.status != JobStatus::pending || job.in.size() < min_bytes) continue;
    unsigned len = 0;
    const bool ok = ctx && EVP_DigestInit_ex2(ctx, md, nullptr) == 1 &&
                    EVP_DigestUpdate(ctx, job.in.data(), job.in.size()) == 1 &&
                    (xof ? EVP_DigestFinalXOF(ctx, job.digest.data(), job.digest.size()) == 1
                         : EVP_DigestFinal_ex(ctx, job.digest.data(), &len) == 1);
    if (ok) {
      job.status = JobStatus::ok;
    } else {
      ERR_clear_error();
      job.status = JobStatus::invalid_argument;
      job.error = "OpenSSL digest failed";
    }
  }
}

}  // namespace cryptaccel::cpu

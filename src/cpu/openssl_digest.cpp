#include "cpu/openssl_digest.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <array>
#include <memory>

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

}  // namespace

bool openssl_digest_supports(HashAlgorithm algorithm) { return evp_md(algorithm) != nullptr; }

void openssl_digest_run(HashAlgorithm algorithm, std::span<HashJob> jobs, std::size_t min_bytes) {
  const EVP_MD* md = evp_md(algorithm);
  const bool xof = hash_info(algorithm).xof;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  for (HashJob& job : jobs) {
    if (job.status != JobStatus::pending || job.in.size() < min_bytes) continue;
    unsigned len = 0;
    const bool ok = ctx && EVP_DigestInit_ex2(ctx.get(), md, nullptr) == 1 &&
                    EVP_DigestUpdate(ctx.get(), job.in.data(), job.in.size()) == 1 &&
                    (xof ? EVP_DigestFinalXOF(ctx.get(), job.digest.data(), job.digest.size()) == 1
                         : EVP_DigestFinal_ex(ctx.get(), job.digest.data(), &len) == 1);
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

// The speed harness, RSA family: "rsa1024" ... "rsa8192" time private-key signing (PKCS#1 v1.5 over a SHA-256
// digest: one CRT exponentiation plus the check of its result) and public-key verification (e = 65537), in operations
// per second, as `openssl speed rsa2048` does. One fresh key per workload, from OpenSSL's generator. Before timing,
// the implementation's signatures are compared byte for byte with the ref engine's (PKCS#1 v1.5 is deterministic),
// and its verification must accept them and reject a corrupted one. --vs openssl times EVP_PKEY_sign/verify with the
// same key and digests on one thread.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

#include "cryptaccel/error.hpp"
#include "cryptaccel/rsa.hpp"
#include "families.hpp"
#include "openssl_fail.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::bench {
namespace {

constexpr std::size_t kDigestBytes = 32;  // a SHA-256 digest, signed prehashed
constexpr std::size_t kVerifyMessages = 6;

rsa::SignOptions sign_options() {
  rsa::SignOptions o;
  o.padding = rsa::SignaturePadding::pkcs1v15;
  o.hash = HashAlgorithm::sha256;
  o.prehashed = true;
  return o;
}

// --- OpenSSL -----------------------------------------------------------------------------------------------------

PkeyPtr to_openssl(const rsa::PrivateKey& key) {
  std::string pem = key.to_pem();
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
  if (!bio) openssl_fail("BIO_new_mem_buf");
  PkeyPtr pkey(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  secure_wipe(pem.data(), pem.size());
  if (!pkey) openssl_fail("PEM_read_bio_PrivateKey");
  return pkey;
}

/// An EVP_PKEY_CTX set up for PKCS#1 v1.5 with SHA-256, for signing or verifying.
PkeyCtxPtr evp_context(EVP_PKEY* pkey, bool signing) {
  PkeyCtxPtr ctx(EVP_PKEY_CTX_new(pkey, nullptr));
  if (!ctx) openssl_fail("EVP_PKEY_CTX_new");
  if ((signing ? EVP_PKEY_sign_init(ctx.get()) : EVP_PKEY_verify_init(ctx.get())) != 1)
    openssl_fail("EVP_PKEY_sign/verify_init");
  if (EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING) != 1) openssl_fail("EVP_PKEY_CTX_set_rsa_padding");
  if (EVP_PKEY_CTX_set_signature_md(ctx.get(), EVP_sha256()) != 1) openssl_fail("EVP_PKEY_CTX_set_signature_md");
  return ctx;
}

bytes evp_sign(EVP_PKEY_CTX* ctx, bytes_view digest, std::size_t size) {
  bytes sig(size);
  std::size_t len = sig.size();
  if (EVP_PKEY_sign(ctx, sig.data(), &len, digest.data(), digest.size()) != 1) openssl_fail("EVP_PKEY_sign");
  sig.resize(len);
  return sig;
}

bool evp_verify(EVP_PKEY_CTX* ctx, bytes_view digest, bytes_view sig) {
  const int rc = EVP_PKEY_verify(ctx, sig.data(), sig.size(), digest.data(), digest.size());
  ERR_clear_error();
  return rc == 1;
}

// --- cells -------------------------------------------------------------------------------------------------------

/// `count` random digests, their signatures (made by ref) and room for new ones.
struct RsaMessages {
  std::size_t count = 0;
  std::size_t size = 0;  // modulus bytes
  bytes digests;
  bytes signatures;

  bytes_view digest(std::size_t i) const { return bytes_view(digests).subspan(i * kDigestBytes, kDigestBytes); }
  mutable_bytes signature(std::size_t i) { return mutable_bytes(signatures).subspan(i * size, size); }
};

/// `count` jobs on `key`: job i signs or checks message(i) with signature(i) (sign and verify jobs alike).
template <class Job, class Key, class Message, class Signature>
std::vector<Job> rsa_jobs(const Key& key, std::size_t count, Message message, Signature signature) {
  std::vector<Job> jobs(count);
  for (std::size_t i = 0; i < count; ++i) {
    jobs[i].key = &key;
    jobs[i].message = message(i);
    jobs[i].signature = signature(i);
  }
  return jobs;
}

/// Batch options for `engine` on `threads` host threads.
BatchOptions batch_on(std::string_view engine, std::size_t threads) {
  BatchOptions batch;
  batch.engine = engine;
  batch.threads = threads;
  return batch;
}

/// The engine's side: one sign_batch (Job = rsa::SignJob, Key = rsa::PrivateKey) or verify_batch (rsa::VerifyJob,
/// rsa::PublicKey) call over every message per run.
template <class Job, class Key>
class EngineRsaCell final : public Cell {
 public:
  EngineRsaCell(const Key& key, RsaMessages m, std::string engine, std::size_t threads)
      : m_(std::move(m)),
        engine_(std::move(engine)),
        batch_(batch_on(engine_, threads)),
        jobs_(rsa_jobs<Job>(key, m_.count, [&](std::size_t i) { return m_.digest(i); },
                            [&](std::size_t i) { return m_.signature(i); })) {}
  void run() override {
    constexpr bool signing = std::is_same_v<Job, rsa::SignJob>;
    BatchReport report;
    if constexpr (signing) report = rsa::sign_batch(jobs_, options_, batch_);
    else report = rsa::verify_batch(jobs_, options_, batch_);
    for (const Job& job : jobs_) {
      if (job.status != JobStatus::ok) throw std::runtime_error("engine '" + report.engine + "' failed: " + job.error);
      if constexpr (!signing) {
        if (!job.valid) throw std::runtime_error("engine '" + report.engine + "' rejected a valid signature");
      }
    }
  }

 private:
  RsaMessages m_;
  std::string engine_;
  BatchOptions batch_;  // views engine_
  std::vector<Job> jobs_;
  rsa::SignOptions options_ = sign_options();
};
using EngineSignCell = EngineRsaCell<rsa::SignJob, rsa::PrivateKey>;
using EngineVerifyCell = EngineRsaCell<rsa::VerifyJob, rsa::PublicKey>;

class EvpCell final : public Cell {
 public:
  EvpCell(PkeyPtr pkey, RsaMessages m, bool signing)
      : m_(std::move(m)), pkey_(std::move(pkey)), ctx_(evp_context(pkey_.get(), signing)), signing_(signing) {}
  void run() override {
    for (std::size_t i = 0; i < m_.count; ++i) {
      const bytes_view digest = m_.digest(i);
      if (signing_) {
        std::size_t len = m_.size;
        if (EVP_PKEY_sign(ctx_.get(), m_.signature(i).data(), &len, digest.data(), digest.size()) != 1)
          openssl_fail("EVP_PKEY_sign");
      } else if (EVP_PKEY_verify(ctx_.get(), m_.signature(i).data(), m_.size, digest.data(), digest.size()) != 1) {
        openssl_fail("EVP_PKEY_verify");
      }
    }
  }

 private:
  RsaMessages m_;
  PkeyPtr pkey_;
  PkeyCtxPtr ctx_;
  bool signing_;
};

// --- the workload ------------------------------------------------------------------------------------------------

std::optional<std::size_t> parse_bits(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (n.rfind("rsa", 0) != 0) return std::nullopt;
  std::string_view digits = std::string_view(n).substr(3);
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '_')) digits.remove_prefix(1);
  std::size_t bits = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  for (const std::size_t b : rsa::kSupportedBits)
    if (b == bits) return bits;
  return std::nullopt;
}

/// Signs every digest in one sign_batch call on `engine`; throws naming the first failed job.
std::vector<bytes> engine_sign(const rsa::PrivateKey& key, const std::vector<bytes>& digests, std::string_view engine,
                               std::size_t threads) {
  std::vector<bytes> sigs(digests.size(), bytes(key.size()));
  std::vector<rsa::SignJob> jobs = rsa_jobs<rsa::SignJob>(
      key, digests.size(), [&](std::size_t i) { return bytes_view(digests[i]); },
      [&](std::size_t i) { return mutable_bytes(sigs[i]); });
  rsa::sign_batch(jobs, sign_options(), batch_on(engine, threads));
  for (const rsa::SignJob& job : jobs)
    if (job.status != JobStatus::ok) throw std::runtime_error("signing failed: " + job.error);
  return sigs;
}

std::vector<bool> engine_verify(const rsa::PublicKey& key, const std::vector<bytes>& digests,
                                const std::vector<bytes>& sigs, std::string_view engine, std::size_t threads) {
  std::vector<rsa::VerifyJob> jobs = rsa_jobs<rsa::VerifyJob>(
      key, digests.size(), [&](std::size_t i) { return bytes_view(digests[i]); },
      [&](std::size_t i) { return bytes_view(sigs[i]); });
  rsa::verify_batch(jobs, sign_options(), batch_on(engine, threads));
  std::vector<bool> out;
  for (const rsa::VerifyJob& job : jobs) {
    if (job.status != JobStatus::ok) throw std::runtime_error("verification failed: " + job.error);
    out.push_back(job.valid);
  }
  return out;
}

class RsaWorkload final : public Workload {
 public:
  explicit RsaWorkload(std::size_t bits) : bits_(bits), name_("rsa" + std::to_string(bits)) {}

  const std::string& name() const override { return name_; }
  std::vector<std::string> operations() const override { return {"sign", "verify"}; }
  std::size_t operation_bytes() const override { return bits_ / 8; }

  std::string unsupported(std::string_view impl) const override {
    if (impl == kOpenSsl) return {};
    return engine_unavailable(impl);
  }

  std::string resolve(std::string_view impl) const override {
    if (impl == kOpenSsl) return std::string(kOpenSsl);
    BatchOptions batch;
    batch.engine = impl;
    return rsa::sign_batch(std::span<rsa::SignJob>{}, sign_options(), batch).engine;  // no jobs: the engine choice
  }

  std::string unsupported_size(std::string_view, std::size_t) const override { return {}; }

  std::string verify(std::string_view impl, std::size_t threads, Rng& rng) const override {
    const bool corrupt = inject_mismatch(*this, impl);
    const rsa::PrivateKey& k = key();
    const rsa::PublicKey pub = k.public_key();
    std::vector<bytes> digests(kVerifyMessages, bytes(kDigestBytes));
    for (bytes& d : digests) fill_random(d, rng);
    std::vector<bytes> expected;
    try {
      expected = engine_sign(k, digests, "ref", 1);
    } catch (const std::exception& e) {
      return std::string("the ref engine: ") + e.what();
    }
    const auto compare_sig = [&](std::size_t i, const bytes& got, std::string_view how) -> std::string {
      if (got == expected[i]) return {};
      return "signature differs from the ref engine's on digest " + std::to_string(i) + " " + std::string(how);
    };
    try {
      if (impl == kOpenSsl) {
        const PkeyPtr pkey = to_openssl(k);
        const PkeyCtxPtr sctx = evp_context(pkey.get(), true);
        const PkeyCtxPtr vctx = evp_context(pkey.get(), false);
        for (std::size_t i = 0; i < digests.size(); ++i) {
          bytes got = evp_sign(sctx.get(), digests[i], k.size());
          if (corrupt) got.back() ^= 1;
          if (std::string why = compare_sig(i, got, "(OpenSSL)"); !why.empty()) return why;
          if (!evp_verify(vctx.get(), digests[i], expected[i])) return "OpenSSL rejected the ref engine's signature";
        }
        bytes bad = expected[0];
        bad[bad.size() / 2] ^= 0x10;
        if (evp_verify(vctx.get(), digests[0], bad)) return "OpenSSL accepted a corrupted signature";
        return {};
      }
      // As timed: all in one batch, then each alone.
      std::vector<bytes> together = engine_sign(k, digests, impl, threads);
      if (corrupt) together.back().back() ^= 1;
      for (std::size_t i = 0; i < digests.size(); ++i)
        if (std::string why = compare_sig(i, together[i], "in a batch"); !why.empty()) return why;
      for (std::size_t i = 0; i < digests.size(); ++i) {
        const std::vector<bytes> one = engine_sign(k, {digests[i]}, impl, threads);
        if (std::string why = compare_sig(i, one[0], "alone"); !why.empty()) return why;
      }
      std::vector<bytes> sigs = expected;
      sigs.push_back(expected[0]);
      sigs.back()[sigs.back().size() / 2] ^= 0x10;
      std::vector<bytes> ds = digests;
      ds.push_back(digests[0]);
      const std::vector<bool> ok = engine_verify(pub, ds, sigs, impl, threads);
      for (std::size_t i = 0; i < digests.size(); ++i)
        if (!ok[i]) return "the engine rejected the ref engine's signature of digest " + std::to_string(i);
      if (ok.back()) return "the engine accepted a corrupted signature";
      return {};
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  std::unique_ptr<Cell> prepare(std::string_view impl, const CellShape& shape, Rng& rng) const override {
    const rsa::PrivateKey& k = key();
    RsaMessages m;
    m.count = shape.messages;
    m.size = k.size();
    m.digests.resize(m.count * kDigestBytes);
    fill_random(m.digests, rng);
    m.signatures.assign(m.count * m.size, 0);
    const bool signing = shape.operation == "sign";
    if (!signing && shape.operation != "verify")
      throw std::runtime_error("unknown RSA operation '" + shape.operation + "'");
    if (!signing) {  // signatures to verify, made by ref
      std::vector<bytes> ds;
      for (std::size_t i = 0; i < m.count; ++i) ds.emplace_back(m.digest(i).begin(), m.digest(i).end());
      const std::vector<bytes> sigs = engine_sign(k, ds, "ref", 0);
      for (std::size_t i = 0; i < m.count; ++i) std::copy(sigs[i].begin(), sigs[i].end(), m.signature(i).begin());
    }
    if (impl == kOpenSsl) return std::make_unique<EvpCell>(to_openssl(k), std::move(m), signing);
    if (signing) return std::make_unique<EngineSignCell>(k, std::move(m), std::string(impl), shape.threads);
    if (!public_) public_ = k.public_key();
    return std::make_unique<EngineVerifyCell>(*public_, std::move(m), std::string(impl), shape.threads);
  }

 private:
  /// The workload's key, generated on first use (a 4096-bit key takes a moment).
  const rsa::PrivateKey& key() const {
    if (!key_) key_ = rsa::PrivateKey::generate(bits_);
    return *key_;
  }

  std::size_t bits_;
  std::string name_;
  mutable std::optional<rsa::PrivateKey> key_;
  mutable std::optional<rsa::PublicKey> public_;
};

}  // namespace

std::vector<std::string> rsa_workload_names() {
  std::vector<std::string> out;
  for (const std::size_t bits : rsa::kSupportedBits) out.push_back("rsa" + std::to_string(bits));
  return out;
}

std::unique_ptr<Workload> make_rsa_workload(std::string_view name) {
  const std::optional<std::size_t> bits = parse_bits(name);
  if (!bits) return nullptr;
  return std::make_unique<RsaWorkload>(*bits);
}

}  // namespace cryptaccel::bench

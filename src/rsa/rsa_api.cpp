// The public RSA API (include/cryptaccel/rsa.hpp): option checks, padding per job, the engine's raw operations
// through private_op (blinding and the result check), one-shot calls as one-job batches.
#include <openssl/bn.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "common/secret_buffer.hpp"
#include "engine/dispatch.hpp"
#include "engine/engine.hpp"
#include "engine/thread_pool.hpp"
#include "rsa/key_impl.hpp"
#include "rsa/padding.hpp"
#include "rsa/private_op.hpp"

namespace cryptaccel::rsa {

HashAlgorithm parse_digest(std::string_view name) {
  std::string squashed;
  for (char c : name)
    if (c != '-' && c != '_') squashed += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (squashed == "sha1") return kSha1;
  return parse_hash(name);
}

std::size_t digest_size(HashAlgorithm algorithm) {
  if (algorithm == kSha1) return 20;
  switch (algorithm) {
    case HashAlgorithm::shake128:
    case HashAlgorithm::shake256:
    case HashAlgorithm::sm3:
      throw InvalidArgument("rsa: " + std::string(hash_info(algorithm).name) +
                            " is not an RSA digest (use SHA-1, SHA-2 or SHA-3)");
    default: break;
  }
  if (static_cast<unsigned>(algorithm) > static_cast<unsigned>(HashAlgorithm::sm3))
    throw InvalidArgument("rsa: unknown digest");
  return hash_info(algorithm).digest_size;
}

std::string digest_name(HashAlgorithm algorithm) {
  if (algorithm == kSha1) return "sha1";
  (void)digest_size(algorithm);
  switch (algorithm) {
    case HashAlgorithm::sha512_224: return "sha512-224";
    case HashAlgorithm::sha512_256: return "sha512-256";
    case HashAlgorithm::sha3_224: return "sha3-224";
    case HashAlgorithm::sha3_256: return "sha3-256";
    case HashAlgorithm::sha3_384: return "sha3-384";
    case HashAlgorithm::sha3_512: return "sha3-512";
    default: return std::string(hash_info(algorithm).name);
  }
}

namespace {

constexpr const char* kCheckFailed = "rsa: the private-key result failed its check (inconsistent key or fault); nothing released";

/// The engine for a batch of `kind` operations whose largest modulus has `bits` bits.
template <class Job, class KeyOf>
const engine::Engine& pick_engine(std::string_view requested, engine::WorkKind kind, std::span<Job> jobs,
                                  KeyOf key_of) {
  std::size_t bits = 1024;
  for (const Job& j : jobs)
    if (const auto* k = key_of(j)) bits = std::max(bits, k->bits());
  return engine::select_rsa_engine(requested, bits, engine::Work::of(kind, jobs.size(), 0));
}

/// The message digest a signature covers (the message itself when prehashed, checked for length).
bytes message_digest(const SignOptions& o, bytes_view message) {
  if (o.prehashed) {
    if (message.size() != digest_size(o.hash))
      throw InvalidArgument("rsa: a prehashed message must be the " + digest_name(o.hash) + " digest (" +
                            std::to_string(digest_size(o.hash)) + " bytes)");
    return bytes(message.begin(), message.end());
  }
  return digest(o.hash, message);
}

void check_sign_options(const SignOptions& o) {
  (void)digest_size(o.hash);
  if (o.mgf_hash) (void)digest_size(*o.mgf_hash);
}

HashAlgorithm mgf_of(const SignOptions& o) { return o.mgf_hash.value_or(o.hash); }
HashAlgorithm mgf_of(const EncryptOptions& o) { return o.mgf_hash.value_or(o.hash); }

/// Encodes the signature input for `key`; false when the key is too small for the hash (and salt).
bool encode_signature(const SignOptions& o, const PublicKey& key, bytes_view m_hash, std::uint8_t* em) {
  if (o.padding == SignaturePadding::pkcs1v15) return emsa_pkcs1v15_encode(o.hash, m_hash, em, key.size());
  return emsa_pss_encode(o.hash, mgf_of(o), m_hash, *pss_salt_length(o, key.bits(), true), key.bits(), em,
                         key.size());
}

/// Marks `job` failed with `status` and a one-line reason.
template <class Job>
void fail(Job& job, JobStatus status, std::string error) {
  job.status = status;
  job.error = std::move(error);
}

BatchReport report(const engine::Engine& e, std::size_t ok, std::size_t total) {
  return BatchReport{std::string(e.name()), ok, total - ok};
}

}  // namespace

// ---- batches ----

BatchReport sign_batch(std::span<SignJob> jobs, const SignOptions& options, const BatchOptions& batch) {
  check_sign_options(options);
  const engine::Engine& eng =
      pick_engine(batch.engine, engine::WorkKind::rsa_private, jobs, [](const SignJob& j) { return j.key; });
  std::vector<bytes> ems(jobs.size());
  std::vector<PrivateItem> items(jobs.size());
  engine::parallel_for(jobs.size(), batch.threads, [&](std::size_t i) {
    SignJob& j = jobs[i];
    if (!j.key) return fail(j, JobStatus::invalid_argument, "rsa: job without a key");
    const PublicKey& pub = j.key->impl().pub;
    if (j.signature.size() != pub.size())
      return fail(j, JobStatus::invalid_argument, "rsa: the signature buffer must be " + std::to_string(pub.size()) + " bytes");
    try {
      const bytes m_hash = message_digest(options, j.message);
      ems[i].assign(pub.size(), 0);
      if (!encode_signature(options, pub, m_hash, ems[i].data()))
        return fail(j, JobStatus::invalid_argument, "rsa: the key is too small for this digest and padding");
    } catch (const Error& e) {
      return fail(j, JobStatus::invalid_argument, e.what());
    }
    items[i] = PrivateItem{j.key, ems[i].data(), j.signature.data(), false, true};
  });
  std::vector<PrivateItem> run;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (items[i].key) run.push_back(items[i]), index.push_back(i);
  run_private(eng, run, batch.threads);
  std::size_t ok = 0;
  for (std::size_t r = 0; r < run.size(); ++r) {
    SignJob& j = jobs[index[r]];
    if (run[r].ok)
      j.status = JobStatus::ok, j.error.clear(), ++ok;
    else
      j.status = JobStatus::invalid_argument, j.error = kCheckFailed;
  }
  return report(eng, ok, jobs.size());
}

BatchReport verify_batch(std::span<VerifyJob> jobs, const SignOptions& options, const BatchOptions& batch) {
  check_sign_options(options);
  const engine::Engine& eng =
      pick_engine(batch.engine, engine::WorkKind::rsa_public, jobs, [](const VerifyJob& j) { return j.key; });
  std::vector<bytes> ems(jobs.size());
  std::vector<PublicItem> items;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    VerifyJob& j = jobs[i];
    j.valid = false;
    if (!j.key) {
      j.status = JobStatus::invalid_argument, j.error = "rsa: job without a key";
      continue;
    }
    j.status = JobStatus::ok, j.error.clear();
    // A signature of the wrong length or not below n is simply invalid.
    if (j.signature.size() != j.key->size() || !less_than_modulus(j.key->impl(), j.signature.data())) continue;
    ems[i].assign(j.key->size(), 0);
    items.push_back(PublicItem{j.key, j.signature.data(), ems[i].data()});
    index.push_back(i);
  }
  run_public(eng, items, batch.threads);
  engine::parallel_for(index.size(), batch.threads, [&](std::size_t r) {
    VerifyJob& j = jobs[index[r]];
    const PublicKey& key = *j.key;
    const bytes& em = ems[index[r]];
    try {
      const bytes m_hash = message_digest(options, j.message);
      if (options.padding == SignaturePadding::pkcs1v15) {
        bytes expected(key.size());
        j.valid = emsa_pkcs1v15_encode(options.hash, m_hash, expected.data(), key.size()) && expected == em;
      } else {
        j.valid = emsa_pss_verify(options.hash, mgf_of(options), m_hash, pss_salt_length(options, key.bits(), false),
                                  key.bits(), em.data(), key.size());
      }
    } catch (const Error& e) {
      j.status = JobStatus::invalid_argument, j.error = e.what();
    }
  });
  std::size_t ok = 0;
  for (const VerifyJob& j : jobs) ok += j.status == JobStatus::ok;
  return report(eng, ok, jobs.size());
}

BatchReport decrypt_batch(std::span<DecryptJob> jobs, const EncryptOptions& options, const BatchOptions& batch) {
  (void)digest_size(options.hash);
  if (options.mgf_hash) (void)digest_size(*options.mgf_hash);
  const engine::Engine& eng =
      pick_engine(batch.engine, engine::WorkKind::rsa_private, jobs, [](const DecryptJob& j) { return j.key; });
  const auto max_message = [&](std::size_t k) {
    return options.padding == EncryptionPadding::oaep ? oaep_max_message(options.hash, k) : pkcs1v15_max_message(k);
  };
  std::vector<std::unique_ptr<SecretBuffer>> ems(jobs.size());
  std::vector<PrivateItem> items;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    DecryptJob& j = jobs[i];
    j.plaintext_len = 0;
    if (!j.key) {
      j.status = JobStatus::invalid_argument, j.error = "rsa: job without a key";
      continue;
    }
    const std::size_t k = j.key->size();
    if (j.plaintext.size() < std::min(k, max_message(k))) {
      j.status = JobStatus::invalid_argument;
      j.error = "rsa: the plaintext buffer must hold " + std::to_string(max_message(k)) + " bytes";
      continue;
    }
    if (j.ciphertext.size() != k || !less_than_modulus(j.key->impl().pubi(), j.ciphertext.data())) {
      j.status = JobStatus::bad_decrypt, j.error = InvalidCiphertext().what();
      continue;
    }
    ems[i] = std::make_unique<SecretBuffer>(k);
    items.push_back(PrivateItem{j.key, j.ciphertext.data(), ems[i]->data.data(), false});
    index.push_back(i);
  }
  run_private(eng, items, batch.threads);
  engine::parallel_for(items.size(), batch.threads, [&](std::size_t r) {
    DecryptJob& j = jobs[index[r]];
    if (!items[r].ok) return fail(j, JobStatus::invalid_argument, kCheckFailed);
    const std::size_t k = j.key->size();
    SecretBuffer out(std::max<std::size_t>(max_message(k), 1));
    const Decoded d = options.padding == EncryptionPadding::oaep
                          ? eme_oaep_decode(options.hash, mgf_of(options), options.label, items[r].out, k, out.data.data())
                          : eme_pkcs1v15_decode(items[r].out, k, out.data.data());
    if (!d.good) return fail(j, JobStatus::bad_decrypt, InvalidCiphertext().what());
    std::memcpy(j.plaintext.data(), out.data.data(), d.length);
    j.plaintext_len = d.length;
    j.status = JobStatus::ok, j.error.clear();
  });
  std::size_t ok = 0;
  for (const DecryptJob& j : jobs) ok += j.status == JobStatus::ok;
  return report(eng, ok, jobs.size());
}

// ---- one operation ----

bytes sign(const PrivateKey& key, bytes_view message, const SignOptions& options) {
  bytes sig(key.size());
  SignJob job{&key, message, sig};
  sign_batch({&job, 1}, options, BatchOptions{options.engine, 0, 1});
  if (job.status != JobStatus::ok) {
    if (job.error == kCheckFailed) throw Error(job.error);
    throw InvalidArgument(job.error);
  }
  return sig;
}

bool verify(const PublicKey& key, bytes_view message, bytes_view signature, const SignOptions& options) {
  VerifyJob job{&key, message, signature};
  verify_batch({&job, 1}, options, BatchOptions{options.engine, 0, 1});
  if (job.status != JobStatus::ok) throw InvalidArgument(job.error);
  return job.valid;
}

bytes encrypt(const PublicKey& key, bytes_view plaintext, const EncryptOptions& options) {
  const std::size_t k = key.size();
  const engine::Engine& eng =
      engine::select_rsa_engine(options.engine, key.bits(), engine::Work::of(engine::WorkKind::rsa_public, 1));
  SecretBuffer em(k);
  if (options.padding == EncryptionPadding::oaep)
    eme_oaep_encode(options.hash, mgf_of(options), options.label, plaintext, em.data.data(), k);
  else
    eme_pkcs1v15_encode(plaintext, em.data.data(), k);
  bytes out(k);
  PublicItem item{&key, em.data.data(), out.data()};
  run_public(eng, {&item, 1}, 1);
  return out;
}

bytes decrypt(const PrivateKey& key, bytes_view ciphertext, const EncryptOptions& options) {
  SecretBuffer buf(key.size());
  DecryptJob job{&key, ciphertext, buf.data};
  decrypt_batch({&job, 1}, options, BatchOptions{options.engine, 0, 1});
  if (job.status == JobStatus::bad_decrypt) throw InvalidCiphertext();
  if (job.status != JobStatus::ok) {
    if (job.error == kCheckFailed) throw Error(job.error);
    throw InvalidArgument(job.error);
  }
  return bytes(buf.data.begin(), buf.data.begin() + static_cast<std::ptrdiff_t>(job.plaintext_len));
}

// ---- raw modexp ----

std::vector<bytes> modexp_batch(std::span<const bytes_view> bases, bytes_view exponent, bytes_view modulus,
                                const BatchOptions& batch) {
  const std::size_t bits = bit_length(modulus);
  if (bits == 0 || (modulus.back() & 1) == 0) throw InvalidArgument("rsa: modexp needs an odd modulus");
  if (bits > 8192) throw InvalidArgument("rsa: modexp supports moduli of at most 8192 bits");
  const std::size_t out_len = modulus.size(), len = (bits + 7) / 8;
  std::vector<bytes> results(bases.size(), bytes(out_len, 0));
  if (bits == 1) return results;  // everything is 0 mod 1
  // A secret exponent as long as the modulus: private-operation work per base.
  const engine::Engine& eng = engine::select_rsa_engine(batch.engine, std::max<std::size_t>(bits, 1024),
                                                        engine::Work::of(engine::WorkKind::rsa_private, bases.size()));
  const bytes_view n(modulus.data() + (modulus.size() - len), len);
  const Modulus mod = make_modulus(n, limbs_for_bits(bits));
  // Bases (public) at or above the modulus are reduced first, with OpenSSL's BN.
  std::vector<bytes> reduced(bases.size());
  engine::parallel_for(bases.size(), batch.threads, [&](std::size_t i) {
    const bytes_view b = bases[i];
    reduced[i].assign(len, 0);
    BIGNUM* x = BN_bin2bn(b.data(), static_cast<int>(b.size()), nullptr);
    BIGNUM* m = BN_bin2bn(n.data(), static_cast<int>(n.size()), nullptr);
    BN_CTX* ctx = BN_CTX_new();
    const bool ok = x && m && ctx && BN_nnmod(x, x, m, ctx) == 1 && BN_bn2binpad(x, reduced[i].data(), static_cast<int>(len)) >= 0;
    BN_free(x), BN_free(m), BN_CTX_free(ctx);
    if (!ok) throw Error("rsa: cannot reduce a modexp base");
  });
  std::vector<engine::ModexpJob> jobs(bases.size());
  for (std::size_t i = 0; i < bases.size(); ++i)
    jobs[i] = engine::ModexpJob{reduced[i].data(), results[i].data() + (out_len - len)};
  engine::run_modexp_jobs(eng, mod, exponent, jobs, batch.threads);
  return results;
}

}  // namespace cryptaccel::rsa

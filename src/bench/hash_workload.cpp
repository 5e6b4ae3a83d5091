// The speed harness, hash family: every hash of hash_names() as a workload, timed through hash_batch (one job per
// message; SHAKE with its default output length) on cryptaccel engines and EVP_Digest on OpenSSL, both checked
// against the ref engine before timing.

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <utility>

#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "families.hpp"
#include "openssl_fail.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::bench {
namespace {

/// Message sizes of the check: around the block sizes (64, 128, 136, 168 ...) and the padding boundaries, and ones
/// large enough to be split over threads in a batch.
constexpr std::size_t kVerifySizes[] = {0,   1,   3,   55,  56,   63,   64,   65,    111,   112,   119,  120,
                                        127, 128, 135, 136, 137,  143,  144,  167,   168,   169,   1000, 4144,
                                        65549, 100000};
/// Also checked for SHAKE: outputs longer than one squeeze block.
constexpr std::size_t kLongXofOutput = 300;

std::string workload_name(const HashInfo& info) {
  std::string name(info.display_name);
  for (char& c : name) c = c == '/' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// --- OpenSSL ---------------------------------------------------------------------------------------------------

/// OpenSSL's name of a hash: "SHA256", "SHA512-224", "SHA3-256", "SHAKE128", "SM3".
std::string evp_name(const HashInfo& info) {
  std::string name(info.display_name);
  std::replace(name.begin(), name.end(), '/', '-');
  return name;
}

MdPtr fetch(const HashInfo& info) {
  ERR_set_mark();
  MdPtr md(EVP_MD_fetch(nullptr, evp_name(info).c_str(), nullptr));
  ERR_pop_to_mark();
  return md;
}

/// One whole digest on a reusable context: init, update, final (SHAKE: final XOF of out.size() bytes).
void evp_digest_one(EVP_MD_CTX* ctx, const EVP_MD* md, bool xof, bytes_view in, mutable_bytes out) {
  if (EVP_DigestInit_ex(ctx, md, nullptr) != 1) openssl_fail("EVP_DigestInit_ex");
  if (EVP_DigestUpdate(ctx, in.data(), in.size()) != 1) openssl_fail("EVP_DigestUpdate");
  if (xof) {
    if (EVP_DigestFinalXOF(ctx, out.data(), out.size()) != 1) openssl_fail("EVP_DigestFinalXOF");
  } else {
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx, out.data(), &len) != 1) openssl_fail("EVP_DigestFinal_ex");
    if (len != out.size()) throw std::runtime_error("OpenSSL wrote a " + std::to_string(len) + "-byte digest");
  }
}

// --- cells -----------------------------------------------------------------------------------------------------

/// `count` random messages of `size` bytes and room for their digests.
struct HashMessages {
  std::size_t size = 0;
  std::size_t count = 0;
  std::size_t out_len = 0;
  bytes input;
  bytes output;

  static HashMessages random(std::size_t size, std::size_t count, std::size_t out_len, Rng& rng) {
    HashMessages m{size, count, out_len, bytes(size * count), bytes(out_len * count, 0)};
    fill_random(m.input, rng);
    return m;
  }
  bytes_view in(std::size_t i) const { return bytes_view(input).subspan(i * size, size); }
  mutable_bytes out(std::size_t i) { return mutable_bytes(output).subspan(i * out_len, out_len); }
};

class EngineHashCell final : public Cell {
 public:
  EngineHashCell(HashAlgorithm algorithm, HashMessages messages, std::string engine, std::size_t threads)
      : algorithm_(algorithm), m_(std::move(messages)), engine_(std::move(engine)) {
    options_.engine = engine_;
    options_.threads = threads;
    for (std::size_t i = 0; i < m_.count; ++i) jobs_.push_back(HashJob{m_.in(i), m_.out(i)});
  }

  void run() override {
    const BatchReport report = hash_batch(algorithm_, jobs_, options_);
    if (report.failed == 0) return;
    for (const HashJob& job : jobs_) {
      if (job.status != JobStatus::ok) throw std::runtime_error("engine '" + report.engine + "' failed: " + job.error);
    }
  }

 private:
  HashAlgorithm algorithm_;
  HashMessages m_;
  std::string engine_;  // options_.engine views it
  BatchOptions options_;
  std::vector<HashJob> jobs_;
};

class EvpHashCell final : public Cell {
 public:
  EvpHashCell(const HashInfo& info, HashMessages messages, MdPtr md)
      : m_(std::move(messages)), md_(std::move(md)), ctx_(EVP_MD_CTX_new()), xof_(info.xof) {
    if (!ctx_) openssl_fail("EVP_MD_CTX_new");
  }

  void run() override {
    for (std::size_t i = 0; i < m_.count; ++i) evp_digest_one(ctx_.get(), md_.get(), xof_, m_.in(i), m_.out(i));
  }

 private:
  HashMessages m_;
  MdPtr md_;
  MdCtxPtr ctx_;
  bool xof_;
};

// --- the workload ----------------------------------------------------------------------------------------------

/// One message of the check and what the ref engine made of it.
struct Case {
  bytes input;
  std::size_t out_len = 0;
  bytes expected;
};

/// Hashes every case in one hash_batch call on `engine`; throws std::runtime_error naming the first failed case.
std::vector<bytes> hash_cases(HashAlgorithm algorithm, const std::vector<Case>& cases, std::string_view engine,
                              std::size_t threads) {
  std::vector<bytes> outs(cases.size());
  std::vector<HashJob> jobs;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    outs[i].assign(cases[i].out_len, 0);
    jobs.push_back(HashJob{cases[i].input, outs[i]});
  }
  BatchOptions options;
  options.engine = engine;
  options.threads = threads;
  hash_batch(algorithm, jobs, options);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (jobs[i].status != JobStatus::ok) {
      throw std::runtime_error("failed on a " + std::to_string(cases[i].input.size()) +
                               "-byte message: " + (jobs[i].error.empty() ? "job failed" : jobs[i].error));
    }
  }
  return outs;
}

/// Empty when `got` is the expected digest of `c`; otherwise where it differs.
std::string compare(const Case& c, const bytes& got, std::string_view how) {
  if (got == c.expected) return {};
  std::string what;
  if (got.size() != c.expected.size()) {
    what = "digest length " + std::to_string(got.size()) + " instead of " + std::to_string(c.expected.size());
  } else {
    const auto diff = std::mismatch(got.begin(), got.end(), c.expected.begin());
    what = "first difference at digest byte " + std::to_string(diff.first - got.begin());
  }
  std::string message = "output differs from the ref engine on a " + std::to_string(c.input.size()) + "-byte message";
  if (!how.empty()) message.append(" ").append(how);
  message.append(" (").append(what).append(")");
  return message;
}

class HashWorkload final : public Workload {
 public:
  explicit HashWorkload(HashAlgorithm algorithm) : algorithm_(algorithm), name_(workload_name(hash_info(algorithm))) {}

  const std::string& name() const override { return name_; }

  std::string unsupported(std::string_view impl) const override {
    if (impl == kOpenSsl) {
      if (fetch(info())) return {};
      return std::string(OpenSSL_version(OPENSSL_VERSION)) + " does not offer " + evp_name(info());
    }
    return engine_unavailable(impl);
  }

  std::string resolve(std::string_view impl) const override {
    if (impl == kOpenSsl) return std::string(kOpenSsl);
    BatchOptions options;
    options.engine = impl;
    return hash_batch(algorithm_, std::span<HashJob>{}, options).engine;  // no jobs: only the engine choice
  }

  std::string unsupported_size(std::string_view, std::size_t) const override { return {}; }

  std::string verify(std::string_view impl, std::size_t threads, Rng& rng) const override {
    const bool corrupt = inject_mismatch(*this, impl);
    std::vector<Case> cases;
    for (const std::size_t size : kVerifySizes) {
      Case c;
      c.input.resize(size);
      fill_random(c.input, rng);
      c.out_len = info().digest_size;
      cases.push_back(c);
      if (info().xof && size % 2 == 1) {
        c.out_len = kLongXofOutput;
        cases.push_back(std::move(c));
      }
    }

    try {
      std::vector<bytes> expected = hash_cases(algorithm_, cases, "ref", 1);
      for (std::size_t i = 0; i < cases.size(); ++i) cases[i].expected = std::move(expected[i]);
    } catch (const std::exception& e) {
      return std::string("the ref engine ") + e.what();
    }

    try {
      if (impl == kOpenSsl) {
        const MdPtr md = fetch(info());
        if (!md) return unsupported(impl);
        const MdCtxPtr ctx(EVP_MD_CTX_new());
        if (!ctx) openssl_fail("EVP_MD_CTX_new");
        for (const Case& c : cases) {
          bytes got(c.out_len);
          evp_digest_one(ctx.get(), md.get(), info().xof, c.input, got);
          if (corrupt) got.back() ^= 1;
          if (auto why = compare(c, got, ""); !why.empty()) return why;
        }
        return {};
      }
      // As timed: all messages in one batch, and each alone.
      const auto run = [&](const std::vector<Case>& some) { return hash_cases(algorithm_, some, impl, threads); };
      return check_in_batch_and_alone(cases, corrupt, run, compare);
    } catch (const std::exception& e) {
      return e.what();
    }
    return {};
  }

  std::unique_ptr<Cell> prepare(std::string_view impl, const CellShape& shape, Rng& rng) const override {
    HashMessages messages = HashMessages::random(shape.bytes, shape.messages, info().digest_size, rng);
    if (impl == kOpenSsl) {
      MdPtr md = fetch(info());
      if (!md) throw std::runtime_error(unsupported(impl));
      return std::make_unique<EvpHashCell>(info(), std::move(messages), std::move(md));
    }
    return std::make_unique<EngineHashCell>(algorithm_, std::move(messages), std::string(impl), shape.threads);
  }

 private:
  const HashInfo& info() const { return hash_info(algorithm_); }

  HashAlgorithm algorithm_;
  std::string name_;
};

}  // namespace

std::vector<std::string> hash_workload_names() {
  std::vector<std::string> out;
  for (const std::string& name : hash_names()) out.push_back(workload_name(hash_info(parse_hash(name))));
  return out;
}

std::unique_ptr<Workload> make_hash_workload(std::string_view name) {
  try {
    return std::make_unique<HashWorkload>(parse_hash(name));
  } catch (const InvalidArgument&) {
    return nullptr;
  }
}

}  // namespace cryptaccel::bench

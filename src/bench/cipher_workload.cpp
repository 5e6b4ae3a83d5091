// The speed harness, cipher family: every cipher of cipher_names() as a workload, timed encrypting through run_batch
// (one job per message), checked against the `ref` engine, and compared with OpenSSL EVP (evp_cipher.cpp).
#include "cipher_messages.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "evp_cipher.hpp"
#include "families.hpp"

namespace cryptaccel::bench {
namespace {

constexpr Direction kDir = Direction::encrypt;

/// Message sizes of the check before timing: odd sizes, block multiples, and ones large enough to be split over
/// threads. Sizes the mode cannot take (ECB/CBC without padding: block multiples only) are left out per cipher.
constexpr std::size_t kVerifySizes[] = {1, 15, 16, 17, 31, 64, 100, 255, 1024, 4144, 65549, 100000};

bool block_multiples_only(const CipherSpec& spec) { return spec.mode == Mode::ecb || spec.mode == Mode::cbc; }

/// The engine side of a cell: all messages as the jobs of one run_batch call.
class EngineCell final : public Cell {
 public:
  EngineCell(CipherMessages messages, std::string engine, std::size_t threads)
      : m_(std::move(messages)), engine_(std::move(engine)) {
    options_.engine = engine_;
    options_.threads = threads;
    jobs_.resize(m_.count);
    for (std::size_t i = 0; i < m_.count; ++i) {
      CipherJob& job = jobs_[i];
      job.key = m_.key(i);
      job.iv = m_.iv(i);
      job.in = m_.in(i);
      job.out = m_.out(i);
      if (m_.spec.is_aead()) job.tag = m_.tag(i);
    }
  }

  void run() override {
    const BatchReport report = run_batch(m_.spec, kDir, jobs_, options_);
    if (report.failed == 0) return;
    for (const CipherJob& job : jobs_) {
      if (job.status != JobStatus::ok) throw std::runtime_error("engine '" + report.engine + "' failed: " + job.error);
    }
  }

 private:
  CipherMessages m_;
  std::string engine_;  // options_.engine views it
  BatchOptions options_;
  std::vector<CipherJob> jobs_;
};

/// One message of the check: inputs, and what the ref engine made of them.
struct Case {
  bytes key, iv, aad, input;
  bytes expected;  // ciphertext (|| tag for GCM)
};

/// Output of one finished job as ciphertext || tag, or the job's error.
std::string job_result(const CipherJob& job, bytes& result) {
  if (job.status != JobStatus::ok) return job.error.empty() ? std::string("job failed") : job.error;
  result.assign(job.out.begin(), job.out.begin() + static_cast<std::ptrdiff_t>(job.out_len));
  result.insert(result.end(), job.tag.begin(), job.tag.end());
  return {};
}

/// Encrypts every case in one run_batch call on `engine`; returns ciphertext || tag per case, or throws
/// std::runtime_error naming the first failed case.
std::vector<bytes> encrypt_cases(const CipherSpec& spec, const std::vector<Case>& cases, std::string_view engine,
                                 std::size_t threads) {
  std::vector<bytes> outs(cases.size());
  std::vector<bytes> tags(cases.size());
  std::vector<CipherJob> jobs(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    outs[i].resize(cases[i].input.size());
    CipherJob& job = jobs[i];
    job.key = cases[i].key;
    job.iv = cases[i].iv;
    job.aad = cases[i].aad;
    job.in = cases[i].input;
    job.out = outs[i];
    if (spec.is_aead()) {
      tags[i].resize(kSpeedTagLen);
      job.tag = tags[i];
    }
  }
  BatchOptions options;
  options.engine = engine;
  options.threads = threads;
  run_batch(spec, kDir, jobs, options);
  std::vector<bytes> results(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (std::string why = job_result(jobs[i], results[i]); !why.empty()) {
      throw std::runtime_error("failed on a " + std::to_string(cases[i].input.size()) + "-byte message: " + why);
    }
  }
  return results;
}

/// Empty when `got` is the expected output of `c`; otherwise where it differs.
std::string compare(const Case& c, const bytes& got, std::string_view how) {
  if (got == c.expected) return {};
  const std::size_t n = c.input.size();
  std::string what;
  if (got.size() != c.expected.size()) {
    what = "output length " + std::to_string(got.size()) + " instead of " + std::to_string(c.expected.size());
  } else {
    const auto diff = std::mismatch(got.begin(), got.end(), c.expected.begin());
    const auto at = static_cast<std::size_t>(diff.first - got.begin());
    what = at >= n ? "tag differs" : "first difference at byte " + std::to_string(at);
  }
  std::string message = "output differs from the ref engine on a " + std::to_string(n) + "-byte message";
  if (!how.empty()) message.append(" ").append(how);
  message.append(" (").append(what).append(")");
  return message;
}

class CipherWorkload final : public Workload {
 public:
  explicit CipherWorkload(CipherSpec spec) : spec_(spec), name_(spec.name()) {
    spec_.padding = false;  // timed like `openssl speed`: whole blocks, no padding block
  }

  const std::string& name() const override { return name_; }

  std::string unsupported(std::string_view impl) const override {
    if (impl == kOpenSsl) return evp_unsupported(spec_);
    return engine_unavailable(impl);
  }

  std::string resolve(std::string_view impl) const override {
    if (impl == kOpenSsl) return std::string(kOpenSsl);
    return resolve_engine(impl, spec_, kDir);
  }

  std::string unsupported_size(std::string_view impl, std::size_t size) const override {
    if (block_multiples_only(spec_) && size % 16 != 0) {
      return "not a multiple of 16 bytes; ECB and CBC are timed without padding";
    }
    if (spec_.mode == Mode::xts && size < 16) return "XTS needs at least 16 bytes";
    if (impl == kOpenSsl) return evp_unsupported_size(spec_, size);
    return {};
  }

  std::string verify(std::string_view impl, std::size_t threads, Rng& rng) const override {
    const bool corrupt = inject_mismatch(*this, impl);
    std::vector<Case> cases;
    for (const std::size_t size : kVerifySizes) {
      if (!unsupported_size(impl, size).empty()) continue;
      Case c;
      c.key = random_key(spec_, rng);
      c.iv.resize(spec_.iv_size());
      fill_random(c.iv, rng);
      if (spec_.is_aead() && cases.size() % 2 == 1) {
        c.aad.resize(1 + rng() % 40);
        fill_random(c.aad, rng);
      }
      c.input.resize(size);
      fill_random(c.input, rng);
      cases.push_back(std::move(c));
    }

    // The reference: the ref engine, one thread.
    try {
      std::vector<bytes> expected = encrypt_cases(spec_, cases, "ref", 1);
      for (std::size_t i = 0; i < cases.size(); ++i) cases[i].expected = std::move(expected[i]);
    } catch (const std::exception& e) {
      return std::string("the ref engine ") + e.what();
    }

    try {
      if (impl == kOpenSsl) {
        for (const Case& c : cases) {
          bytes got = evp_encrypt(spec_, c.key, c.iv, c.aad, c.input);
          if (corrupt) got.back() ^= 1;
          if (auto why = compare(c, got, ""); !why.empty()) return why;
        }
        return {};
      }
      // As timed: all messages in one batch, and each alone (large ones then split over threads).
      const auto run = [&](const std::vector<Case>& some) { return encrypt_cases(spec_, some, impl, threads); };
      return check_in_batch_and_alone(cases, corrupt, run, compare);
    } catch (const std::exception& e) {
      return e.what();
    }
    return {};
  }

  std::unique_ptr<Cell> prepare(std::string_view impl, const CellShape& shape, Rng& rng) const override {
    CipherMessages messages = CipherMessages::random(spec_, shape.bytes, shape.messages, rng);
    if (impl == kOpenSsl) return make_evp_cell(std::move(messages));
    return std::make_unique<EngineCell>(std::move(messages), std::string(impl), shape.threads);
  }

 private:
  CipherSpec spec_;
  std::string name_;
};

}  // namespace

bytes random_key(const CipherSpec& spec, Rng& rng) {
  bytes key(spec.key_size());
  fill_random(key, rng);
  if (spec.mode == Mode::xts) {
    const std::size_t half = key.size() / 2;
    if (std::equal(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(half),
                   key.begin() + static_cast<std::ptrdiff_t>(half))) {
      key[half] ^= 1;
    }
  }
  return key;
}

CipherMessages CipherMessages::random(const CipherSpec& spec, std::size_t size, std::size_t count, Rng& rng) {
  CipherMessages m;
  m.spec = spec;
  m.size = size;
  m.count = count;
  m.keys.reserve(count * spec.key_size());
  for (std::size_t i = 0; i < count; ++i) {
    const bytes key = random_key(spec, rng);
    m.keys.insert(m.keys.end(), key.begin(), key.end());
  }
  m.ivs.resize(count * spec.iv_size());
  fill_random(m.ivs, rng);
  m.input.resize(count * size);
  fill_random(m.input, rng);
  m.output.assign(count * size, 0);
  if (spec.is_aead()) m.tags.assign(count * kSpeedTagLen, 0);
  return m;
}

std::vector<std::string> cipher_workload_names() { return cipher_names(); }

std::unique_ptr<Workload> make_cipher_workload(std::string_view name) {
  CipherSpec spec;
  try {
    spec = CipherSpec::parse(name);
  } catch (const InvalidArgument&) {
    return nullptr;
  }
  return std::make_unique<CipherWorkload>(spec);
}

}  // namespace cryptaccel::bench

// The speed harness, SHA-crypt family: "sha512crypt" and "sha256crypt" password hashes per second (rounds=5000,
// the default; 16-character salt; 8-byte passwords, as a cracker's candidates), one row per engine. With --batch N
// each call hashes N candidates in one shacrypt_batch (the shape in which the cpu engine fills its SIMD lanes and
// cores, and a GPU its threads); without, one candidate per call. Before timing, the engine's raw digests are compared
// with the ref engine's on passwords of many lengths and several salts and rounds, in one batch and one at a time.
// OpenSSL's libcrypto has no SHA-crypt API (`openssl passwd` is application code), so --vs openssl shows n/a.
#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "cryptaccel/error.hpp"
#include "cryptaccel/shacrypt.hpp"
#include "families.hpp"

namespace cryptaccel::bench {
namespace {

constexpr std::size_t kPasswordBytes = 8;
/// Password lengths of the check: around the 32/64-byte digests and 64/128-byte blocks the rounds' messages cross.
constexpr std::size_t kVerifyLengths[] = {0, 1, 8, 15, 16, 31, 32, 55, 63, 64, 65, 127, 128, 129, 200};

std::string random_salt(Rng& rng, std::size_t n) {
  static constexpr std::string_view kAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string s(n, '.');
  for (char& c : s) c = kAlphabet[rng() % kAlphabet.size()];
  return s;
}

std::size_t digest_size(ShaCryptVariant v) { return v == ShaCryptVariant::sha512 ? 64 : 32; }

/// Raw digests of `passwords` under `settings` (one each) from one shacrypt_batch call on `engine`.
std::vector<bytes> run_batch(const std::vector<bytes>& passwords, const std::vector<ShaCryptSetting>& settings,
                             std::string_view engine, std::size_t threads) {
  std::vector<bytes> digests(passwords.size());
  std::vector<ShaCryptJob> jobs(passwords.size());
  for (std::size_t i = 0; i < passwords.size(); ++i) {
    digests[i].resize(digest_size(settings[i].variant));
    jobs[i] = ShaCryptJob{passwords[i], &settings[i], digests[i]};
  }
  BatchOptions options;
  options.engine = engine;
  options.threads = threads;
  const BatchReport report = shacrypt_batch(jobs, options);
  for (const ShaCryptJob& job : jobs)
    if (job.status != JobStatus::ok) throw std::runtime_error("engine '" + report.engine + "' failed: " + job.error);
  return digests;
}

/// One cell: `count` candidates of one setting, hashed in one shacrypt_batch call per run().
class ShaCryptCell final : public Cell {
 public:
  ShaCryptCell(ShaCryptSetting setting, std::vector<bytes> passwords, std::string engine, std::size_t threads)
      : setting_(std::move(setting)), passwords_(std::move(passwords)), engine_(std::move(engine)) {
    digests_.assign(passwords_.size(), bytes(digest_size(setting_.variant)));
    for (std::size_t i = 0; i < passwords_.size(); ++i) jobs_.push_back(ShaCryptJob{passwords_[i], &setting_, digests_[i]});
    options_.engine = engine_;
    options_.threads = threads;
  }
  void run() override {
    const BatchReport report = shacrypt_batch(jobs_, options_);
    if (report.failed == 0) return;
    for (const ShaCryptJob& job : jobs_)
      if (job.status != JobStatus::ok) throw std::runtime_error("engine '" + report.engine + "' failed: " + job.error);
  }

 private:
  ShaCryptSetting setting_;
  std::vector<bytes> passwords_;
  std::vector<bytes> digests_;
  std::string engine_;
  BatchOptions options_;
  std::vector<ShaCryptJob> jobs_;
};

class ShaCryptWorkload final : public Workload {
 public:
  explicit ShaCryptWorkload(ShaCryptVariant v) : variant_(v), name_(v == ShaCryptVariant::sha512 ? "sha512crypt" : "sha256crypt") {}

  const std::string& name() const override { return name_; }
  std::vector<std::string> operations() const override { return {"hash"}; }
  std::size_t operation_bytes() const override { return kPasswordBytes; }

  std::string unsupported(std::string_view impl) const override {
    if (impl == kOpenSsl) return "OpenSSL's libcrypto has no SHA-crypt API";
    return engine_unavailable(impl);
  }

  std::string resolve(std::string_view impl) const override {
    if (impl == kOpenSsl) return std::string(kOpenSsl);
    // The engine choice for this variant: one minimal job (1000 rounds of an empty password).
    ShaCryptSetting s;
    s.variant = variant_;
    s.rounds = kShaCryptMinRounds;
    std::uint8_t digest[64];
    ShaCryptJob job{{}, &s, mutable_bytes(digest, digest_size(variant_))};
    BatchOptions options;
    options.engine = impl;
    return shacrypt_batch(std::span<ShaCryptJob>(&job, 1), options).engine;
  }

  std::string unsupported_size(std::string_view, std::size_t) const override { return {}; }

  std::string verify(std::string_view impl, std::size_t threads, Rng& rng) const override {
    if (impl == kOpenSsl) return {};
    const bool corrupt = inject_mismatch(*this, impl);
    struct Case {
      bytes password;
      ShaCryptSetting setting;
      bytes expected;
    };
    std::vector<Case> cases;
    for (std::size_t len : kVerifyLengths) {
      Case c;
      c.password.resize(len);
      fill_random(c.password, rng);
      c.setting.variant = variant_;
      c.setting.rounds = kShaCryptMinRounds + static_cast<std::uint32_t>(rng() % 3);  // a few settings per batch
      c.setting.salt = random_salt(rng, rng() % (kShaCryptMaxSalt + 1));
      cases.push_back(std::move(c));
    }
    try {
      for (Case& c : cases) c.expected = run_batch({c.password}, {c.setting}, "ref", 1).front();
      const auto run = [&](const std::vector<Case>& batch) {
        std::vector<bytes> passwords;
        std::vector<ShaCryptSetting> settings;
        for (const Case& c : batch) passwords.push_back(c.password), settings.push_back(c.setting);
        return run_batch(passwords, settings, impl, threads);
      };
      const auto compare = [&](const Case& c, const bytes& got, const std::string& how) -> std::string {
        if (got == c.expected) return {};
        return "digest differs from the ref engine's for a " + std::to_string(c.password.size()) + "-byte password " +
               how;
      };
      return check_in_batch_and_alone(cases, corrupt, run, compare);
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  std::unique_ptr<Cell> prepare(std::string_view impl, const CellShape& shape, Rng& rng) const override {
    if (impl == kOpenSsl) throw std::runtime_error("OpenSSL's libcrypto has no SHA-crypt API");
    ShaCryptSetting s;
    s.variant = variant_;
    s.salt = random_salt(rng, kShaCryptMaxSalt);
    std::vector<bytes> passwords(std::max<std::size_t>(shape.messages, 1), bytes(kPasswordBytes));
    for (bytes& p : passwords) fill_random(p, rng);
    return std::make_unique<ShaCryptCell>(std::move(s), std::move(passwords), std::string(impl), shape.threads);
  }

 private:
  ShaCryptVariant variant_;
  std::string name_;
};

}  // namespace

std::vector<std::string> shacrypt_workload_names() { return {"sha512crypt", "sha256crypt"}; }

std::unique_ptr<Workload> make_shacrypt_workload(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  n.erase(std::remove(n.begin(), n.end(), '-'), n.end());
  if (n == "sha512crypt") return std::make_unique<ShaCryptWorkload>(ShaCryptVariant::sha512);
  if (n == "sha256crypt") return std::make_unique<ShaCryptWorkload>(ShaCryptVariant::sha256);
  return nullptr;
}

}  // namespace cryptaccel::bench

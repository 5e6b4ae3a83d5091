// SHA-crypt throughput on the GPU (bench/gpu/run.sh, bench phase): sha512crypt and sha256crypt (rounds=5000, a
// 16-character salt, 8-byte candidates, hashcat -b's shape) on the cuda engine in one shacrypt_batch call per
// repetition, and on the cpu engine (all cores) for the side-by-side ratio. The cuda digests are compared with the
// cpu engine's before anything is timed. Prints one line per (variant, engine); --json writes them too.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cryptaccel/bench/timer.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/shacrypt.hpp"

using namespace cryptaccel;

namespace {

struct Row {
  std::string variant, engine;
  std::size_t candidates = 0;
  double seconds = 0, hashes_per_s = 0;
};

/// Hashes `passwords` with `setting` on `engine`, `reps` times; returns the seconds of the fastest repetition.
double time_batch(const std::vector<bytes>& passwords, const ShaCryptSetting& setting, const char* engine, int reps,
                  std::vector<bytes>& digests) {
  digests.assign(passwords.size(), bytes(setting.variant == ShaCryptVariant::sha512 ? 64 : 32));
  std::vector<ShaCryptJob> jobs;
  for (std::size_t i = 0; i < passwords.size(); ++i) jobs.push_back(ShaCryptJob{passwords[i], &setting, digests[i]});
  BatchOptions options;
  options.engine = engine;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    BatchReport report;
    const double s = bench::seconds_of([&] { report = shacrypt_batch(jobs, options); });
    if (report.failed) throw std::runtime_error(std::string(engine) + ": " + jobs.front().error);
    best = std::min(best, s);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t gpu_candidates = std::size_t{1} << 20, cpu_candidates = 4096;
  const char* json = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--candidates") && i + 1 < argc) gpu_candidates = std::stoul(argv[++i]);
    else if (!std::strcmp(argv[i], "--cpu-candidates") && i + 1 < argc) cpu_candidates = std::stoul(argv[++i]);
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--candidates N] [--cpu-candidates N] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  std::mt19937_64 rng(2026);
  std::vector<Row> rows;
  bool mismatch = false;
  for (ShaCryptVariant v : {ShaCryptVariant::sha512, ShaCryptVariant::sha256}) {
    const char* name = v == ShaCryptVariant::sha512 ? "sha512crypt" : "sha256crypt";
    ShaCryptSetting setting = shacrypt_random_setting(v);
    std::vector<bytes> passwords(gpu_candidates, bytes(8));
    for (bytes& p : passwords)
      for (auto& b : p) b = static_cast<std::uint8_t>('!' + rng() % 94);
    std::vector<bytes> cuda_digests, cpu_digests;
    const std::vector<bytes> sample(passwords.begin(), passwords.begin() + std::min<std::size_t>(256, passwords.size()));
    try {
      time_batch(sample, setting, "cuda", 1, cuda_digests);  // warm-up and check
      time_batch(sample, setting, "cpu", 1, cpu_digests);
      if (cuda_digests != cpu_digests) {
        std::printf("%s: MISMATCH between cuda and cpu digests\n", name);
        mismatch = true;
        continue;
      }
      const double s = time_batch(passwords, setting, "cuda", 2, cuda_digests);
      rows.push_back({name, "cuda", passwords.size(), s, passwords.size() / s});
    } catch (const std::exception& e) {
      std::printf("%s cuda: %s\n", name, e.what());
    }
    const std::vector<bytes> few(passwords.begin(), passwords.begin() + std::min(cpu_candidates, passwords.size()));
    const double s = time_batch(few, setting, "cpu", 1, cpu_digests);
    rows.push_back({name, "cpu", few.size(), s, few.size() / s});
  }
  for (const Row& r : rows)
    std::printf("%-12s %-5s %9zu candidates  %8.3f s  %12.0f H/s\n", r.variant.c_str(), r.engine.c_str(), r.candidates,
                r.seconds, r.hashes_per_s);
  if (json) {
    FILE* f = std::fopen(json, "w");
    if (!f) return 1;
    std::fprintf(f, "[\n");
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::fprintf(f, "  {\"variant\": \"%s\", \"engine\": \"%s\", \"candidates\": %zu, \"seconds\": %.6f, \"hashes_per_s\": %.1f}%s\n",
                   rows[i].variant.c_str(), rows[i].engine.c_str(), rows[i].candidates, rows[i].seconds,
                   rows[i].hashes_per_s, i + 1 < rows.size() ? "," : "");
    std::fprintf(f, "]\n");
    std::fclose(f);
  }
  return mismatch ? 1 : 0;
}

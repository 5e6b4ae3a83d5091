// cryptaccel_crossover_bench: where the GPU starts to pay. For each kind of request `auto` chooses an engine for
// (ciphers, hashes, Keccak, RSA private and public operations, SHA-crypt), the same host-resident batch through the
// public API on the cpu engine (all host cores) and on the cuda engine, at growing batch sizes: wall time of the
// whole call, median of 3 after a warm-up. Prints one row per size and, per kind, the smallest size from which cuda
// is faster at every larger size measured ("crossover"): the figures Engine::worth_auto of the cuda engine encodes.
// Usage: cryptaccel_crossover_bench [--max-seconds S] (per kind; sizes beyond it are skipped)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/bench/timer.hpp"
#include "cryptaccel/bench/workload.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/rsa.hpp"
#include "cryptaccel/shacrypt.hpp"

using namespace cryptaccel;

namespace {

/// Median wall time of fn over 3 runs after one warm-up.
double median_time(const std::function<void()>& fn) {
  fn();
  std::vector<double> t;
  for (int r = 0; r < 3; ++r) t.push_back(bench::seconds_of(fn));
  return bench::median(std::move(t));
}

/// One kind of request: `run(n, engine)` does a batch of size n on the engine.
struct Kind {
  std::string name, unit;
  std::vector<std::size_t> sizes;
  std::function<void(std::size_t, const char*)> run;
};

void measure(const Kind& k, double max_seconds) {
  std::size_t crossover = 0;
  bool cuda_won_since = false;
  for (std::size_t n : k.sizes) {
    const double cpu = median_time([&] { k.run(n, "cpu"); });
    const double gpu = median_time([&] { k.run(n, "cuda"); });
    std::printf("%-28s %10zu %-10s cpu %10.3f ms  cuda %10.3f ms  cuda/cpu speed %6.2fx\n", k.name.c_str(), n,
                k.unit.c_str(), cpu * 1e3, gpu * 1e3, cpu / gpu);
    std::fflush(stdout);
    if (gpu < cpu) {
      if (!cuda_won_since) crossover = n, cuda_won_since = true;
    } else {
      cuda_won_since = false;
    }
    if (4 * (cpu + gpu) > max_seconds) break;  // the next size would take too long
  }
  if (cuda_won_since)
    std::printf("crossover %-28s cuda faster from %zu %s on\n", k.name.c_str(), crossover, k.unit.c_str());
  else
    std::printf("crossover %-28s cuda not faster at the largest size measured\n", k.name.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  double max_seconds = 4;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-seconds") && i + 1 < argc) {
      max_seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--max-seconds S]\n", argv[0]);
      return 2;
    }
  }
  std::mt19937_64 rng(27);
  const bytes pool = bench::random_bytes(rng, std::size_t{1} << 28);  // 256 MiB of message bytes, shared by every kind
  std::vector<Kind> kinds;

  const auto hash_kind = [&](HashAlgorithm algorithm, std::size_t len, std::vector<std::size_t> sizes) {
    return Kind{std::string(hash_info(algorithm).name) + " x " + std::to_string(len) + " B", "messages", sizes,
                [=, &pool](std::size_t n, const char* engine) {
                  std::vector<bytes> out(n, bytes(hash_info(algorithm).digest_size));
                  std::vector<HashJob> jobs(n);
                  for (std::size_t i = 0; i < n; ++i)
                    jobs[i] = HashJob{bytes_view(pool).subspan((i * len) % (pool.size() - len), len), out[i]};
                  (void)hash_batch(algorithm, jobs, BatchOptions{engine});
                }};
  };
  kinds.push_back(hash_kind(HashAlgorithm::sha256, 64, {1, 64, 1024, 16384, 262144, 1u << 21}));
  kinds.push_back(hash_kind(HashAlgorithm::sha256, 16384, {1, 16, 256, 4096, 16384}));
  kinds.push_back(hash_kind(HashAlgorithm::sha3_256, 16384, {1, 16, 256, 4096, 16384}));

  const auto cipher_kind = [&](const char* spec_name, std::size_t len, std::vector<std::size_t> sizes) {
    const CipherSpec spec = CipherSpec::parse(spec_name);
    return Kind{std::string(spec_name) + " x " + std::to_string(len) + " B", "messages", sizes,
                [=, &pool](std::size_t n, const char* engine) {
                  static const bytes key(32, 7), iv(16, 9);
                  std::vector<bytes> out(n, bytes(len)), tags(n, bytes(16));
                  std::vector<CipherJob> jobs(n);
                  for (std::size_t i = 0; i < n; ++i)
                    jobs[i] = CipherJob{bytes_view(key).first(spec.key_size()),
                                        bytes_view(iv).first(spec.mode == Mode::gcm ? 12 : 16),
                                        bytes_view(pool).subspan((i * len) % (pool.size() - len), len), out[i], {},
                                        spec.mode == Mode::gcm ? mutable_bytes(tags[i]) : mutable_bytes{}};
                  (void)run_batch(spec, Direction::encrypt, jobs, BatchOptions{engine});
                }};
  };
  kinds.push_back(cipher_kind("aes-256-gcm", 16384, {1, 16, 256, 4096, 16384}));
  kinds.push_back(cipher_kind("aes-128-ctr", 1u << 20, {1, 4, 16, 64, 256}));

  kinds.push_back(Kind{"keccak-f[1600]", "states", {1, 256, 4096, 65536, 1u << 20}, [](std::size_t n, const char* engine) {
                         std::vector<KeccakState> states(n);
                         for (std::size_t i = 0; i < n; ++i) states[i][0] = i;
                         (void)keccak_f1600_batch(states, engine);
                       }});

  static const rsa::PrivateKey key = rsa::PrivateKey::generate(2048);
  static const rsa::PublicKey pub = key.public_key();
  kinds.push_back(Kind{"rsa-2048 sign", "signatures", {1, 16, 128, 1024, 8192}, [&](std::size_t n, const char* engine) {
                         std::vector<bytes> sigs(n, bytes(key.size()));
                         std::vector<rsa::SignJob> jobs(n);
                         for (std::size_t i = 0; i < n; ++i)
                           jobs[i] = rsa::SignJob{&key, bytes_view(pool).subspan(i * 32, 32), sigs[i]};
                         (void)rsa::sign_batch(jobs, {}, BatchOptions{engine});
                       }});
  std::vector<bytes> sigs(1u << 16, bytes(key.size()));
  {
    std::vector<rsa::SignJob> jobs(sigs.size());
    for (std::size_t i = 0; i < sigs.size(); ++i) jobs[i] = rsa::SignJob{&key, bytes_view(pool).subspan(i * 32, 32), sigs[i]};
    (void)rsa::sign_batch(jobs, {}, BatchOptions{"cpu"});
  }
  kinds.push_back(Kind{"rsa-2048 verify", "signatures", {1, 64, 1024, 16384, 65536}, [&](std::size_t n, const char* engine) {
                         std::vector<rsa::VerifyJob> jobs(n);
                         for (std::size_t i = 0; i < n; ++i)
                           jobs[i] = rsa::VerifyJob{&pub, bytes_view(pool).subspan(i * 32, 32), sigs[i]};
                         (void)rsa::verify_batch(jobs, {}, BatchOptions{engine});
                       }});

  static const ShaCryptSetting setting = shacrypt_random_setting(ShaCryptVariant::sha512);
  kinds.push_back(Kind{"sha512crypt rounds=5000", "candidates", {1, 64, 1024, 16384}, [&](std::size_t n, const char* engine) {
                         std::vector<bytes> digests(n, bytes(64));
                         std::vector<ShaCryptJob> jobs(n);
                         for (std::size_t i = 0; i < n; ++i)
                           jobs[i] = ShaCryptJob{bytes_view(pool).subspan(i * 8, 8), &setting, digests[i]};
                         (void)shacrypt_batch(jobs, BatchOptions{engine});
                       }});

  for (const Kind& k : kinds) {
    try {
      measure(k, max_seconds);
    } catch (const std::exception& e) {
      std::printf("%s: %s\n", k.name.c_str(), e.what());
    }
  }
  return 0;
}

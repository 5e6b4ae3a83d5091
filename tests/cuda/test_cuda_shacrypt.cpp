// SHA-crypt on the cuda engine (a GPU), against the ref engine: the specification's vectors, random passwords of
// every length class and several salts and rounds in one batch, and a batch large enough to fill the GPU. Without a
// GPU each test skips visibly (CRYPTACCEL_REQUIRE_GPU=1 turns that into a failure).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cryptaccel/cuda.hpp"
#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel {
namespace {

#define SKIP_WITHOUT_GPU()                                                                      \
  if (!cuda::available()) {                                                                     \
    const char* required = std::getenv("CRYPTACCEL_REQUIRE_GPU");                               \
    if (required && std::string(required) == "1") FAIL() << cuda::unavailable_reason();         \
    GTEST_SKIP() << "no CUDA device: GPU test skipped (" << cuda::unavailable_reason() << ")"; \
  }

bytes_view text(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

TEST(CudaShaCrypt, SpecificationVectors) {
  SKIP_WITHOUT_GPU();
  EXPECT_EQ(shacrypt_hash(text("Hello world!"), parse_shacrypt("$6$saltstring").setting, "cuda"),
            "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1");
  EXPECT_EQ(shacrypt_hash(text("Hello world!"), parse_shacrypt("$5$rounds=10000$saltstringsaltstring").setting, "cuda"),
            "$5$rounds=10000$saltstringsaltst$3xv.VbSHBb41AL9AvLeujZkZRBAwqFMz2.opqey6IcA");
  EXPECT_EQ(shacrypt_hash(text("we have a short salt string but not a short password"),
                          parse_shacrypt("$6$rounds=77777$short").setting, "cuda"),
            "$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0");
}

TEST(CudaShaCrypt, MixedBatchesEqualRef) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(91);
  std::vector<ShaCryptSetting> settings(4);
  for (std::size_t i = 0; i < settings.size(); ++i) {
    settings[i].variant = i % 2 ? ShaCryptVariant::sha256 : ShaCryptVariant::sha512;
    settings[i].rounds = 1000 + static_cast<std::uint32_t>(i);
    settings[i].salt = std::string(i * 5, static_cast<char>('a' + i));
  }
  for (std::size_t n : {1u, 37u, 5000u}) {
    std::vector<std::string> passwords;
    std::vector<bytes> digests;
    std::vector<ShaCryptJob> jobs;
    for (std::size_t i = 0; i < n; ++i) {
      std::string p(i % 97 == 5 ? 300 : rng() % 40, '\0');
      for (char& c : p) c = static_cast<char>(rng());
      passwords.push_back(p);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const ShaCryptSetting* s = &settings[rng() % settings.size()];
      digests.emplace_back(s->variant == ShaCryptVariant::sha512 ? 64 : 32);
      jobs.push_back(ShaCryptJob{text(passwords[i]), s, digests[i]});
    }
    BatchOptions options;
    options.engine = "cuda";
    const BatchReport report = shacrypt_batch(jobs, options);
    EXPECT_EQ(report.succeeded, n);
    std::vector<bytes> expected(n);
    std::vector<ShaCryptJob> ref_jobs;
    for (std::size_t i = 0; i < n; ++i) {
      expected[i].resize(digests[i].size());
      ref_jobs.push_back(ShaCryptJob{text(passwords[i]), jobs[i].setting, expected[i]});
    }
    BatchOptions ref_options;
    ref_options.engine = n > 100 ? "cpu" : "ref";  // 5000 candidates on the portable code would take minutes
    shacrypt_batch(ref_jobs, ref_options);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(digests[i], expected[i]) << "candidate " << i << " of " << n;
  }
}

}  // namespace
}  // namespace cryptaccel

// The speed harness, inside: the workload families (one file each), the check they share, and the test hook that
// corrupts what a check sees.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/bench/workload.hpp"

namespace cryptaccel::bench {

/// cipher_workload.cpp: every cipher of cipher_names(), timed encrypting.
std::vector<std::string> cipher_workload_names();
std::unique_ptr<Workload> make_cipher_workload(std::string_view name);

/// hash_workload.cpp: "sha256", "sha512-224", "sha3-256", "shake128", "sm3" ... (hash_info().display_name in lower
/// case, '/' as '-'); make_hash_workload takes any name parse_hash() accepts.
std::vector<std::string> hash_workload_names();
std::unique_ptr<Workload> make_hash_workload(std::string_view name);

/// rsa_workload.cpp: RSA private-key (sign) and public-key (verify) operations per second, as `openssl speed rsa2048`.
std::vector<std::string> rsa_workload_names();
std::unique_ptr<Workload> make_rsa_workload(std::string_view name);

/// shacrypt_workload.cpp: "sha512crypt" and "sha256crypt" password hashes per second (operation "hash").
std::vector<std::string> shacrypt_workload_names();
std::unique_ptr<Workload> make_shacrypt_workload(std::string_view name);

/// Test hook (test_hook.cpp, the one place that reads it): with CRYPTACCEL_SPEED_INJECT_MISMATCH=NAME, true when
/// `impl` or what `workload` resolves it to is NAME ("openssl" or an engine), so that the check sees a corrupted
/// output from it and tests can exercise the mismatch path without a broken engine.
bool inject_mismatch(const Workload& workload, std::string_view impl);

/// The check of an engine's output as it is timed: every case in one batch, then each case alone (a large one then
/// splits over threads). `run(cases)` returns one output per case; `compare(case, got, how)` returns an empty string
/// when `got` is right, else why not. `corrupt` flips the last bit of the batch output (the test hook).
/// Returns the first difference, or an empty string.
template <class Case, class Run, class Compare>
std::string check_in_batch_and_alone(const std::vector<Case>& cases, bool corrupt, Run run, Compare compare) {
  auto together = run(cases);
  if (corrupt) together.back().back() ^= 1;
  const std::string how = "in a batch of " + std::to_string(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (std::string why = compare(cases[i], together[i], how); !why.empty()) return why;
  for (const Case& c : cases) {
    const std::vector<Case> one{c};
    if (std::string why = compare(c, run(one).front(), "alone"); !why.empty()) return why;
  }
  return {};
}

}  // namespace cryptaccel::bench

// The speed harness: the table of workload families and name lookup across it; random inputs.
#include <algorithm>
#include <array>
#include <cstring>

#include "cryptaccel/error.hpp"
#include "families.hpp"

namespace cryptaccel::bench {

void fill_random(mutable_bytes out, Rng& rng) {
  std::size_t i = 0;
  while (i < out.size()) {
    const std::uint64_t word = rng();
    const std::size_t n = std::min<std::size_t>(8, out.size() - i);
    std::memcpy(out.data() + i, &word, n);
    i += n;
  }
}

bytes random_bytes(Rng& rng, std::size_t n) {
  bytes out(n);
  fill_random(out, rng);
  return out;
}

std::string Workload::engine_unavailable(std::string_view impl) const {
  try {
    resolve(impl);
    return {};
  } catch (const EngineUnavailable& e) {
    return e.what();
  }
}

namespace {

// A new kind of algorithm (MACs, ...) is one more line here plus its own <family>_workload.cpp.
constexpr std::array<WorkloadFamily, 4> kFamilies = {{
    {"cipher", &cipher_workload_names, &make_cipher_workload},
    {"hash", &hash_workload_names, &make_hash_workload},
    {"shacrypt", &shacrypt_workload_names, &make_shacrypt_workload},
    {"rsa", &rsa_workload_names, &make_rsa_workload},
}};

}  // namespace

std::span<const WorkloadFamily> workload_families() { return kFamilies; }

std::unique_ptr<Workload> make_workload(std::string_view name) {
  for (const WorkloadFamily& family : kFamilies) {
    if (auto workload = family.make(name)) return workload;
  }
  std::string supported;
  for (const std::string& n : all_workload_names()) supported += (supported.empty() ? "" : ", ") + n;
  throw InvalidArgument("unknown algorithm '" + std::string(name) + "' (supported: " + supported + ")");
}

std::vector<std::string> all_workload_names() {
  std::vector<std::string> out;
  for (const WorkloadFamily& family : kFamilies) {
    for (std::string& n : family.names()) out.push_back(std::move(n));
  }
  return out;
}

std::vector<std::string> default_workload_names() {
  return {"aes-128-ctr", "aes-256-ctr", "aes-256-gcm", "aes-256-cbc", "aes-256-xts", "sm4-ctr", "sha256", "sha3-256"};
}

}  // namespace cryptaccel::bench

// `cryptaccel speed`, hash family: every hash of hash_names() as a workload, timed through hash_batch (one job per
// message; SHAKE with its default output length), checked against the `ref` engine, and compared with OpenSSL's EVP
// digests.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "speed_workload.hpp"

namespace cryptaccel::cli::speed {

/// Workload names of the hashes: "sha256", "sha512-224", "sha3-256", "shake128", "sm3" (hash_info().display_name in
/// lower case, '/' as '-').
std::vector<std::string> hash_workload_names();

/// The hash workload for any name parse_hash() accepts; nullptr for other names.
std::unique_ptr<Workload> make_hash_workload(std::string_view name);

}  // namespace cryptaccel::cli::speed

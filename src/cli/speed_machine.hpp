// `cryptaccel speed`: what the numbers were measured on (machine and build), for the JSON report and the table header.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace cryptaccel::cli::speed {

/// JSON with keys in the order written (easier to read than sorted keys).
using Json = nlohmann::ordered_json;

/// {"cpu_model", "logical_cores", "usable_cores", "cpu_flags": {flag: bool}, "os": {...}, "gpu": null}. Fields that
/// cannot be read are null.
Json machine_info();

/// {"cryptaccel_version", "compiler", "build_type", "openssl"}.
Json build_info();

/// /proc/cpuinfo "model name" (x86) or "" when unknown.
std::string cpu_model();

/// Logical cores this process may run on (its CPU affinity), at least 1.
unsigned usable_cores();

/// The current time in UTC, ISO 8601 to the second ("2025-01-31T12:34:56Z").
std::string utc_timestamp();

}  // namespace cryptaccel::cli::speed

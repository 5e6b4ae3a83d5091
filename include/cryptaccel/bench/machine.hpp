// The speed harness (cryptaccel::bench): what the numbers were measured on (machine and build), as the report's
// header line and its JSON "machine" and "build" objects show it.
#pragma once
#include <string>

namespace cryptaccel::bench {

/// /proc/cpuinfo "model name" (x86) or "" when unknown.
std::string cpu_model();

/// Logical cores this process may run on (its CPU affinity), at least 1.
unsigned usable_cores();

/// The current time in UTC, ISO 8601 to the second ("2025-01-31T12:34:56Z").
std::string utc_timestamp();

/// "OpenSSL 3.0.19 27 Jan 2026" (the libcrypto actually loaded).
std::string openssl_version();

/// The compiler that built the library: "GCC 12.2.0", "Clang 19.1.7 ...".
std::string compiler();

/// The report's "machine" object as JSON text (one line): {"cpu_model", "logical_cores", "usable_cores",
/// "cpu_flags": {flag: bool}, "os": {"name", "release", "arch", "distribution"}, "gpu": null}; fields that cannot be
/// read are null. For other reports that say where they were measured (the ISA lab's tables).
std::string machine_json();

/// The report's "build" object as JSON text (one line): {"cryptaccel_version", "compiler", "build_type", "cuda",
/// "openssl"}.
std::string build_json();

}  // namespace cryptaccel::bench

// The speed harness, inside: the machine and build as JSON objects of the report (report_json.cpp).
#pragma once
#include <nlohmann/json.hpp>

namespace cryptaccel::bench {

/// JSON with keys in the order written (easier to read than sorted keys).
using Json = nlohmann::ordered_json;

/// {"cpu_model", "logical_cores", "usable_cores", "cpu_flags": {flag: bool}, "os": {...}, "gpu": null}. Fields that
/// cannot be read are null.
Json machine_info();

/// {"cryptaccel_version", "compiler", "build_type", "cuda", "openssl"}.
Json build_info();

}  // namespace cryptaccel::bench

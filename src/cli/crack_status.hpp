// `cryptaccel crack`: the status line (hashcat's progress, speed, ETA and recovered counts on one line) and its
// JSON form (--status-json).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cryptaccel/crack/attack.hpp"

namespace cryptaccel::cli::crack {

using namespace cryptaccel::crack;


/// "Status: Running | Progress: 1200/5000 (24.00%) | Speed: 12.35 kH/s | ETA: 00:01:05 | Recovered: 3/10 (30.00%) |
/// Engine: cpu".
std::string status_line(const StatusSnapshot& s);

/// The live line on a terminal: the same facts, shorter, cut to `columns` (a terminal's width; at most that many
/// characters, so that the line never wraps): "Running 24.00% | 12.35 kH/s | ETA 00:01:05 | Recovered 3/10 |
/// 00:00:10 | cpu".
std::string status_line_compact(const StatusSnapshot& s, std::size_t columns);

/// One JSON object (no newline): {"status", "progress": [done, total] (total null when unknown),
/// "progress_percent" (null when unknown), "speed_hs",
/// "elapsed_s", "eta_s" (null when unknown), "recovered_hashes": [n, m], "recovered_settings": [n, m], "engine",
/// "time_start", "estimated_stop" (null when unknown)}.
std::string status_json(const StatusSnapshot& s);

/// "123.45 kH/s" (H/s, kH/s, MH/s, GH/s).
std::string format_speed(double hashes_per_second);

}  // namespace cryptaccel::cli::crack

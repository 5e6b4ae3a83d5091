// The published numbers of seed 000: A. Adams, P. Gupta, B. Tine, H. Kim, "Cryptography Acceleration in a RISC-V
// GPGPU" (Georgia Tech; Vortex GPGPU on an Intel Arria 10 GX 1150 FPGA, RISC-V crypto draft v0.9), copied from the
// seed text (shared/seeds/000_*.txt): Table 1, the speed-ups of Figures 2 and 4 quoted in Sections 5.1 and 5.3,
// Table 2 (frequencies) and Table 3 (AES-CTR scaling estimate). Used by `cryptaccel rv table seed000` to print the
// paper's figures beside ours.
#pragma once
#include <optional>
#include <string_view>

#include "rv_manifest.hpp"

namespace cryptaccel::cli::rvlab::seed000 {

/// The paper's run: 16 cores x 4 warps x 4 threads = 256 threads; SHA-256: two 2 KiB messages per thread (512
/// messages, 1 MiB); AES-256: 512 blocks per thread (131 072 blocks, 2 MiB) per mode and direction.
inline constexpr unsigned kCores = 16, kWarps = 4, kThreads = 4;
inline constexpr unsigned kShaMessages = 512;   ///< operations behind Table 1's SHA-256 rows
inline constexpr unsigned kAesOperations = 256; ///< threads x (512 blocks) behind the AES rows
/// Table 2: the 16-core baseline runs at 192 MHz, the 16-core design with the crypto unit at 177 MHz.
inline constexpr double kBaselineMHz16 = 192, kCryptoMHz16 = 177;

/// One row of Table 1 (instructions and cycles in thousands, totals of the whole GPU run).
struct Table1Row {
  std::string_view workload;       ///< our workload id: sha256, aes-ecb-encrypt, ...
  std::string_view configuration;  ///< "software", "hybrid", "native" as the paper names them
  double kinstructions;
  double kcycles;
};

/// Table 1 as published.
inline constexpr Table1Row kTable1[] = {
    {"sha256", "software", 84335, 2137},           {"sha256", "hybrid", 64642, 1707},
    {"sha256", "native", 49503, 1331},             {"aes-ecb-encrypt", "software", 451057, 22269},
    {"aes-ecb-decrypt", "software", 450046, 21878}, {"aes-ecb-encrypt", "native", 64741, 2469},
    {"aes-ecb-decrypt", "native", 62422, 2727},    {"aes-cbc-encrypt", "software", 7235197, 2798349},
    {"aes-cbc-decrypt", "software", 451754, 22596}, {"aes-cbc-encrypt", "native", 1012945, 398312},
    {"aes-cbc-decrypt", "native", 64521, 4534},    {"aes-ctr-encrypt", "software", 456585, 14979},
    {"aes-ctr-decrypt", "software", 456585, 14985}, {"aes-ctr-encrypt", "native", 70159, 2883},
    {"aes-ctr-decrypt", "native", 70165, 2767},
};

/// Table 3: AES-CTR encryption speed-up of N crypto cores over 16 non-accelerated cores (N = 1..16), at the
/// frequency each configuration supports and at 192 MHz.
struct Table3Row {
  unsigned cores;
  double at_supported_mhz;
  double at_192_mhz;
};
inline constexpr Table3Row kTable3[] = {
    {1, 0.37, 0.32},  {2, 0.73, 0.65},  {3, 1.08, 0.97},  {4, 1.42, 1.30},  {5, 1.75, 1.62},  {6, 2.07, 1.95},
    {7, 2.39, 2.27},  {8, 2.69, 2.60},  {9, 2.98, 2.92},  {10, 3.27, 3.25}, {11, 3.55, 3.57}, {12, 3.81, 3.90},
    {13, 4.07, 4.22}, {14, 4.32, 4.54}, {15, 4.56, 4.87}, {16, 4.79, 5.19},
};

/// Our variant name -> the paper's configuration: software-naive -> "software" for SHA-256 (its software SHA is a
/// naive reading of FIPS 180-4), software-table -> "software" for AES (single-table), hybrid, native.
std::optional<std::string_view> paper_configuration(std::string_view workload, std::string_view variant);

/// The paper's Table 1 row for our workload x variant, if it has one.
const Table1Row* table1(std::string_view workload, std::string_view variant);

/// The paper's cycle speed-up of `variant` over software for `workload` (Table 1's cycle ratio; it equals the
/// speed-ups quoted in Sections 5.1 and 5.3), if published. Figure 3 (key expansion) gives no numbers in the text.
std::optional<double> speedup(std::string_view workload, std::string_view variant);

/// Everything above as JSON (for `rv table seed000 --json`).
Json paper_json();

}  // namespace cryptaccel::cli::rvlab::seed000

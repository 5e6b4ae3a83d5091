// The published numbers of seed 004: "Maximizing the Potential of Custom RISC-V Vector Extensions for Speeding up
// SHA-3 Hash Functions" (DATE 2023), copied from the seed text (shared/seeds/004_*.txt): Table II (64-bit
// architecture, LMUL 1 and 8, SN = 1, 3, 6 Keccak states, and the vector-extension reference [15]) and Table III
// (32-bit architecture, LMUL 8, and the 32-bit reference designs LEON3 [13], MIPS [14], OASIP/DASIP [12]). Used by
// `cryptaccel rv table seed004` to print the paper's figures beside ours.
#pragma once
#include <string_view>

#include "rv_manifest.hpp"

namespace cryptaccel::cli::rvlab::seed004 {

/// A figure the table leaves empty ("-").
inline constexpr double kNone = -1;

/// One row of Table II or III as published.
struct PaperRow {
  std::string_view id;              ///< ours: "custom64-lmul1-sn1", ..., "leon3"; the configuration rows' ids
  std::string_view table;           ///< "II" or "III"
  std::string_view implementation;  ///< as the paper writes it
  unsigned sn;                      ///< Keccak states in parallel (0: a reference design)
  double cycles_per_round;          ///< cyc/rnd, kNone when not given
  double cycles_per_byte;           ///< cyc/byte (of one state's 200 bytes: the same for every SN)
  double bits_per_cycle;            ///< throughput
  double slices;                    ///< FPGA area, kNone when not given ("only simulation")
  double bits_per_cycle_slice;      ///< throughput / area, kNone when not given
  std::string_view note;            ///< what the figures mean where the seed is not self-explanatory ("" otherwise)
};

/// Tables II and III, in the paper's order.
inline constexpr PaperRow kRows[] = {
    {"vector-ext-15", "II", "Vector Extensions [15]", 1, 66, 15, 1010.1e-3, kNone, kNone,
     "cyc/byte printed as '~15'; its bits/cycle is 1600 / (24 x 66): the rounds only, without load and store"},
    {"custom64-lmul1-sn1", "II", "64-bit with LMUL=1 (EleNum=5, SN=1)", 1, 103, 12.8, 624.02e-3, 7323, 85.21e-6, ""},
    {"custom64-lmul1-sn3", "II", "64-bit with LMUL=1 (EleNum=15, SN=3)", 3, 103, 12.8, 1872.07e-3, 24785, 75.52e-6, ""},
    {"custom64-lmul1-sn6", "II", "64-bit with LMUL=1 (EleNum=30, SN=6)", 6, 103, 12.8, 3744.15e-3, 48180, 77.71e-6, ""},
    {"custom64-lmul8-sn1", "II", "64-bit with LMUL=8 (EleNum=5, SN=1)", 1, 75, 9.5, 845.67e-3, 7323, 115.48e-6, ""},
    {"custom64-lmul8-sn3", "II", "64-bit with LMUL=8 (EleNum=15, SN=3)", 3, 75, 9.5, 2537.00e-3, 24789, 102.34e-6,
     "24 789 slices here, 24 785 in the LMUL=1 row of the same SN (as published)"},
    {"custom64-lmul8-sn6", "II", "64-bit with LMUL=8 (EleNum=30, SN=6)", 6, 75, 9.5, 5073.00e-3, 48180, 105.29e-6, ""},
    {"leon3", "III", "LEON3 [13]", 0, kNone, 369, 21.68e-3, 8648, 2.51e-6, ""},
    {"mips-native", "III", "MIPS Native [14]", 0, kNone, 178.1, 44.92e-3, 6595, 6.81e-6, ""},
    {"mips-coprocessor", "III", "MIPS Coprocessor [14]", 0, 7.0, 137.9, 58.01e-3, 7643, 7.59e-6,
     "cyc/rnd printed as 7.0, which does not fit 137.9 cyc/byte (200 x 137.9 / 24 = 1149 cycles per round)"},
    {"oasip", "III", "OASIP [12]", 0, kNone, 291.5, 27.44e-3, 981, 27.97e-6, ""},
    {"dasip", "III", "DASIP [12]", 0, kNone, 130.4, 61.36e-3, 1522, 40.31e-6, ""},
    {"custom32-lmul8-sn1", "III", "32-bit with LMUL=8 (EleNum=5, SN=1)", 1, 147, 18.1, 441.98e-3, 6359, 69.5e-6, ""},
    {"custom32-lmul8-sn3", "III", "32-bit LMUL=8 (EleNum=15, SN=3)", 3, 147, 18.1, 1325.97e-3, 23408, 56.65e-6, ""},
    {"custom32-lmul8-sn6", "III", "32-bit LMUL=8 (EleNum=30, SN=6)", 6, 147, 18.1, 2651.93e-3, 48036, 55.2e-6, ""},
};

/// The paper's row with this id, or nullptr.
const PaperRow* row(std::string_view id);

/// Their processor as far as the seed tells it (for the JSON and docs/isa-lab.md).
inline constexpr std::string_view kConfiguration =
    "a SIMD processor written in SystemVerilog: a scalar core and a vector processing unit with an RVV-style register "
    "file of EleNum = 5*SN elements per register (ELEN 64 or 32), the ten custom instructions of Table I with latency "
    "1 + ceil(VL/EleNum) (vpi 2 + ceil(VL/EleNum)); FPGA area in slices; Keccak-f[1600], 24 rounds, SN states in "
    "parallel with the same latency for every SN";

/// How the published figures relate (checked against the rows above in docs/isa-lab.md, "Seed 004 reproduced").
inline constexpr std::string_view kArithmetic =
    "bits/cycle = SN * 1600 / C and cyc/byte = C / 200, C = cycles of one whole permutation of SN states (load, 24 "
    "rounds, store): C = 2564 (LMUL 1), 1892 (LMUL 8), 3620 (32-bit) = 24 * cyc/rnd + 92; Table III's reference rows: "
    "bits/cycle = 8 / cyc/byte";

/// Claims of the text: the 32-bit design's throughput over [14] (MIPS Coprocessor) and [12] (DASIP), and the 64-bit
/// design's over the vector-extension reference [15].
inline constexpr double kClaim32VsMips = 45.7, kClaim32VsDasip = 43.2, kClaim64VsVector = 5.3;

/// Everything above as JSON.
Json paper_json();

}  // namespace cryptaccel::cli::rvlab::seed004

// The published numbers of seed 001: T. Szymkowiak, E. Isufi, M.-J. O. Saarinen, "Marian: An Open-Source
// Implementation of the RISC-V Vector Cryptography Extension" (RISC-V Summit North America 2024; write-up
// ia.cr/2024/1449), copied from the seed text (shared/seeds/001_*.txt): the "6x..100x Bulk Encryption Performance"
// table, OpenSSL's C code ("Reference") against Zvk on CVA6 + Ara2 with Marian's crypto unit, measured on a VCU118
// (Virtex UltraScale+) FPGA. Used by `cryptaccel rv table seed001` to print the paper's figures beside ours.
#pragma once
#include <string_view>

#include "rv_manifest.hpp"

namespace cryptaccel::cli::rvlab::seed001 {

/// One row of the paper's table.
struct PaperRow {
  std::string_view id;        ///< our row id: aes128-enc-block, ..., sm3-1k
  std::string_view operation; ///< as the paper writes it: "AES128 Enc. block", "SHA256 Hash / 1kB", ...
  double reference_cycles;
  double reference_instret;
  double zvk_cycles;
  double zvk_instret;
};

/// The table as published (the note under it: "AES OpenSSL C Reference is 'Constant-Time', SM4 is not").
inline constexpr PaperRow kRows[] = {
    {"aes128-enc-block", "AES128 Enc. block", 18794, 12482, 343, 53},
    {"aes128-dec-block", "AES128 Dec. block", 23731, 15077, 226, 53},
    {"aes256-enc-block", "AES256 Enc. block", 24493, 17478, 441, 65},
    {"aes256-dec-block", "AES256 Dec. block", 32677, 21213, 278, 65},
    {"sm4-enc-block", "SM4 Enc. block", 4187, 1423, 272, 39},
    {"sm4-dec-block", "SM4 Dec. block", 2564, 1425, 178, 39},
    {"sha256-1k", "SHA256 Hash / 1kB", 156205, 82179, 12106, 3802},
    {"sha512-1k", "SHA512 Hash / 1kB", 109905, 45903, 9140, 2712},
    {"sm3-1k", "SM3 Hash / 1kB", 304031, 70075, 8134, 1410},
};

/// The paper's row with our id, or nullptr.
const PaperRow* row(std::string_view id);

/// Their system as far as the seed tells it (for the JSON and docs/isa-lab.md).
inline constexpr std::string_view kConfiguration =
    "CVA6 (RV64) scalar core + Ara2 vector unit (lanes with ELEN 64) + Marian's crypto unit (a separate three-stage "
    "pipeline: operand collection, execution, write-back; in order), on a VCU118 Virtex UltraScale+ FPGA at 75 MHz; "
    "reference = OpenSSL's C code (constant-time AES, table SM4); VLEN, lane count and compiler not stated in the seed";

/// Everything above as JSON.
Json paper_json();

}  // namespace cryptaccel::cli::rvlab::seed001

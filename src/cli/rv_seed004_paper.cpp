#include "rv_seed004_paper.hpp"

namespace cryptaccel::cli::rvlab::seed004 {
namespace {

Json figure(double v) { return v == kNone ? Json(nullptr) : Json(v); }

}  // namespace

const PaperRow* row(std::string_view id) {
  for (const PaperRow& r : kRows)
    if (r.id == id) return &r;
  return nullptr;
}

Json paper_json() {
  Json rows = Json::array();
  for (const PaperRow& r : kRows) {
    Json j = {{"id", r.id},
              {"table", r.table},
              {"implementation", r.implementation},
              {"sn", r.sn == 0 ? Json(nullptr) : Json(r.sn)},
              {"cycles_per_round", figure(r.cycles_per_round)},
              {"cycles_per_byte", figure(r.cycles_per_byte)},
              {"bits_per_cycle", figure(r.bits_per_cycle)},
              {"slices", figure(r.slices)},
              {"bits_per_cycle_slice", figure(r.bits_per_cycle_slice)}};
    if (!r.note.empty()) j["note"] = r.note;
    rows.push_back(std::move(j));
  }
  return {{"title", "Maximizing the Potential of Custom RISC-V Vector Extensions for Speeding up SHA-3 Hash Functions"},
          {"venue", "2023 Design, Automation & Test in Europe Conference & Exhibition (DATE), Antwerp, pp. 1-6"},
          {"configuration", kConfiguration},
          {"arithmetic", kArithmetic},
          {"claims",
           {{"custom32_vs_mips_coprocessor", kClaim32VsMips},
            {"custom32_vs_dasip", kClaim32VsDasip},
            {"custom64_vs_vector_extensions", kClaim64VsVector}}},
          {"rows", rows}};
}

}  // namespace cryptaccel::cli::rvlab::seed004

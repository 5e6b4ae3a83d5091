#include "rv_seed001_paper.hpp"

namespace cryptaccel::cli::rvlab::seed001 {

const PaperRow* row(std::string_view id) {
  for (const PaperRow& r : kRows)
    if (r.id == id) return &r;
  return nullptr;
}

Json paper_json() {
  Json rows = Json::array();
  for (const PaperRow& r : kRows) {
    rows.push_back({{"id", r.id},
                    {"operation", r.operation},
                    {"reference_cycles", r.reference_cycles},
                    {"reference_instret", r.reference_instret},
                    {"zvk_cycles", r.zvk_cycles},
                    {"zvk_instret", r.zvk_instret},
                    {"speedup_cycles", r.reference_cycles / r.zvk_cycles},
                    {"speedup_instret", r.reference_instret / r.zvk_instret}});
  }
  return {{"title", "Marian: An Open-Source Implementation of the RISC-V Vector Cryptography Extension"},
          {"authors", "T. Szymkowiak, E. Isufi, M.-J. O. Saarinen (Tampere University)"},
          {"venue", "RISC-V Summit North America, 22 October 2024; write-up ia.cr/2024/1449"},
          {"configuration", kConfiguration},
          {"note", "AES OpenSSL C Reference is 'Constant-Time', SM4 is not."},
          {"rows", rows}};
}

}  // namespace cryptaccel::cli::rvlab::seed001

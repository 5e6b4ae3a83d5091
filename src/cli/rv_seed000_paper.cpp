#include "rv_seed000_paper.hpp"

#include <string>

namespace cryptaccel::cli::rvlab::seed000 {

std::optional<std::string_view> paper_configuration(std::string_view workload, std::string_view variant) {
  const bool sha = workload == "sha256";
  if (variant == "hybrid" || variant == "native") return variant;
  if (sha && variant == "software-naive") return "software";
  if (!sha && variant == "software-table") return "software";
  return std::nullopt;
}

const Table1Row* table1(std::string_view workload, std::string_view variant) {
  const auto config = paper_configuration(workload, variant);
  if (!config) return nullptr;
  for (const Table1Row& row : kTable1)
    if (row.workload == workload && row.configuration == *config) return &row;
  return nullptr;
}

std::optional<double> speedup(std::string_view workload, std::string_view variant) {
  const Table1Row* base = table1(workload, workload == "sha256" ? "software-naive" : "software-table");
  const Table1Row* row = table1(workload, variant);
  if (base == nullptr || row == nullptr) return std::nullopt;
  return base->kcycles / row->kcycles;
}

Json paper_json() {
  Json t1 = Json::array();
  for (const Table1Row& r : kTable1) {
    const unsigned ops = r.workload == "sha256" ? kShaMessages : kAesOperations;
    t1.push_back({{"workload", std::string(r.workload)},
                  {"configuration", std::string(r.configuration)},
                  {"kinstructions", r.kinstructions},
                  {"kcycles", r.kcycles},
                  {"instructions_per_operation", r.kinstructions * 1000 / ops}});
  }
  Json t3 = Json::array();
  for (const Table3Row& r : kTable3) {
    t3.push_back({{"cores", r.cores}, {"at_supported_mhz", r.at_supported_mhz}, {"at_192_mhz", r.at_192_mhz}});
  }
  return {{"citation",
           "A. Adams, P. Gupta, B. Tine, H. Kim, \"Cryptography Acceleration in a RISC-V GPGPU\", Georgia Institute "
           "of Technology (seed 000): Table 1, Sections 5.1 and 5.3, Tables 2 and 3"},
          {"configuration",
           {{"cores", kCores},
            {"warps", kWarps},
            {"threads", kThreads},
            {"isa", "Vortex RV32IMF + crypto draft v0.9 subset (aes32*, sha256*, rori)"},
            {"baseline_mhz_16_cores", kBaselineMHz16},
            {"crypto_mhz_16_cores", kCryptoMHz16},
            {"operations", {{"sha256", kShaMessages}, {"aes", kAesOperations}}}}},
          {"table1", t1},
          {"quoted_speedups",
           {{"sha256", {{"hybrid", 1.25}, {"native", 1.60}}},
            {"aes-ctr-encrypt", 5.2},
            {"aes-ctr-decrypt", 5.4},
            {"aes-cbc-encrypt", 7.0},
            {"aes-cbc-decrypt", 5.0},
            {"aes_average", 6.6}}},
          {"table3", t3}};
}

}  // namespace cryptaccel::cli::rvlab::seed000

#include "rv_table.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>

#include "cryptaccel/bench/machine.hpp"
#include "rv_seed000_paper.hpp"

namespace cryptaccel::cli::rvlab {
namespace {

namespace rv = cryptaccel::rv;

std::uint64_t seed000_value(const Manifest& m, const std::string& kernel, const char* key, std::uint64_t fallback) {
  const KernelSpec* k = m.kernel(kernel);
  if (k != nullptr && k->workloads.contains("seed000") && k->workloads["seed000"].contains(key)) {
    return k->workloads["seed000"][key].get<std::uint64_t>();
  }
  return fallback;
}

}  // namespace

const TableCell* SeedTable::cell(const std::string& workload, const std::string& variant, unsigned xlen) const {
  for (const TableCell& c : cells)
    if (c.workload->id == workload && c.run.entry.variant == variant && c.run.entry.xlen == xlen) return &c;
  return nullptr;
}

std::vector<std::string> SeedTable::variants(const std::string& workload) const {
  std::vector<std::string> out;
  for (const TableCell& c : cells) {
    if (c.workload->id == workload &&
        std::find(out.begin(), out.end(), c.run.entry.variant) == out.end()) {
      out.push_back(c.run.entry.variant);
    }
  }
  return out;
}

std::vector<TableWorkload> seed000_workloads(const Manifest& m) {
  const std::uint64_t sha_bytes = seed000_value(m, "sha256", "length", 2048);
  const std::uint64_t sha512_bytes = seed000_value(m, "sha512", "length", 2048);
  const std::uint64_t blocks = seed000_value(m, "aes256", "blocks", 512);
  std::vector<TableWorkload> w;
  WorkloadRequest sha;
  sha.bytes = sha_bytes;
  w.push_back({"sha256", "SHA-256, " + std::to_string(sha_bytes) + " B", "Figure 2", "sha256", "software-naive", sha});
  for (const char* mode : {"ecb", "cbc", "ctr"}) {
    for (const bool decrypt : {false, true}) {
      WorkloadRequest r;
      r.mode = mode;
      r.decrypt = decrypt;
      r.blocks = blocks;
      std::string upper = mode;
      std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return char(std::toupper(c)); });
      const std::string dir = decrypt ? "decrypt" : "encrypt";
      w.push_back({std::string("aes-") + mode + "-" + dir,
                   "AES-256 " + upper + " " + dir + ", " + std::to_string(blocks) + " blocks", "Figure 4", "aes256",
                   "software-table", r});
    }
  }
  w.push_back({"aes-keyexp-encrypt", "AES-256 key expansion, encrypt", "Figure 3", "aes256-keyexp-enc",
               "software-table", {}});
  w.push_back({"aes-keyexp-decrypt", "AES-256 key expansion, decrypt", "Figure 3", "aes256-keyexp-dec",
               "software-table", {}});
  WorkloadRequest sha512;
  sha512.bytes = sha512_bytes;
  w.push_back({"sha512", "SHA-512, " + std::to_string(sha512_bytes) + " B", "extra", "sha512", "software-naive",
               sha512});
  // Keep only what the manifest has (SHA-512 is optional: it is not in the paper).
  std::vector<TableWorkload> present;
  for (TableWorkload& x : w) {
    if (m.kernel(x.kernel) != nullptr) {
      present.push_back(std::move(x));
    } else if (x.figure != "extra") {
      throw std::runtime_error("the kernel manifest " + m.path + " has no kernel " + x.kernel +
                               " (needed for seed 000)");
    }
  }
  return present;
}

SeedTable run_seed000(const Manifest& m, const RunOptions& options, bool cycle_model_default, const SimtConfig& simt,
                      std::uint64_t seed) {
  SeedTable t;
  t.manifest_path = m.path;
  t.compiler = m.compiler;
  t.cycle_model = options.cycle_model;
  t.cycle_model_default = cycle_model_default;
  t.simt = simt;
  t.vs_spike = !options.spike.empty();
  t.seed = seed;
  t.workloads = seed000_workloads(m);
  std::mt19937_64 rng(seed);
  const auto start = std::chrono::steady_clock::now();

  for (const TableWorkload& w : t.workloads) {
    const KernelSpec& spec = *m.kernel(w.kernel);
    // One input per workload, fed to every variant and XLEN (the counts do not depend on the data, but the same
    // bytes make the outputs comparable across variants too).
    const KernelInput input = make_input(spec, w.request, rng);
    for (const std::string& variant : spec.variants) {
      // Seed 000's configurations only (seed 001's reference and zvk variants have their own table).
      if (variant != "software-naive" && variant != "software-table" && variant != "hybrid" && variant != "native") {
        continue;
      }
      for (const unsigned xlen : {32u, 64u}) {
        const auto found = std::find_if(m.entries.begin(), m.entries.end(), [&](const ManifestEntry& e) {
          return e.kernel == w.kernel && e.variant == variant && e.xlen == xlen;
        });
        if (found == m.entries.end()) continue;
        TableCell cell;
        cell.workload = &w;
        cell.run = run_kernel(*found, input, options);
        for (const std::string& p : cell.run.problems) {
          t.problems.push_back(w.kernel + " " + variant + " rv" + std::to_string(xlen) + " (" + w.label + "): " + p);
        }
        t.cells.push_back(std::move(cell));
      }
    }
  }
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (TableCell& c : t.cells) {
    const rv::Counts& r = c.run.result.region;
    c.simt = simt_estimate(simt, r.instret, r.cycles, c.run.input.payload_bytes);
    const TableCell* base = t.cell(c.workload->id, c.workload->baseline, c.run.entry.xlen);
    if (base != nullptr && base->run.ok() && c.run.ok() && r.cycles > 0 && r.instret > 0) {
      c.speedup_cycles = static_cast<double>(base->run.result.region.cycles) / static_cast<double>(r.cycles);
      c.speedup_instructions = static_cast<double>(base->run.result.region.instret) / static_cast<double>(r.instret);
    }
  }
  return t;
}

Json seed000_json(const SeedTable& t) {
  const Json model = cycle_model_json(t.cycle_model);

  Json rows = Json::array();
  for (const TableCell& c : t.cells) {
    Json j = {{"workload_id", c.workload->id},
              {"label", c.workload->label},
              {"figure", c.workload->figure},
              {"baseline_variant", c.workload->baseline}};
    j.update(run_json(c.run));
    j["speedup_cycles"] = c.speedup_cycles ? Json(*c.speedup_cycles) : Json(nullptr);
    j["speedup_instructions"] = c.speedup_instructions ? Json(*c.speedup_instructions) : Json(nullptr);
    const auto paper = seed000::speedup(c.workload->id, c.run.entry.variant);
    j["paper_speedup_cycles"] = paper ? Json(*paper) : Json(nullptr);
    const seed000::Table1Row* p = seed000::table1(c.workload->id, c.run.entry.variant);
    if (p != nullptr) {
      const unsigned ops = c.workload->id == "sha256" ? seed000::kShaMessages : seed000::kAesOperations;
      j["paper_instructions_per_operation"] = p->kinstructions * 1000 / ops;
    } else {
      j["paper_instructions_per_operation"] = nullptr;
    }
    j["simt"] = {{"cycles_per_round", c.simt.cycles_per_round},
                 {"issue_bound", c.simt.issue_bound},
                 {"operations_per_second", c.simt.operations_per_second},
                 {"bytes_per_second", c.simt.bytes_per_second}};
    rows.push_back(std::move(j));
  }

  // Table 3 analogue: AES-CTR encryption, N native cores vs all-software cores, RV32 (Vortex is RV32).
  Json table3 = Json::array();
  const TableCell* fast = t.cell("aes-ctr-encrypt", "native", 32);
  const TableCell* slow = t.cell("aes-ctr-encrypt", "software-table", 32);
  if (fast != nullptr && slow != nullptr && fast->run.ok() && slow->run.ok()) {
    for (unsigned n = 1; n <= t.simt.cores; ++n) {
      Json row = {{"cores", n}, {"speedup", simt_core_speedup(t.simt, n, fast->simt, slow->simt)}};
      const bool paper_shape = t.simt.cores == seed000::kCores && n <= std::size(seed000::kTable3);
      row["paper_at_192_mhz"] = paper_shape ? Json(seed000::kTable3[n - 1].at_192_mhz) : Json(nullptr);
      table3.push_back(std::move(row));
    }
  }

  Json spike_note = t.vs_spike ? Json("every run also on Spike: output and region instret compared") : Json(nullptr);
  return {{"table", "seed000"},
          {"title", "Seed 000 (Adams et al., Cryptography Acceleration in a RISC-V GPGPU) on cryptaccel's RISC-V "
                    "simulator"},
          {"timestamp", bench::utc_timestamp()},
          {"machine", Json::parse(bench::machine_json())},
          {"build", Json::parse(bench::build_json())},
          {"manifest", t.manifest_path},
          {"kernel_compiler", t.compiler},
          {"cycle_model", model},
          {"cycle_model_default", t.cycle_model_default},
          {"spike", spike_note},
          {"seed", t.seed},
          {"simt_config",
           {{"cores", t.simt.cores},
            {"warps", t.simt.warps},
            {"threads", t.simt.threads},
            {"clock_mhz", t.simt.clock_mhz},
            {"model", simt_model_text()}}},
          {"seconds", t.seconds},
          {"rows", rows},
          {"table3", table3},
          {"paper", seed000::paper_json()},
          {"ok", t.ok()},
          {"problems", t.problems}};
}

}  // namespace cryptaccel::cli::rvlab

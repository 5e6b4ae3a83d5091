// `cryptaccel rv table seed000`: the text report (Table 1, Figures 2-4 as speed-up rows, the SIMT estimate and a
// Table 3 analogue), each beside the paper's published numbers.
#include <cstdio>
#include <string>

#include "rv_seed000_paper.hpp"
#include "rv_table.hpp"

namespace cryptaccel::cli::rvlab {
namespace {

namespace rv = cryptaccel::rv;

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string count(const TableCell* c, bool cycles) {
  if (c == nullptr) return "-";
  if (!c->run.ok()) return "FAILED";
  const rv::Counts& r = c->run.result.region;
  return std::to_string(cycles ? r.cycles : r.instret);
}

std::string ratio(const TableCell* c) {
  if (c == nullptr || !c->speedup_cycles) return "-";
  return fixed(*c->speedup_cycles, 2);
}

std::string cycle_model_text(const SeedTable& t) {
  if (t.cycle_model_default) return "defaults (docs/isa-lab.md)";
  std::string s;
  for (std::size_t i = 0; i < rv::kClassCount; ++i) {
    s += (s.empty() ? "" : ", ") + std::string(rv::class_name(static_cast<rv::InsnClass>(i))) + " " +
         std::to_string(t.cycle_model.latency[i]);
  }
  return s + ", taken-branch-penalty " + std::to_string(t.cycle_model.taken_branch_penalty);
}

void print_table1(std::FILE* out, const SeedTable& t) {
  std::fprintf(out,
               "Table 1: instructions and modelled cycles of one operation (one thread's work in the paper), "
               "measured region\n");
  std::fprintf(out, "%-34s %-15s %14s %12s %14s %12s %16s\n", "", "", "RV32", "", "RV64", "", "paper (Vortex)");
  std::fprintf(out, "%-34s %-15s %14s %12s %14s %12s %16s\n", "Algorithm", "Configuration", "instructions", "cycles",
               "instructions", "cycles", "instructions/op");
  for (const TableWorkload& w : t.workloads) {
    bool first = true;
    for (const std::string& v : t.variants(w.id)) {
      const TableCell* c32 = t.cell(w.id, v, 32);
      const TableCell* c64 = t.cell(w.id, v, 64);
      const seed000::Table1Row* p = seed000::table1(w.id, v);
      std::string paper = "-";
      if (p != nullptr) {
        const unsigned ops = w.id == "sha256" ? seed000::kShaMessages : seed000::kAesOperations;
        paper = fixed(p->kinstructions * 1000 / ops, 0);
      }
      std::fprintf(out, "%-34s %-15s %14s %12s %14s %12s %16s\n", first ? w.label.c_str() : "", v.c_str(),
                   count(c32, false).c_str(), count(c32, true).c_str(), count(c64, false).c_str(),
                   count(c64, true).c_str(), paper.c_str());
      first = false;
    }
  }
  std::fprintf(out,
               "paper: Table 1's totals divided by the operations behind them (512 SHA-256 messages; 256 threads x "
               "512 AES blocks)\n\n");
}

void print_speedups(std::FILE* out, const SeedTable& t) {
  std::fprintf(out,
               "Figures 2-4: speed-up in modelled cycles over software (software-naive for SHA, software-table for "
               "AES: the paper's \"Software\")\n");
  std::fprintf(out, "%-9s %-34s %-15s %7s %7s %7s\n", "", "Workload", "Configuration", "RV32", "RV64", "paper");
  std::string last_figure;
  for (const TableWorkload& w : t.workloads) {
    bool first = true;
    for (const std::string& v : t.variants(w.id)) {
      if (v == w.baseline) continue;
      const auto paper = seed000::speedup(w.id, v);
      const bool new_figure = first && w.figure != last_figure;
      last_figure = w.figure;
      std::fprintf(out, "%-9s %-34s %-15s %7s %7s %7s\n", new_figure ? w.figure.c_str() : "", first ? w.label.c_str() : "",
                   v.c_str(), ratio(t.cell(w.id, v, 32)).c_str(), ratio(t.cell(w.id, v, 64)).c_str(),
                   paper ? fixed(*paper, 2).c_str() : "-");
      first = false;
    }
  }
  std::fprintf(out,
               "paper: cycle ratios of Table 1 (= the speed-ups quoted in Sections 5.1 and 5.3); Figure 3's values are "
               "not given in the text. Our native is the paper's \"Native+Hybrid\" for key expansion.\n\n");
}

void print_simt(std::FILE* out, const SeedTable& t) {
  const SimtConfig& s = t.simt;
  std::fprintf(out, "SIMT throughput estimate (RV32, as Vortex): %u cores x %u warps x %u threads = %u threads at %g MHz\n",
               s.cores, s.warps, s.threads, s.cores * s.warps * s.threads, s.clock_mhz);
  std::fprintf(out, "model: %s\n", simt_model_text().c_str());
  std::fprintf(out, "%-34s %-15s %13s %-8s %14s %11s %9s\n", "Workload", "Configuration", "cycles/round", "bound",
               "operations/s", "MB/s", "speed-up");
  for (const TableWorkload& w : t.workloads) {
    const TableCell* base = t.cell(w.id, w.baseline, 32);
    bool first = true;
    for (const std::string& v : t.variants(w.id)) {
      const TableCell* c = t.cell(w.id, v, 32);
      if (c == nullptr || !c->run.ok()) continue;
      std::string speedup = "-";
      if (base != nullptr && base->run.ok() && c->simt.operations_per_second > 0 && base->simt.operations_per_second > 0)
        speedup = fixed(c->simt.operations_per_second / base->simt.operations_per_second, 2);
      std::fprintf(out, "%-34s %-15s %13.0f %-8s %14.4g %11s %9s\n", first ? w.label.c_str() : "", v.c_str(),
                   c->simt.cycles_per_round, c->simt.issue_bound ? "issue" : "latency",
                   c->simt.operations_per_second,
                   c->run.input.payload_bytes > 0 ? fixed(c->simt.bytes_per_second / 1e6, 1).c_str() : "-",
                   speedup.c_str());
      first = false;
    }
  }
  const TableCell* fast = t.cell("aes-ctr-encrypt", "native", 32);
  const TableCell* slow = t.cell("aes-ctr-encrypt", "software-table", 32);
  if (fast != nullptr && slow != nullptr && fast->run.ok() && slow->run.ok()) {
    std::fprintf(out,
                 "\nTable 3 analogue: AES-256 CTR encryption on N native cores over %u software-table cores, same "
                 "clock (paper: at 192 MHz)\n",
                 s.cores);
    std::fprintf(out, "%5s %8s %8s\n", "cores", "ours", "paper");
    for (unsigned n = 1; n <= s.cores; ++n) {
      const bool paper = s.cores == seed000::kCores && n <= std::size(seed000::kTable3);
      std::fprintf(out, "%5u %8.2f %8s\n", n, simt_core_speedup(s, n, fast->simt, slow->simt),
                   paper ? fixed(seed000::kTable3[n - 1].at_192_mhz, 2).c_str() : "-");
    }
  }
}

}  // namespace

void print_seed000(std::FILE* out, const SeedTable& t) {
  std::fprintf(out,
               "Seed 000 on cryptaccel's RISC-V simulator: Adams et al., \"Cryptography Acceleration in a RISC-V "
               "GPGPU\"\n");
  std::fprintf(out, "kernels: %s -O2 (%s); cycle model: %s\n", t.compiler.empty() ? "clang" : t.compiler.c_str(),
               t.manifest_path.c_str(), cycle_model_text(t).c_str());
  std::fprintf(out, "%zu runs in %.1f s; every output %s\n\n", t.cells.size(), t.seconds,
               t.vs_spike ? "checked against the ref engine, and output and region instret against Spike"
                          : "checked against the ref engine");
  print_table1(out, t);
  print_speedups(out, t);
  print_simt(out, t);
  if (!t.ok()) {
    std::fprintf(out, "\n%zu check(s) FAILED (see stderr)\n", t.problems.size());
  }
}

}  // namespace cryptaccel::cli::rvlab

#include "rv_seed001_table.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>

#include "cryptaccel/bench/machine.hpp"
#include "rv_seed001_paper.hpp"

namespace cryptaccel::cli::rvlab {
namespace {

namespace rv = cryptaccel::rv;

double ratio(std::uint64_t a, std::uint64_t b) { return b != 0 ? static_cast<double>(a) / static_cast<double>(b) : 0; }

/// "12 345" style grouping for the printed table.
std::string grouped(double v) {
  if (v < 0) return "-";
  std::string digits = std::to_string(static_cast<unsigned long long>(v + 0.5));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ' ';
    out += digits[i];
  }
  return out;
}

}  // namespace

const Seed001Cell* Seed001Table::cell(const std::string& row, const std::string& variant) const {
  for (const Seed001Cell& c : cells)
    if (c.row->id == row && c.run.entry.variant == variant) return &c;
  return nullptr;
}

std::vector<Seed001Row> seed001_rows(const Manifest& m) {
  std::vector<Seed001Row> rows;
  for (const char* kernel : {"aes128", "aes256", "sm4"}) {
    const KernelSpec* k = m.kernel(kernel);
    if (k == nullptr) throw std::runtime_error("the kernel manifest " + m.path + " has no kernel " + kernel);
    for (const bool decrypt : {false, true}) {
      WorkloadRequest r;
      r.mode = "ecb";
      r.decrypt = decrypt;
      r.blocks = 1;
      const std::string dir = decrypt ? "dec" : "enc";
      rows.push_back({std::string(kernel) + "-" + dir + "-block",
                      k->algorithm + (decrypt ? " decrypt" : " encrypt") + ", 1 block", kernel, r});
    }
  }
  for (const char* kernel : {"sha256", "sha512", "sm3"}) {
    const KernelSpec* k = m.kernel(kernel);
    if (k == nullptr) throw std::runtime_error("the kernel manifest " + m.path + " has no kernel " + kernel);
    WorkloadRequest r;
    r.bytes = 1024;
    rows.push_back({std::string(kernel) + "-1k", k->algorithm + ", 1024 bytes", kernel, r});
  }
  return rows;
}

Seed001Table run_seed001(const Manifest& m, const RunOptions& options, bool cycle_model_default, std::uint64_t seed) {
  Seed001Table t;
  t.manifest_path = m.path;
  t.compiler = m.compiler;
  t.cycle_model = options.cycle_model;
  t.cycle_model_default = cycle_model_default;
  t.vs_spike = !options.spike.empty();
  t.seed = seed;
  t.rows = seed001_rows(m);
  std::mt19937_64 rng(seed);
  const auto start = std::chrono::steady_clock::now();
  for (const Seed001Row& row : t.rows) {
    const KernelSpec& spec = *m.kernel(row.kernel);
    const KernelInput input = make_input(spec, row.request, rng);  // the same bytes for every variant
    for (const char* variant : kSeed001Variants) {
      const auto found = std::find_if(m.entries.begin(), m.entries.end(), [&](const ManifestEntry& e) {
        return e.kernel == row.kernel && e.variant == variant && e.xlen == 64;
      });
      if (found == m.entries.end()) continue;
      if (!found->built) {
        t.problems.push_back(row.kernel + " " + variant + " rv64: ELF not built (" + found->elf + ")");
        continue;
      }
      Seed001Cell cell;
      cell.row = &row;
      cell.run = run_kernel(*found, input, options);
      if (cell.run.vlen != 0) t.vlen = cell.run.vlen;
      for (const std::string& p : cell.run.problems) {
        t.problems.push_back(row.kernel + " " + variant + " rv64 (" + row.label + "): " + p);
      }
      t.cells.push_back(std::move(cell));
    }
  }
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

void print_seed001(std::FILE* out, const Seed001Table& t) {
  std::fprintf(out,
               "Seed 001 (Marian: Zvk on CVA6 + Ara2) on cryptaccel's RISC-V simulator: RV64, VLEN %u, "
               "measured-region counts\n",
               t.vlen);
  std::fprintf(out, "%-28s %10s %10s %8s %8s %7s %7s %9s | %10s %10s %8s %8s %7s %7s\n", "", "reference", "", "zvk", "",
               "speed-", "up", "native", "paper ref", "", "zvk", "", "speed-", "up");
  std::fprintf(out, "%-28s %10s %10s %8s %8s %7s %7s %9s | %10s %10s %8s %8s %7s %7s\n", "operation", "cycles",
               "instret", "cycles", "instret", "cycles", "instr", "instret", "cycles", "instret", "cycles", "instret",
               "cycles", "instr");
  for (const Seed001Row& row : t.rows) {
    const Seed001Cell* ref = t.cell(row.id, "reference");
    const Seed001Cell* zvk = t.cell(row.id, "zvk");
    const Seed001Cell* nat = t.cell(row.id, "native");
    auto counts = [](const Seed001Cell* c, bool cycles) -> double {
      if (c == nullptr || !c->run.result.exited() || c->run.result.exit_code != 0) return -1;
      return static_cast<double>(cycles ? c->run.result.region.cycles : c->run.result.region.instret);
    };
    const double rc = counts(ref, true), ri = counts(ref, false), zc = counts(zvk, true), zi = counts(zvk, false);
    const seed001::PaperRow* p = seed001::row(row.id);
    auto speed = [](double a, double b) { return a > 0 && b > 0 ? a / b : 0.0; };
    std::fprintf(out, "%-28s %10s %10s %8s %8s %6.1fx %6.1fx %9s | %10s %10s %8s %8s %6.1fx %6.1fx\n", row.label.c_str(),
                 grouped(rc).c_str(), grouped(ri).c_str(), grouped(zc).c_str(), grouped(zi).c_str(), speed(rc, zc),
                 speed(ri, zi), grouped(counts(nat, false)).c_str(), p ? grouped(p->reference_cycles).c_str() : "-",
                 p ? grouped(p->reference_instret).c_str() : "-", p ? grouped(p->zvk_cycles).c_str() : "-",
                 p ? grouped(p->zvk_instret).c_str() : "-", p ? speed(p->reference_cycles, p->zvk_cycles) : 0.0,
                 p ? speed(p->reference_instret, p->zvk_instret) : 0.0);
  }
  std::fprintf(out, "zvk instret vs the paper's:");
  for (const Seed001Row& row : t.rows) {
    const Seed001Cell* zvk = t.cell(row.id, "zvk");
    const seed001::PaperRow* p = seed001::row(row.id);
    if (zvk == nullptr || p == nullptr || !zvk->run.ok()) continue;
    std::fprintf(out, " %s %+.0f%%", row.id.c_str(),
                 100.0 * (static_cast<double>(zvk->run.result.region.instret) / p->zvk_instret - 1.0));
  }
  std::fprintf(out, "\n");
  if (t.vs_spike) {
    std::fprintf(out, "Spike (--vs spike): region instret of every run compared;");
    for (const Seed001Cell& c : t.cells) {
      if (c.run.spike && c.run.spike->instret) {
        std::fprintf(out, " %s/%s %llu", c.row->id.c_str(), c.run.entry.variant.c_str(),
                     static_cast<unsigned long long>(*c.run.spike->instret));
      }
    }
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "%zu runs in %.2f s%s\n", t.cells.size(), t.seconds,
               t.ok() ? ", all outputs equal to the ref engine's" : "; PROBLEMS below");
}

Json seed001_json(const Seed001Table& t) {
  const Json model = cycle_model_json(t.cycle_model);

  Json rows = Json::array();
  for (const Seed001Row& row : t.rows) {
    Json runs = Json::object();
    for (const char* variant : kSeed001Variants) {
      if (const Seed001Cell* c = t.cell(row.id, variant)) runs[variant] = run_json(c->run);
    }
    Json j = {{"id", row.id}, {"label", row.label}, {"kernel", row.kernel}, {"runs", runs}};
    const Seed001Cell* ref = t.cell(row.id, "reference");
    const Seed001Cell* zvk = t.cell(row.id, "zvk");
    if (ref != nullptr && zvk != nullptr && ref->run.ok() && zvk->run.ok()) {
      const rv::Counts& a = ref->run.result.region;
      const rv::Counts& b = zvk->run.result.region;
      j["speedup_cycles"] = ratio(a.cycles, b.cycles);
      j["speedup_instret"] = ratio(a.instret, b.instret);
    } else {
      j["speedup_cycles"] = nullptr;
      j["speedup_instret"] = nullptr;
    }
    const seed001::PaperRow* p = seed001::row(row.id);
    if (p != nullptr) {
      j["paper"] = {{"operation", p->operation},
                    {"reference_cycles", p->reference_cycles},
                    {"reference_instret", p->reference_instret},
                    {"zvk_cycles", p->zvk_cycles},
                    {"zvk_instret", p->zvk_instret},
                    {"speedup_cycles", p->reference_cycles / p->zvk_cycles},
                    {"speedup_instret", p->reference_instret / p->zvk_instret}};
      j["zvk_instret_vs_paper"] =
          zvk != nullptr && zvk->run.ok()
              ? Json(static_cast<double>(zvk->run.result.region.instret) / p->zvk_instret)
              : Json(nullptr);
    }
    rows.push_back(std::move(j));
  }
  Json spike_note = t.vs_spike ? Json("every run also on Spike (--isa with _zvl<VLEN>b): output and region instret "
                                      "compared")
                               : Json(nullptr);
  return {{"table", "seed001"},
          {"title", "Seed 001 (Szymkowiak, Isufi, Saarinen: Marian, Zvk on CVA6 + Ara2) on cryptaccel's RISC-V "
                    "simulator"},
          {"timestamp", bench::utc_timestamp()},
          {"machine", Json::parse(bench::machine_json())},
          {"build", Json::parse(bench::build_json())},
          {"manifest", t.manifest_path},
          {"kernel_compiler", t.compiler},
          {"xlen", 64},
          {"vlen", t.vlen},
          {"cycle_model", model},
          {"cycle_model_default", t.cycle_model_default},
          {"spike", spike_note},
          {"seed", t.seed},
          {"seconds", t.seconds},
          {"rows", rows},
          {"paper", seed001::paper_json()},
          {"ok", t.ok()},
          {"problems", t.problems}};
}

}  // namespace cryptaccel::cli::rvlab

// `cryptaccel rv table seed004`: the text report (Tables II and III beside ours, the ablations, the published
// reference designs) and the JSON document.
#include <cstdio>
#include <string>

#include "cryptaccel/bench/machine.hpp"
#include "rv_seed004_paper.hpp"
#include "rv_seed004_table.hpp"

namespace cryptaccel::cli::rvlab {
namespace {

namespace rv = cryptaccel::rv;

std::string fixed(const std::optional<double>& v, int decimals) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
  return buf;
}

std::string paper_figure(double v, int decimals) {
  return v == seed004::kNone ? "-" : fixed(v, decimals);
}

/// What a row shows instead of numbers when it has none.
std::string numbers_or_status(const Seed004Row& r, const std::optional<double>& v, int decimals) {
  if (r.status == "ok") return fixed(v, decimals);
  return r.status == "missing" ? "missing" : r.status == "not run" ? "not run" : "FAILED";
}

std::optional<double> pass_cycles(const Seed004Row& r) {
  if (r.status != "ok") return std::nullopt;
  return static_cast<double>(r.full->result.region.cycles);
}

Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }


constexpr const char* kModelNote =
    "scalar rows (reference, hybrid) run with the default cycle model (an in-order single-issue core; no vector "
    "unit); the vector rows (rvv, xkeccak*) with the seed004 preset: seed 004's SIMD processor, one vector "
    "instruction at a time (vector-blocking 1), a whole register per beat (vector-lanes 0), so each vector "
    "instruction costs 1 + ceil(VL/EleNum) cycles (vpi 2 + ...), Table I's latencies; --cycle-model applies to both";

void print_main(std::FILE* out, const Seed004Table& t) {
  std::fprintf(out, "%-40s %4s %5s %2s %-7s %9s %8s %9s %8s %10s | %7s %8s %10s %7s\n", "configuration", "XLEN",
               "VLEN", "SN", "model", "instr/rnd", "cyc/rnd", "cyc/pass", "cyc/byte", "bits/cycle", "cyc/rnd",
               "cyc/byte", "bits/cycle", "slices");
  for (const Seed004Row& r : t.rows) {
    const Seed004Config& c = r.config;
    if (!c.replaced.empty()) continue;
    const seed004::PaperRow* p = c.paper_id.empty() ? nullptr : seed004::row(c.paper_id);
    const std::string label = c.label + " (" + c.variant + ")";
    std::fprintf(out, "%-40s %4s %5s %2u %-7s %9s %8s %9s %8s %10s | %7s %8s %10s %7s\n", label.c_str(),
                 r.xlen ? std::to_string(r.xlen).c_str() : "-", c.vlen ? std::to_string(c.vlen).c_str() : "-", c.sn,
                 c.seed004_timing ? "seed004" : "default", numbers_or_status(r, r.instructions_per_round, 1).c_str(),
                 numbers_or_status(r, r.cycles_per_round, 1).c_str(), fixed(pass_cycles(r), 0).c_str(),
                 fixed(r.cycles_per_byte, 2).c_str(), fixed(r.bits_per_cycle, 4).c_str(),
                 p ? paper_figure(p->cycles_per_round, 0).c_str() : "",
                 p ? paper_figure(p->cycles_per_byte, 1).c_str() : "",
                 p ? paper_figure(p->bits_per_cycle, 4).c_str() : "", p ? paper_figure(p->slices, 0).c_str() : "");
  }
}

void print_ablations(std::FILE* out, const Seed004Table& t) {
  std::fprintf(out,
               "\nWhat each custom instruction buys: xkeccak64-lmul8 (VLEN 320/960/1920) with one replaced by standard "
               "RVV/Zvkb code, seed004 timing; cyc/rnd and its ratio to the full custom kernel's\n");
  std::fprintf(out, "%-28s %-40s %9s %8s %8s %8s %8s %8s %8s\n", "variant", "replaced", "instr/rnd", "SN 1", "x full",
               "SN 3", "x full", "SN 6", "x full");
  std::string shown;
  for (const Seed004Row& r : t.rows) {
    const Seed004Config& c = r.config;
    if (c.replaced.empty() || c.group == shown) continue;
    shown = c.group;
    std::string cells;
    for (const Seed004Row& s : t.rows) {
      if (s.config.group != c.group) continue;
      char buf[64];
      std::snprintf(buf, sizeof buf, " %8s %8s", numbers_or_status(s, s.cycles_per_round, 1).c_str(),
                    s.ratio_to_full ? (fixed(s.ratio_to_full, 2) + "x").c_str() : "-");
      cells += buf;
    }
    std::fprintf(out, "%-28s %-40s %9s%s\n", c.variant.c_str(), c.replaced.c_str(),
                 numbers_or_status(r, r.instructions_per_round, 1).c_str(), cells.c_str());
  }
}

void print_references(std::FILE* out) {
  std::fprintf(out, "\nPublished reference designs (Tables II and III, as published; not run here)\n");
  std::fprintf(out, "%-26s %5s %7s %8s %11s %7s %13s\n", "implementation", "table", "cyc/rnd", "cyc/byte",
               "bits/cycle", "slices", "bits/(cyc*sl)");
  for (const seed004::PaperRow& p : seed004::kRows) {
    if (p.sn != 0 && p.id != "vector-ext-15") continue;
    char tput[32];
    std::snprintf(tput, sizeof tput, "%.3g", p.bits_per_cycle_slice);
    std::fprintf(out, "%-26s %5s %7s %8s %11s %7s %13s\n", std::string(p.implementation).c_str(),
                 std::string(p.table).c_str(), paper_figure(p.cycles_per_round, 1).c_str(),
                 paper_figure(p.cycles_per_byte, 1).c_str(), paper_figure(p.bits_per_cycle, 5).c_str(),
                 paper_figure(p.slices, 0).c_str(), p.bits_per_cycle_slice == seed004::kNone ? "-" : tput);
  }
  for (const seed004::PaperRow& p : seed004::kRows) {
    if (p.note.empty()) continue;
    std::fprintf(out, "  %s: %s\n", std::string(p.implementation).c_str(), std::string(p.note).c_str());
  }
}

}  // namespace

void print_seed004(std::FILE* out, const Seed004Table& t) {
  std::fprintf(out,
               "Seed 004 (custom Keccak vector instructions, DATE 2023) on cryptaccel's RISC-V simulator: "
               "Keccak-f[1600] on SN states\n"
               "one pass = load, 24 rounds, store of SN states (the measured region); cyc/byte = cyc/pass / 200, "
               "bits/cycle = SN * 1600 / cyc/pass,\ncyc/rnd and instr/rnd = (count(24 rounds) - count(last 12 rounds, "
               "Keccak-p)) / 12\n");
  std::fprintf(out, "timing: scalar rows the default model, vector rows the seed004 preset (%s)%s\n\n",
               t.preset_path.c_str(), t.overrides_path.empty() ? "" : (", both with " + t.overrides_path).c_str());
  std::fprintf(out, "%-40s %-52s | %s\n", "", "ours", "paper");
  print_main(out, t);
  print_ablations(out, t);
  print_references(out);
  std::size_t runs = 0;
  for (const Seed004Row& r : t.rows) runs += (r.full ? 1 : 0) + (r.half ? 1 : 0);
  std::fprintf(out, "\n%zu runs in %.2f s%s%s\n", runs, t.seconds,
               t.vs_spike ? " (rows without custom instructions also on Spike)" : "",
               t.ok() ? ", all outputs equal to the ref engine's" : "; PROBLEMS below");
}

Json seed004_json(const Seed004Table& t) {
  Json rows = Json::array();
  for (const Seed004Row& r : t.rows) {
    const Seed004Config& c = r.config;
    Json runs = Json::object();
    if (r.full) runs[std::to_string(kSeed004Rounds)] = run_json(*r.full);
    if (r.half) runs[std::to_string(kSeed004HalfRounds)] = run_json(*r.half);
    Json j = {{"id", c.id},
              {"group", c.group},
              {"label", c.label},
              {"kernel", kSeed004Kernel},
              {"variant", c.variant},
              {"xlen", r.xlen ? Json(r.xlen) : Json(nullptr)},
              {"vlen", c.vlen ? Json(c.vlen) : Json(nullptr)},
              {"sn", c.sn},
              {"elen", c.elen},
              {"lmul", c.lmul ? Json(c.lmul) : Json(nullptr)},
              {"cycle_model", c.seed004_timing ? "seed004" : "default"},
              {"status", r.status},
              {"runs", runs}};
    const std::optional<double> pass = pass_cycles(r);
    j["pass_cycles"] = optional_json(pass);
    j["pass_instret"] =
        r.status == "ok" ? Json(r.full->result.region.instret) : Json(nullptr);
    j["cycles_per_round"] = optional_json(r.cycles_per_round);
    j["instructions_per_round"] = optional_json(r.instructions_per_round);
    j["cycles_per_byte"] = optional_json(r.cycles_per_byte);
    j["bits_per_cycle"] = optional_json(r.bits_per_cycle);
    j["outside_rounds_cycles"] =
        pass && r.cycles_per_round ? Json(*pass - kSeed004Rounds * *r.cycles_per_round) : Json(nullptr);
    const seed004::PaperRow* p = c.paper_id.empty() ? nullptr : seed004::row(c.paper_id);
    if (p != nullptr) {
      j["paper_id"] = c.paper_id;
      Json vs = Json::object();
      const std::pair<const char*, std::pair<std::optional<double>, double>> pairs[] = {
          {"cycles_per_round", {r.cycles_per_round, p->cycles_per_round}},
          {"cycles_per_byte", {r.cycles_per_byte, p->cycles_per_byte}},
          {"bits_per_cycle", {r.bits_per_cycle, p->bits_per_cycle}}};
      for (const auto& [key, v] : pairs) {
        vs[key] = v.first && v.second > 0 ? Json(*v.first / v.second) : Json(nullptr);
      }
      j["vs_paper"] = vs;
    } else {
      j["paper_id"] = nullptr;
    }
    if (!c.replaced.empty()) {
      j["replaced"] = c.replaced;
      j["full_id"] = c.full_id;
      j["ratio_to_full"] = optional_json(r.ratio_to_full);
    }
    j["ok"] = r.status == "ok";
    j["problems"] = r.problems;
    rows.push_back(std::move(j));
  }
  Json model = {{"note", kModelNote},
                {"scalar_rows", cycle_model_json(t.scalar_model)},
                {"vector_rows", t.vector_model ? cycle_model_json(*t.vector_model) : Json(nullptr)},
                {"preset", t.preset_path},
                {"preset_keys", t.preset},
                {"overrides", t.overrides_path.empty() ? Json(nullptr) : Json(t.overrides_path)}};
  return {{"table", "seed004"},
          {"title", "Seed 004 (custom RISC-V vector instructions for Keccak-f[1600], DATE 2023) on cryptaccel's "
                    "RISC-V simulator"},
          {"timestamp", bench::utc_timestamp()},
          {"machine", Json::parse(bench::machine_json())},
          {"build", Json::parse(bench::build_json())},
          {"manifest", t.manifest_path},
          {"kernel_compiler", t.compiler},
          {"kernel", kSeed004Kernel},
          {"rounds", {kSeed004Rounds, kSeed004HalfRounds}},
          {"state_bytes", kKeccakStateBytes},
          {"cycle_model", model},
          {"spike", t.vs_spike ? Json("rows without custom instructions also on Spike: output and region instret "
                                      "compared")
                               : Json(nullptr)},
          {"seed", t.seed},
          {"seconds", t.seconds},
          {"rows", rows},
          {"paper", seed004::paper_json()},
          {"ok", t.ok()},
          {"problems", t.problems}};
}

}  // namespace cryptaccel::cli::rvlab

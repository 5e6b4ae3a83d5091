// `cryptaccel rv table seed004`: the configurations and their runs (rv_seed004_report.cpp prints them and writes
// the JSON).
#include "cryptaccel/file.hpp"
#include "rv_seed004_table.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace cryptaccel::cli::rvlab {
namespace {

namespace rv = cryptaccel::rv;

/// SN = 1, 3, 6 and the VLEN of each for a configuration family.
struct SnVlen {
  unsigned sn, vlen;
};
constexpr SnVlen kRvv[] = {{1, 512}, {3, 1024}, {6, 2048}};       // smallest power of two holding 5*SN lanes of 64
constexpr SnVlen kCustom64[] = {{1, 320}, {3, 960}, {6, 1920}};   // VLEN = 5*SN*64: EleNum = 5*SN
constexpr SnVlen kCustom32[] = {{1, 160}, {3, 480}, {6, 960}};    // VLEN = 5*SN*32

/// The ablations: variant suffix of xkeccak64-lmul8 and what replaces what (rv/kernels/keccak/keccak_x64.h).
struct Ablation {
  const char* suffix;
  const char* replaced;
};
constexpr Ablation kAblations[] = {
    {"no-vrotup", "vrotup -> vror.vi (Zvkb)"},
    {"no-v64rho", "v64rho -> vror.vv by rho amounts (Zvkb)"},
    {"no-vslidem", "vslide*m -> vrgatherei16.vv"},
    {"no-vpi", "vpi -> vrgatherei16.vv on the group"},
    {"no-viota", "viota -> ld RC + masked vxor.vx"},
    {"vandn", "chi's vnot + vand -> vandn.vv (Zvkb)"},
};

std::string read_file(const std::string& path) {
  const bytes data = read_whole_file(path);
  return std::string(data.begin(), data.end());
}

/// The runnable entry of `variant` for the first XLEN of `xlens` the manifest has, or nullptr.
const ManifestEntry* find_entry(const Manifest& m, const std::string& variant, const std::vector<unsigned>& xlens) {
  for (const unsigned x : xlens) {
    for (const ManifestEntry& e : m.entries)
      if (e.kernel == kSeed004Kernel && e.variant == variant && e.xlen == x) return &e;
  }
  return nullptr;
}

bool custom_isa(const ManifestEntry& e) { return e.isa.find("xkeccak") != std::string::npos; }

/// The input of `sn` states for `rounds` rounds; the states depend only on (seed, sn), so the 24- and 12-round runs
/// and every configuration with the same SN permute the same states.
KernelInput keccak_input(const KernelSpec& spec, unsigned sn, unsigned rounds, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ULL * sn));
  WorkloadRequest r;
  r.states = sn;
  r.rounds = rounds;
  return make_input(spec, r, rng);
}

/// Derived figures from the two runs (both checked and clean).
void derive(Seed004Row& row) {
  const rv::Counts& a = row.full->result.region;
  const rv::Counts& b = row.half->result.region;
  const unsigned d = kSeed004Rounds - kSeed004HalfRounds;
  row.cycles_per_round = (static_cast<double>(a.cycles) - static_cast<double>(b.cycles)) / d;
  row.instructions_per_round = (static_cast<double>(a.instret) - static_cast<double>(b.instret)) / d;
  row.cycles_per_byte = static_cast<double>(a.cycles) / kKeccakStateBytes;
  row.bits_per_cycle = a.cycles != 0 ? row.config.sn * 1600.0 / static_cast<double>(a.cycles) : 0.0;
}

}  // namespace

std::vector<Seed004Config> seed004_configs() {
  std::vector<Seed004Config> c;
  c.push_back({"scalar-rv64", "scalar-rv64", "scalar RV64I", "reference", {64}, 0, 1, 64, 0, false, "", "", ""});
  c.push_back({"zbb-rv64", "zbb-rv64", "RV64 Zbb/Zbkb rotates", "hybrid", {64}, 0, 1, 64, 0, false, "", "", ""});
  c.push_back({"scalar-rv32", "scalar-rv32", "RV32I bit-interleaved", "reference", {32}, 0, 1, 32, 0, false, "", "",
               ""});
  c.push_back({"zbb-rv32", "zbb-rv32", "RV32 Zbb/Zbkb bit-interleaved", "hybrid", {32}, 0, 1, 32, 0, false, "", "",
               ""});
  for (const SnVlen& s : kRvv) {
    const std::string sn = std::to_string(s.sn);
    c.push_back({"rvv-sn" + sn, "rvv", "standard RVV", "rvv", {64}, s.vlen, s.sn, 64, 0, true,
                 s.sn == 1 ? "vector-ext-15" : "", "", ""});
  }
  const struct {
    const char* group;
    const char* label;
    const char* variant;
    std::vector<unsigned> xlens;
    const SnVlen* vlens;
    unsigned elen, lmul;
  } families[] = {
      {"custom64-lmul1", "custom 64-bit LMUL 1", "xkeccak64-lmul1", {64}, kCustom64, 64, 1},
      {"custom64-lmul8", "custom 64-bit LMUL 8", "xkeccak64-lmul8", {64}, kCustom64, 64, 8},
      {"custom32-lmul8", "custom 32-bit LMUL 8", "xkeccak32-lmul8", {32, 64}, kCustom32, 32, 8},
  };
  for (const auto& f : families) {
    for (int i = 0; i < 3; ++i) {
      const std::string id = std::string(f.group) + "-sn" + std::to_string(f.vlens[i].sn);
      c.push_back({id, f.group, f.label, f.variant, f.xlens, f.vlens[i].vlen, f.vlens[i].sn, f.elen, f.lmul, true, id,
                   "", ""});
    }
  }
  for (const Ablation& a : kAblations) {
    for (const SnVlen& s : kCustom64) {
      const std::string sn = std::to_string(s.sn);
      c.push_back({"ablation-" + std::string(a.suffix) + "-sn" + sn, "ablation-" + std::string(a.suffix),
                   std::string("custom 64-bit LMUL 8, ") + a.suffix, std::string("xkeccak64-lmul8-") + a.suffix, {64},
                   s.vlen, s.sn, 64, 8, true, "", a.replaced, "custom64-lmul8-sn" + sn});
    }
  }
  return c;
}

const Seed004Row* Seed004Table::row(const std::string& id) const {
  for (const Seed004Row& r : rows)
    if (r.config.id == id) return &r;
  return nullptr;
}

std::string seed004_preset_path() {
  if (const char* env = std::getenv("CRYPTACCEL_RV_SEED004_TIMING"); env != nullptr && *env != '\0') return env;
#ifdef CRYPTACCEL_SOURCE_DIR
  return std::string(CRYPTACCEL_SOURCE_DIR) + "/rv/timing/seed004.json";
#else
  return "rv/timing/seed004.json";
#endif
}

Seed004Table run_seed004(const Manifest& m, const Seed004Settings& s) {
  Seed004Table t;
  t.manifest_path = m.path;
  t.compiler = m.compiler;
  t.overrides_path = s.overrides_path;
  t.preset_path = s.preset_path;
  t.vs_spike = !s.spike.empty();
  t.seed = s.seed;
  t.scalar_model = rv::CycleModel::defaults();
  std::string preset_problem;
  if (std::filesystem::is_regular_file(s.preset_path)) {
    const std::string text = read_file(s.preset_path);
    rv::CycleModel v = rv::CycleModel::defaults();
    try {
      v.parse(text);
      t.preset = Json::parse(text);
      t.vector_model = v;
    } catch (const std::exception& e) {
      preset_problem = "the seed004 timing preset " + s.preset_path + " is not usable: " + e.what();
    }
  } else {
    preset_problem = "the seed004 timing preset " + s.preset_path + " is missing (rv/timing/seed004.json)";
  }
  if (!s.overrides_path.empty()) {  // --cycle-model applies to both models, after the preset
    t.scalar_model.load_file(s.overrides_path);
    if (t.vector_model) t.vector_model->load_file(s.overrides_path);
  }

  const KernelSpec* spec = m.kernel(kSeed004Kernel);
  const auto start = std::chrono::steady_clock::now();
  std::map<std::pair<unsigned, unsigned>, KernelInput> inputs;  // (sn, rounds) -> input
  for (const Seed004Config& config : seed004_configs()) {
    Seed004Row row;
    row.config = config;
    const ManifestEntry* entry = spec != nullptr ? find_entry(m, config.variant, config.xlens) : nullptr;
    if (spec == nullptr) {
      row.status = "missing";
      row.problems.push_back(std::string("the kernel manifest has no kernel ") + kSeed004Kernel +
                             " (rv/kernels/keccak not built yet)");
    } else if (entry == nullptr) {
      row.status = "missing";
      row.problems.push_back(std::string(kSeed004Kernel) + " has no variant " + config.variant + " in the manifest");
    } else if (!entry->built) {
      row.status = "missing";
      row.problems.push_back(config.variant + " rv" + std::to_string(entry->xlen) + ": ELF not built (" + entry->elf +
                             ")");
    } else if (config.seed004_timing && !t.vector_model) {
      row.status = "not run";
      row.problems.push_back(preset_problem);
    } else if (config.vlen != 0 && !entry->vector()) {
      row.status = "failed";
      row.problems.push_back(config.variant + " has no VLEN in the manifest (kernels.json: vlens, default_vlen)");
    }
    if (row.status.empty()) {
      row.xlen = entry->xlen;
      RunOptions options;
      options.check = true;
      options.vlen = config.vlen;
      options.cycle_model = config.seed004_timing ? *t.vector_model : t.scalar_model;
      if (!custom_isa(*entry)) options.spike = s.spike;  // Spike cannot run the custom instructions
      for (const unsigned rounds : {kSeed004Rounds, kSeed004HalfRounds}) {
        std::optional<KernelRun>& slot = rounds == kSeed004Rounds ? row.full : row.half;
        try {
          auto key = std::make_pair(config.sn, rounds);
          auto it = inputs.find(key);
          if (it == inputs.end()) it = inputs.emplace(key, keccak_input(*spec, config.sn, rounds, s.seed)).first;
          slot = run_kernel(*entry, it->second, options);
          for (const std::string& p : slot->problems) row.problems.push_back(std::to_string(rounds) + " rounds: " + p);
        } catch (const std::exception& e) {
          row.problems.push_back(std::to_string(rounds) + " rounds: " + e.what());
        }
      }
      row.status = row.problems.empty() && row.full && row.half ? "ok" : "failed";
      if (row.status == "ok") derive(row);
    }
    for (const std::string& p : row.problems) {
      t.problems.push_back(config.id + " (" + config.variant + (row.xlen ? " rv" + std::to_string(row.xlen) : "") +
                           (config.vlen ? ", VLEN " + std::to_string(config.vlen) : "") + "): " + p);
    }
    t.rows.push_back(std::move(row));
  }
  for (Seed004Row& row : t.rows) {
    if (row.config.full_id.empty() || !row.cycles_per_round) continue;
    const Seed004Row* full = t.row(row.config.full_id);
    if (full != nullptr && full->cycles_per_round && *full->cycles_per_round > 0) {
      row.ratio_to_full = *row.cycles_per_round / *full->cycles_per_round;
    }
  }
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

}  // namespace cryptaccel::cli::rvlab

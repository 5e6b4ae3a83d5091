// The one experiment runner: every row x variant x XLEN x run of an experiment data file, checked.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>
#include <utility>

#include "cryptaccel/file.hpp"
#include "cryptaccel/rvlab/experiment.hpp"
#include "layouts.hpp"

namespace cryptaccel::rvlab {
namespace {

namespace rv = cryptaccel::rv;

bool has_option(const Experiment& e, const char* option) {
  return std::find(e.options.begin(), e.options.end(), option) != e.options.end();
}

/// The tables that take `option` (for the message when another one is given it).
std::string tables_with(const char* option) {
  std::string out;
  for (const std::string& name : experiment_names()) {
    try {
      if (has_option(load_experiment(locate_experiment(name, "")), option)) out += (out.empty() ? "" : ", ") + name;
    } catch (const std::exception&) {  // a malformed file names no option
    }
  }
  return out.empty() ? "none" : out;
}

std::uint64_t resolve(const SizeSpec& s, const KernelSpec& k) {
  if (s.value) return *s.value;
  const NamedWorkload* w = k.workload(s.workload);
  return w != nullptr ? w->size(s.key).value_or(s.fallback) : s.fallback;
}

/// `spec`'s keys over `into`.
void apply(const WorkloadSpec& spec, const KernelSpec& k, WorkloadRequest& into) {
  if (spec.mode) into.mode = *spec.mode;
  if (spec.decrypt) into.decrypt = *spec.decrypt;
  if (spec.bytes) into.bytes = resolve(*spec.bytes, k);
  if (spec.blocks) into.blocks = resolve(*spec.blocks, k);
  if (spec.states) into.states = resolve(*spec.states, k);
  if (spec.rounds) into.rounds = resolve(*spec.rounds, k);
  if (spec.outlen) into.outlen = resolve(*spec.outlen, k);
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

/// The label with {algorithm}, {bytes}, {blocks}, {states} filled in.
std::string fill_label(std::string label, const KernelSpec* k, const WorkloadRequest& r) {
  if (k != nullptr) replace_all(label, "{algorithm}", k->algorithm);
  const std::pair<const char*, std::optional<std::uint64_t>> sizes[] = {
      {"{bytes}", r.bytes}, {"{blocks}", r.blocks}, {"{states}", r.states}};
  for (const auto& [key, v] : sizes)
    if (v) replace_all(label, key, std::to_string(*v));
  return label;
}

/// Custom (x*) extensions are the simulator's own: Spike cannot run them.
bool spike_can_run(const ManifestEntry& e) { return e.isa.find("_x") == std::string::npos; }

TimingPreset load_preset(const std::string& name, const std::string& overrides) {
  TimingPreset p;
  p.name = name;
  p.path = locate_timing_preset(name);
  if (std::filesystem::is_regular_file(p.path)) {
    const bytes data = read_whole_file(p.path);
    const std::string text(data.begin(), data.end());
    rv::CycleModel v = rv::CycleModel::defaults();
    try {
      v.parse(text);
      p.json = text;
      p.model = v;
    } catch (const std::exception& e) {
      p.problem = "the " + name + " timing preset " + p.path + " is not usable: " + e.what();
    }
  } else {
    p.problem = "the " + name + " timing preset " + p.path + " is missing (rv/timing/" + name + ".json)";
  }
  if (p.model && !overrides.empty()) p.model->load_file(overrides);  // overrides apply after the preset
  return p;
}

/// Inputs of the "by-states" kind: they depend only on (seed, states), so every cell and run with the same states
/// and rounds permutes the same states.
class StatesInputs {
 public:
  explicit StatesInputs(std::uint64_t seed) : seed_(seed) {}
  const KernelInput& get(const KernelSpec& spec, const WorkloadRequest& r) {
    const auto key = std::make_pair(r.states.value_or(0), r.rounds.value_or(0));
    auto it = inputs_.find(key);
    if (it == inputs_.end()) {
      std::mt19937_64 rng(seed_ ^ (0x9e3779b97f4a7c15ULL * key.first));
      it = inputs_.emplace(key, make_input(spec, r, rng)).first;
    }
    return it->second;
  }

 private:
  std::uint64_t seed_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, KernelInput> inputs_;
};

}  // namespace

const ExperimentCell* ExperimentResult::cell(const std::string& id, const std::string& variant, unsigned xlen) const {
  for (const ExperimentCell& c : cells)
    if (rows[c.row].id == id && c.variant == variant && (xlen == 0 || c.xlen == xlen)) return &c;
  return nullptr;
}

const ExperimentRow* ExperimentResult::row(const std::string& id) const {
  for (const ExperimentRow& r : rows)
    if (r.id == id) return &r;
  return nullptr;
}

const TimingPreset* ExperimentResult::preset(const std::string& name) const {
  for (const TimingPreset& p : presets)
    if (p.name == name) return &p;
  return nullptr;
}

void check_settings(const Experiment& e, const ExperimentSettings& s) {
  if (s.vlen) {
    if (!has_option(e, "vlen")) {
      const bool own_vlens = std::any_of(e.rows.begin(), e.rows.end(), [](const ExperimentRow& r) { return r.vlen != 0; });
      throw std::invalid_argument("--vlen applies to the " + tables_with("vlen") + " table" +
                                  (own_vlens ? "; " + e.name + " runs each row at its own VLEN" : " (vector kernels)"));
    }
    const unsigned v = *s.vlen;
    if (v < 128 || v > 4096 || (v & (v - 1)) != 0) {
      throw std::invalid_argument("--vlen must be a power of two from 128 to 4096, got " + std::to_string(v));
    }
  }
  if (has_option(e, "simt")) {
    const SimtConfig& c = s.simt;
    if (c.cores == 0 || c.warps == 0 || c.threads == 0) {
      throw std::invalid_argument("--cores, --warps and --threads must be at least 1");
    }
    if (c.cores > 4096 || c.warps > 1024 || c.threads > 1024) {
      throw std::invalid_argument("--cores at most 4096, --warps and --threads at most 1024");
    }
    if (!std::isfinite(c.clock_mhz) || c.clock_mhz <= 0 || c.clock_mhz > 1e6) {
      throw std::invalid_argument("--clock-mhz must be more than 0 (MHz)");
    }
  }
}

ExperimentResult run_experiment(const Experiment& e, const Manifest& m, const ExperimentSettings& s) {
  check_settings(e, s);
  const Layout& layout = *find_layout(e.layout);
  ExperimentResult t;
  t.experiment = e;
  t.manifest_path = m.path;
  t.compiler = m.compiler;
  t.settings = s;
  if (!s.cycle_model_file.empty()) t.default_model.load_file(s.cycle_model_file);
  for (const ExperimentRow& row : e.rows) {
    if (!row.timing.empty() && t.preset(row.timing) == nullptr) {
      t.presets.push_back(load_preset(row.timing, s.cycle_model_file));
    }
  }

  std::mt19937_64 rng(s.seed);
  StatesInputs by_states(s.seed);
  const auto start = std::chrono::steady_clock::now();
  for (const ExperimentRow& written : e.rows) {
    const KernelSpec* spec = m.kernel(written.kernel);
    if (spec == nullptr && e.missing_is_error) {
      if (written.optional) continue;
      throw std::runtime_error("the kernel manifest " + m.path + " has no kernel " + written.kernel +
                               " (needed for " + e.name + ")");
    }
    // The workload of each run: the row's, then the run's overrides.
    std::vector<WorkloadRequest> requests;
    for (const RunSpec& run : written.runs) {
      WorkloadRequest r;
      if (spec != nullptr) {
        apply(written.workload, *spec, r);
        apply(run.workload, *spec, r);
      }
      requests.push_back(r);
    }
    ExperimentRow row = written;
    row.label = fill_label(written.label, spec, requests.front());
    t.rows.push_back(row);
    t.requests.push_back(requests);
    const std::size_t row_index = t.rows.size() - 1;

    // Shared inputs: drawn now, in row order, and fed to every variant and XLEN (the counts do not depend on the
    // data, but the same bytes make the outputs comparable across variants too).
    std::vector<KernelInput> shared;
    if (spec != nullptr && e.inputs == "shared") {
      for (const WorkloadRequest& r : requests) shared.push_back(make_input(*spec, r, rng));
    }

    for (const std::string& variant : row.variants) {
      std::vector<std::pair<unsigned, const ManifestEntry*>> targets;  // (xlen, entry or nullptr)
      if (row.first_xlen) {
        const ManifestEntry* found = nullptr;
        for (const unsigned x : row.xlens)
          if (found == nullptr && spec != nullptr) found = m.find(row.kernel, variant, x);
        targets.emplace_back(found != nullptr ? found->xlen : 0, found);
      } else {
        for (const unsigned x : row.xlens) targets.emplace_back(x, spec != nullptr ? m.find(row.kernel, variant, x) : nullptr);
      }
      for (const auto& [xlen, entry] : targets) {
        if (entry == nullptr && e.missing_is_error) continue;  // not part of the table
        ExperimentCell cell;
        cell.row = row_index;
        cell.variant = variant;
        cell.xlen = row.first_xlen ? 0 : xlen;  // "first": known once it runs
        const TimingPreset* preset = row.timing.empty() ? nullptr : t.preset(row.timing);
        if (spec == nullptr) {
          cell.status = "missing";
          cell.problems.push_back("the kernel manifest has no kernel " + row.kernel + " (not built yet)");
        } else if (entry == nullptr) {
          cell.status = "missing";
          cell.problems.push_back(row.kernel + " has no variant " + variant + " in the manifest");
        } else if (!entry->built) {
          cell.status = "missing";
          cell.problems.push_back(variant + " rv" + std::to_string(entry->xlen) + ": ELF not built (" + entry->elf +
                                  ")");
        } else if (preset != nullptr && !preset->model) {
          cell.status = "not run";
          cell.problems.push_back(preset->problem);
        } else if (row.vlen != 0 && !entry->vector()) {
          cell.status = "failed";
          cell.problems.push_back(variant + " has no VLEN in the manifest (kernels.json: vlens, default_vlen)");
        }
        if (cell.status.empty()) {
          cell.xlen = entry->xlen;
          RunOptions options;
          options.check = true;
          options.vlen = row.vlen != 0 ? row.vlen : s.vlen.value_or(0);
          options.cycle_model = preset != nullptr ? *preset->model : t.default_model;
          if (spike_can_run(*entry)) options.spike = s.spike;
          for (std::size_t i = 0; i < row.runs.size(); ++i) {
            const std::string prefix = row.runs.size() > 1 ? row.runs[i].label + ": " : "";
            std::optional<KernelRun>& slot = cell.runs.emplace_back();
            try {
              const KernelInput& input = e.inputs == "shared" ? shared[i] : by_states.get(*spec, requests[i]);
              slot = run_kernel(*entry, input, options);
              for (const std::string& p : slot->problems) cell.problems.push_back(prefix + p);
            } catch (const std::exception& x) {
              cell.problems.push_back(prefix + x.what());
            }
          }
          const bool all_ran = std::all_of(cell.runs.begin(), cell.runs.end(), [](const auto& r) { return r.has_value(); });
          cell.status = cell.problems.empty() && all_ran ? "ok" : "failed";
        }
        t.cells.push_back(std::move(cell));
        const ExperimentCell& added = t.cells.back();
        for (const std::string& p : added.problems) t.problems.push_back(layout.cell_name(t, added) + ": " + p);
      }
    }
  }
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

}  // namespace cryptaccel::rvlab

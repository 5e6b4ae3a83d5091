#include "cryptaccel/rvlab/kernel_run.hpp"

#include <time.h>

#include <algorithm>
#include <charconv>
#include <utility>

#include "cryptaccel/rvlab/spike.hpp"
#include "json.hpp"

namespace cryptaccel::rvlab {
namespace {

namespace rv = cryptaccel::rv;

/// CPU time of the calling thread.
double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Byte offset of the first difference, for messages.
std::string first_difference(std::string_view got, bytes_view want) {
  const std::size_t n = std::min(got.size(), want.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<std::uint8_t>(got[i]) != want[i]) return "first difference at byte " + std::to_string(i);
  }
  return std::to_string(got.size()) + " bytes instead of " + std::to_string(want.size());
}

bool equal_bytes(std::string_view got, bytes_view want) {
  return got.size() == want.size() && std::equal(want.begin(), want.end(), got.begin(),
                                                 [](std::uint8_t a, char b) { return a == static_cast<std::uint8_t>(b); });
}

/// The last line of `text`, trimmed, for messages about failed programs.
std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const std::size_t nl = text.rfind('\n');
  std::string line = nl == std::string::npos ? text : text.substr(nl + 1);
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return line;
}

void run_on_spike(KernelRun& run, const RunOptions& options) {
  const SpikeRun s = run_spike(options.spike, run.entry.spike_isa(run.vlen), run.entry.elf, run.input.stdin_bytes);
  SpikeSide side;
  side.exit_status = s.exit_status;
  side.seconds = s.seconds;
  const std::size_t n = run.input.expected.size();
  const std::string_view out = std::string_view(s.stdout_bytes).substr(0, std::min(n, s.stdout_bytes.size()));
  // Spike prints the target's fd 2 on its stdout: the `instret N` line follows the output bytes.
  side.instret = parse_instret_line(std::string_view(s.stdout_bytes).substr(out.size()));
  side.output_equal = out == run.result.stdout_bytes;
  if (s.exit_status != 0) {
    run.problems.push_back("Spike: exit status " + std::to_string(s.exit_status) + " (" +
                           last_line(s.stderr_bytes.empty() ? s.stdout_bytes : s.stderr_bytes) + ")");
  } else {
    if (!side.output_equal) {
      run.problems.push_back("Spike's output differs from the simulator's (" +
                             first_difference(out, bytes_view(reinterpret_cast<const std::uint8_t*>(
                                                                  run.result.stdout_bytes.data()),
                                                              run.result.stdout_bytes.size())) +
                             ")");
    }
    if (!side.instret) {
      run.problems.push_back("Spike: no 'instret N' line after the output");
    } else if (*side.instret != run.result.region.instret) {
      run.problems.push_back("region instret differs: Spike " + std::to_string(*side.instret) + ", simulator " +
                             std::to_string(run.result.region.instret));
    }
  }
  run.spike = side;
}

}  // namespace

std::optional<std::uint64_t> parse_instret_line(std::string_view text) {
  static constexpr std::string_view kTag = "instret ";
  for (std::size_t at = text.find(kTag); at != std::string_view::npos; at = text.find(kTag, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    const char* first = text.data() + at + kTag.size();
    const char* last = text.data() + text.size();
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && end != first && end < last && *end == '\n') return value;
  }
  return std::nullopt;
}

std::string kernel_exit_meaning(std::int64_t status) {
  switch (status) {
    case 0: return "success";
    case 2: return "input shorter than its header says";
    case 3: return "trap";
    case 4: return "malformed header";
    case 5: return "input larger than the kernel's RAM";
    case 6: return "the machine cannot run this kernel (VLEN too small)";
    default: return "unknown status";
  }
}

double KernelRun::mips() const {
  return result.seconds > 0 ? static_cast<double>(result.total.instret) / result.seconds / 1e6 : 0.0;
}

double KernelRun::cpu_mips() const {
  return cpu_seconds > 0 ? static_cast<double>(result.total.instret) / cpu_seconds / 1e6 : 0.0;
}

KernelRun run_kernel(const ManifestEntry& entry, KernelInput input, const RunOptions& options) {
  KernelRun run;
  run.entry = entry;
  run.input = std::move(input);
  if (!entry.built) throw std::runtime_error("kernel ELF not built: " + entry.elf + " (build the rv_kernels target)");

  rv::MachineConfig cfg;
  cfg.isa = entry.isa;
  if (entry.vector()) {
    run.vlen = options.vlen != 0 ? options.vlen : entry.default_vlen;
    cfg.vlen = run.vlen;
  }
  cfg.cycle_model = options.cycle_model;
  rv::Machine machine(cfg);
  machine.load_elf_file(entry.elf);
  const double cpu_start = thread_cpu_seconds();
  run.result = machine.run(run.input.stdin_bytes);
  run.cpu_seconds = thread_cpu_seconds() - cpu_start;
  const rv::RunResult& r = run.result;
  run.kernel_instret = parse_instret_line(r.stderr_bytes);

  if (!r.exited()) {
    run.problems.push_back("simulator: " + r.message);
    return run;
  }
  if (r.exit_code != 0) {
    run.problems.push_back("kernel exited with status " + std::to_string(r.exit_code) + " (" +
                           kernel_exit_meaning(r.exit_code) + ")" +
                           (r.stderr_bytes.empty() ? std::string() : ": " + last_line(r.stderr_bytes)));
    return run;
  }
  if (options.check) {
    run.output_equal = equal_bytes(r.stdout_bytes, run.input.expected);
    if (!*run.output_equal) {
      run.problems.push_back("output differs from the ref engine's (" +
                             first_difference(r.stdout_bytes, run.input.expected) + ")");
    }
    if (r.regions != 1) {
      run.problems.push_back("expected one measured region, the simulator saw " + std::to_string(r.regions));
    }
    if (!run.kernel_instret) {
      run.problems.push_back("the kernel wrote no 'instret N' line");
    } else if (*run.kernel_instret != r.region.instret) {
      run.problems.push_back("the kernel reports instret " + std::to_string(*run.kernel_instret) +
                             ", the simulator counted " + std::to_string(r.region.instret) + " in the region");
    }
  }
  if (!options.spike.empty()) run_on_spike(run, options);
  return run;
}

Json counts_json(const rv::Counts& c, bool with_mnemonics) {
  Json by_class = Json::object();
  for (std::size_t i = 0; i < rv::kClassCount; ++i) {
    if (c.by_class[i] != 0) by_class[std::string(rv::class_name(static_cast<rv::InsnClass>(i)))] = c.by_class[i];
  }
  Json j = {{"instret", c.instret}, {"cycles", c.cycles}, {"taken_branches", c.taken_branches},
            {"by_class", by_class}};
  if (with_mnemonics) {
    Json m = Json::object();
    for (const auto& [name, n] : c.by_mnemonic) m[name] = n;
    j["by_mnemonic"] = m;
  }
  return j;
}

Json cycle_model_json(const rv::CycleModel& m) {
  Json j = Json::object();
  for (std::size_t i = 0; i < rv::kClassCount; ++i) {
    j[std::string(rv::class_name(static_cast<rv::InsnClass>(i)))] = m.latency[i];
  }
  j["taken-branch-penalty"] = m.taken_branch_penalty;
  const rv::VectorTiming& v = m.vector;
  j["vector-lanes"] = v.lanes;
  j["vector-alu-latency"] = v.alu_latency;
  j["vector-mem-latency"] = v.mem_latency;
  j["vector-permute-latency"] = v.permute_latency;
  j["vector-crypto-stages"] = v.crypto_stages;
  j["vector-crypto-lanes-per-eg"] = v.crypto_lanes_per_eg;
  j["vector-queue-depth"] = v.queue_depth;
  j["vector-keccak-latency"] = v.keccak_latency;
  j["vector-keccak-pi-latency"] = v.keccak_pi_latency;
  j["vector-blocking"] = v.blocking;
  return j;
}

Json run_object(const KernelRun& run) {
  const rv::RunResult& r = run.result;
  Json j = {{"kernel", run.entry.kernel}, {"variant", run.entry.variant}, {"xlen", run.entry.xlen}};
  if (run.vlen != 0) j["vlen"] = run.vlen;
  j["isa"] = run.entry.isa;
  j["elf"] = run.entry.elf;
  j["workload"] = run.input.fields_json.empty() ? Json::object() : Json::parse(run.input.fields_json);
  j["workload"]["description"] = run.input.description;
  j["stop"] = std::string(rv::stop_reason_name(r.reason));
  j["exit_code"] = r.exit_code;
  j["region"] = counts_json(r.region, true);
  j["regions"] = r.regions;
  j["kernel_instret"] = run.kernel_instret ? Json(*run.kernel_instret) : Json(nullptr);
  j["total"] = counts_json(r.total, false);
  j["seconds"] = r.seconds;
  j["cpu_seconds"] = run.cpu_seconds;
  j["simulated_mips"] = run.mips();
  j["simulated_mips_cpu"] = run.cpu_mips();
  j["check"] = run.output_equal ? Json(*run.output_equal ? "equal" : "differs") : Json(nullptr);
  if (run.spike) {
    j["spike"] = {{"exit_status", run.spike->exit_status},
                  {"instret", run.spike->instret ? Json(*run.spike->instret) : Json(nullptr)},
                  {"output_equal", run.spike->output_equal},
                  {"seconds", run.spike->seconds}};
  } else {
    j["spike"] = nullptr;
  }
  j["ok"] = run.ok();
  j["problems"] = run.problems;
  return j;
}

std::string run_json(const KernelRun& run) { return run_object(run).dump(2); }

}  // namespace cryptaccel::rvlab

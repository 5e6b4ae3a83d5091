// `cryptaccel rv run KERNEL --variant V --xlen X`: one kernel on fresh random input on cryptaccel's simulator, with
// counts, modelled cycles and speed; --check against the ref engine, --vs spike against Spike.
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>

#include "cryptaccel/rv.hpp"
#include "rv_cmds.hpp"

namespace cryptaccel::cli::rvcmd {

using namespace cryptaccel::rvlab;
namespace {

namespace rv = cryptaccel::rv;

void print_run(const KernelRun& run, const RunCommandOptions& o) {
  const rv::RunResult& r = run.result;
  const std::string vlen = run.vlen != 0 ? " VLEN " + std::to_string(run.vlen) : "";
  std::printf("%s %s rv%u%s (%s): %s\n", run.entry.kernel.c_str(), run.entry.variant.c_str(), run.entry.xlen,
              vlen.c_str(), run.entry.isa.c_str(), run.input.description.c_str());
  if (!r.exited() || r.exit_code != 0) {
    std::printf("run: %s\n", r.exited() ? ("exit status " + std::to_string(r.exit_code)).c_str() : r.message.c_str());
  }
  const rv::Counts& c = r.region;
  std::printf("region: %llu instructions, %llu cycles (%.2f cycles/instruction), %llu taken branches\n",
              static_cast<unsigned long long>(c.instret), static_cast<unsigned long long>(c.cycles),
              c.instret ? static_cast<double>(c.cycles) / static_cast<double>(c.instret) : 0.0,
              static_cast<unsigned long long>(c.taken_branches));
  for (std::size_t i = 0; i < rv::kClassCount; ++i) {
    if (c.by_class[i] == 0) continue;
    std::printf("  %-11s %12llu  %5.1f%%\n", std::string(rv::class_name(static_cast<rv::InsnClass>(i))).c_str(),
                static_cast<unsigned long long>(c.by_class[i]),
                100.0 * static_cast<double>(c.by_class[i]) / static_cast<double>(c.instret));
  }
  std::printf("total: %llu instructions in %.4f s (%.4f s CPU): %.1f M simulated instructions/s (%.1f M per CPU "
              "second)\n",
              static_cast<unsigned long long>(r.total.instret), r.seconds, run.cpu_seconds, run.mips(),
              run.cpu_mips());
  if (o.check && run.output_equal) {
    std::printf("check: %s\n", *run.output_equal ? "output equals the ref engine's" : "FAILED: output differs");
  }
  if (run.spike) {
    const SpikeSide& s = *run.spike;
    std::printf("spike: output %s, region instret %s (%.2f s)\n", s.output_equal ? "equal" : "DIFFERS",
                s.instret ? (std::to_string(*s.instret) + (*s.instret == c.instret ? " equal" : " DIFFERS")).c_str()
                          : "missing",
                s.seconds);
  }
}

}  // namespace

int rv_run(const RunCommandOptions& o) {
  if (o.xlen != 32 && o.xlen != 64) throw std::invalid_argument("--xlen must be 32 or 64");
  const Manifest m = load_manifest(locate_manifest(o.manifest));
  const ManifestEntry& entry = m.entry(o.kernel, o.variant, o.xlen);  // throws for unknown names
  const KernelSpec& spec = *m.kernel(o.kernel);

  RunOptions options;
  if (o.vlen) {
    if (!entry.vector()) {
      throw std::invalid_argument("--vlen applies to the vector kernels (variants zvk, rvv, ...), not " + o.kernel +
                                  " " + o.variant);
    }
    const unsigned v = *o.vlen;
    // Kernels with seed 004's custom instructions (xkeccak) run at any multiple of ELEN (e.g. 5*SN*64); the machine
    // checks which ELEN.
    if (rv::parse_isa(entry.isa).has("xkeccak")) {
      if (v < 128 || v > 4096 || v % 32 != 0) {
        throw std::invalid_argument("--vlen must be a multiple of ELEN from 128 to 4096 (xkeccak), got " +
                                    std::to_string(v));
      }
    } else if (v < 128 || v > 4096 || (v & (v - 1)) != 0) {
      throw std::invalid_argument("--vlen must be a power of two from 128 to 4096, got " + std::to_string(v));
    }
    options.vlen = v;
  }
  if (!o.cycle_model_file.empty()) options.cycle_model.load_file(o.cycle_model_file);
  options.check = o.check;
  if (o.vs_spike) options.spike = locate_spike();

  std::mt19937_64 rng(o.seed ? *o.seed : std::random_device{}());
  KernelInput input = make_input(spec, o.request, rng);
  const KernelRun run = run_kernel(entry, std::move(input), options);

  if (o.json) {
    std::printf("%s\n", run_json(run).c_str());
  } else {
    print_run(run, o);
  }
  std::fflush(stdout);
  for (const std::string& p : run.problems) std::fprintf(stderr, "cryptaccel rv: %s\n", p.c_str());
  return run.ok() ? 0 : 1;
}

}  // namespace cryptaccel::cli::rvcmd

#include "cryptaccel/rvlab/simt.hpp"

#include <algorithm>

namespace cryptaccel::rvlab {

SimtEstimate simt_estimate(const SimtConfig& c, std::uint64_t instructions, std::uint64_t cycles,
                           std::uint64_t payload_bytes) {
  SimtEstimate e;
  const double issue = static_cast<double>(c.warps) * static_cast<double>(instructions);
  e.issue_bound = issue >= static_cast<double>(cycles);
  e.cycles_per_round = std::max(issue, static_cast<double>(cycles));
  if (e.cycles_per_round > 0) {
    e.operations_per_second = static_cast<double>(c.cores) * c.warps * c.threads * c.clock_mhz * 1e6 /
                              e.cycles_per_round;
  }
  e.bytes_per_second = e.operations_per_second * static_cast<double>(payload_bytes);
  return e;
}

double simt_core_speedup(const SimtConfig& c, unsigned accelerated_cores, const SimtEstimate& fast,
                         const SimtEstimate& slow) {
  if (slow.operations_per_second <= 0 || c.cores == 0) return 0;
  // Throughput scales with the core count (operations are independent): per-core rates times core counts.
  return (fast.operations_per_second / c.cores * accelerated_cores) / slow.operations_per_second;
}

std::string simt_model_text() {
  return "one operation per thread (I instructions, Cyc modelled cycles on one in-order hart); a core issues one "
         "warp-instruction per cycle for its T threads in lockstep, other warps hiding a warp's stalls, so W*T "
         "operations take max(W*I, Cyc) cycles; operations/s = cores*W*T*clock / max(W*I, Cyc). Not modelled: "
         "caches, memory bandwidth and bank conflicts, divergence, launch and transfer overhead, the crypto "
         "unit's lower clock (use --clock-mhz), CBC encryption's serial chain (one message per thread here).";
}

}  // namespace cryptaccel::rvlab

// A SIMT throughput estimate from single-hart counts, for a Vortex-like GPGPU (seed 000 ran 16 cores x 4 warps x 4
// threads; `cryptaccel rv table seed000 --cores C --warps W --threads T`).
//
// Model. An operation is one thread's work (one 2 KiB hash, 512 AES blocks, one key expansion); I is its retired
// instructions and Cyc its modelled cycles on one in-order hart (the simulator's cycle model: latencies and stalls of
// one instruction stream). A core holds W warps of T threads; every cycle its scheduler issues one instruction of one
// ready warp, executed by the warp's T threads in lockstep. Each thread runs its own operation, so a core finishes
// W*T operations in
//     t_core = max(W * I, Cyc) cycles
// — issue-bound (W * I: one warp-instruction per cycle, other warps' instructions fill every stall) or latency-bound
// (Cyc: a warp's own chain of latencies cannot be shortened by the others). Throughput:
//     operations/s = C * W * T * f / max(W * I, Cyc),    bytes/s = operations/s * bytes per operation.
// Not modelled: caches, shared-memory bank conflicts and DRAM bandwidth (software AES does 16 table loads per
// round), divergence (the kernels' control flow depends only on sizes), kernel launch and host transfers, the
// clock lost to the crypto unit (Table 2: 177 instead of 192 MHz at 16 cores; pass --clock-mhz), and CBC
// encryption's serial chain (each thread encrypts its own message here; the paper ran CBC encryption in one thread).
#pragma once
#include <cstdint>
#include <string>

namespace cryptaccel::rvlab {

/// The GPGPU's shape and clock.
struct SimtConfig {
  unsigned cores = 16;     ///< cores of the GPGPU
  unsigned warps = 4;      ///< warps per core
  unsigned threads = 4;    ///< threads per warp
  double clock_mhz = 192;  ///< seed 000's 16-core baseline (Table 2)
};

/// The estimate for one kernel variant.
struct SimtEstimate {
  double cycles_per_round = 0;   ///< t_core: cycles for one round of W*T operations on a core
  bool issue_bound = false;      ///< W * I >= Cyc
  double operations_per_second = 0;  ///< of the whole GPGPU
  double bytes_per_second = 0;   ///< 0 for operations without a payload (key expansions)
};

/// Estimates throughput from one operation's `instructions` and `cycles` (and its payload bytes).
SimtEstimate simt_estimate(const SimtConfig& config, std::uint64_t instructions, std::uint64_t cycles,
                           std::uint64_t payload_bytes);

/// Table 3's question: the throughput of `accelerated_cores` cores running the fast variant over `config.cores`
/// cores running the slow one, same W, T and clock.
double simt_core_speedup(const SimtConfig& config, unsigned accelerated_cores, const SimtEstimate& fast,
                         const SimtEstimate& slow);

/// The model in one paragraph, for reports.
std::string simt_model_text();

}  // namespace cryptaccel::rvlab

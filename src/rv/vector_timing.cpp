// The vector timing model (rv.hpp VectorTiming; docs/isa-lab.md "Vector timing model"). The scalar core is the
// in-order CycleModel core; a vector instruction costs it its class latency to issue, after which the vector unit
// works on its own: each unit (ALU, load/store, slide/permute, crypto) takes one instruction at a time, for
// `beats` cycles, and the result is ready `latency` cycles after the last beat. An instruction starts when its
// unit is free and its source registers are written (no chaining: a conservative choice). The scalar core waits
// only when the dispatcher's queue is full, for a scalar result, and when the vector unit drains (region
// markers, exit); those waits are the vector stall cycles, part of the cycle count. A blocking core
// (VectorTiming::blocking, seed 004) waits for every vector instruction's result before its next instruction.
#include <algorithm>

#include "rv/core.hpp"

namespace cryptaccel::rv {

void Core::vissue(VUnit u, std::uint64_t beats, std::uint32_t latency, std::uint32_t reads, std::uint32_t writes,
                  bool scalar_result) {
  std::uint64_t t = cycles_now();
  // Dispatcher queue: the instruction queue_depth places back must have started before this one is accepted.
  const std::size_t q = vqueue.size();
  if (vissued >= q) {
    const std::uint64_t free_slot = vqueue[vissued % q];
    if (free_slot > t) {
      vstall += free_slot - t;
      t = free_slot;
    }
  }
  std::uint64_t start = std::max(t, vunit_free[static_cast<std::size_t>(u)]);
  for (std::uint32_t m = reads; m; m &= m - 1) start = std::max(start, vreg_ready[std::countr_zero(m)]);
  // Writes after a pending write to the same register (write-after-write) also wait.
  for (std::uint32_t m = writes; m; m &= m - 1) start = std::max(start, vreg_ready[std::countr_zero(m)]);
  const std::uint64_t done = start + beats + latency;
  vunit_free[static_cast<std::size_t>(u)] = start + std::max<std::uint64_t>(beats, 1);
  for (std::uint32_t m = writes; m; m &= m - 1) vreg_ready[std::countr_zero(m)] = done;
  vall_done = std::max(vall_done, done);
  vqueue[vissued % q] = start;
  ++vissued;
  if (cfg.cycle_model.vector.blocking) {
    // Seed 004's SIMD processor: the vector unit starts in the cycle the scalar core issues the instruction, and the
    // next instruction waits until the result is ready. The issue cycles (the class latency) overlap the vector work,
    // so the instruction costs max(class latency, beats + latency) in all.
    const std::uint64_t issued = t + op_cycles[vcur_op];
    if (done > issued) vstall += done - issued;
  } else if (scalar_result && done > t) {
    vstall += done - t;
  }
}

void Core::vdrain() {
  const std::uint64_t t = cycles_now();
  if (vall_done > t) vstall += vall_done - t;
}

}  // namespace cryptaccel::rv

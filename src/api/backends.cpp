// The backends this build has, in the order `auto` prefers them: the one place above the engines that knows them all
// (the engine layer selects among them through registered_engines()).
#include <array>

#include "cpu/cpu_engine.hpp"
#include "engine/engine.hpp"
#include "ref/ref_engine.hpp"
#if defined(CRYPTACCEL_HAVE_CUDA)
#include "cuda/cuda_engine.hpp"
#endif

namespace cryptaccel::engine {

std::span<const Engine* const> registered_engines() {
  // Preference order for `auto`: accelerated engines ahead of `ref`. The GPU goes first only when a CUDA device is
  // present (it wins on large batches); without one it is listed, unavailable, after the CPU engines so that
  // `--engine cuda` still gets its precise reason. `cuda-ttable` (not constant time) comes after `ref`, which serves
  // every request, so `auto` never picks it.
#if defined(CRYPTACCEL_HAVE_CUDA)
  static const std::array<const Engine*, 4> engines = [] {
    if (cuda::cuda_engine().unavailable_reason().empty())
      return std::array<const Engine*, 4>{&cuda::cuda_engine(), &cpu::cpu_engine(), &ref::ref_engine(), &cuda::cuda_ttable_engine()};
    return std::array<const Engine*, 4>{&cpu::cpu_engine(), &ref::ref_engine(), &cuda::cuda_engine(), &cuda::cuda_ttable_engine()};
  }();
#else
  static const std::array<const Engine*, 2> engines = {&cpu::cpu_engine(), &ref::ref_engine()};
#endif
  return engines;
}

}  // namespace cryptaccel::engine

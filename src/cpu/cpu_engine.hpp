// The `cpu` engine (x86-64 crypto instructions, all cores); registered in src/engine/registry.cpp.
#pragma once
#include "engine/engine.hpp"

namespace cryptaccel::cpu {

/// The process-wide cpu engine (check unavailable_reason() before use).
const engine::Engine& cpu_engine();

}  // namespace cryptaccel::cpu

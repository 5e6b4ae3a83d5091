// The `ref` engine: portable code for every algorithm (the papers' "software"), always present (ref_engine.cpp).
#pragma once
#include "engine/engine.hpp"

namespace cryptaccel::ref {

/// The `ref` engine.
const engine::Engine& ref_engine();

}  // namespace cryptaccel::ref

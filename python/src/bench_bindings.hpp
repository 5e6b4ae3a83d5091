// Bindings of include/cryptaccel/bench.hpp: the private functions behind cryptaccel.bench (_bench_speed,
// _bench_families); python/cryptaccel/bench.py gives them keyword arguments, defaults, checks and docstrings.
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds _bench_speed and _bench_families to `m`.
void register_bench_bindings(nanobind::module_& m);

}  // namespace pyca

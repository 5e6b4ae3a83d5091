// Bindings of include/cryptaccel/crack.hpp: the private functions behind cryptaccel.crack (run, candidates,
// apply_rule, parse_hash); python/cryptaccel/crack.py gives them keyword arguments, defaults and docstrings.
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds _crack_run, _crack_candidates, _crack_apply_rule and _crack_parse_hash to `m`.
void register_crack_bindings(nanobind::module_& m);

}  // namespace pyca

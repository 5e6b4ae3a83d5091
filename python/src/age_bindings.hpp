// Bindings of include/cryptaccel/age.hpp: the private functions behind cryptaccel.age (keys, in-memory and stream
// encryption and decryption); python/cryptaccel/age.py gives them keyword arguments, classes and docstrings.
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds the _age_* functions to `m`.
void register_age_bindings(nanobind::module_& m);

}  // namespace pyca

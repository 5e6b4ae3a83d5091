// Bindings of include/cryptaccel/shacrypt.hpp: the private functions behind cryptaccel.shacrypt (hash, verify,
// hash_many, parse); python/cryptaccel/shacrypt.py gives them keyword arguments, defaults and docstrings.
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds _shacrypt_hash, _shacrypt_hash_setting, _shacrypt_verify, _shacrypt_hash_many and _shacrypt_parse to `m`.
void register_shacrypt_bindings(nanobind::module_& m);

}  // namespace pyca

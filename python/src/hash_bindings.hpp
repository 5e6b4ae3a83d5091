// Bindings of include/cryptaccel/hash.hpp: the hash object classes Hash and HashXOF (hashlib's interface, defined
// here so that update()/digest() cost one call), and the private functions behind cryptaccel.new() and the named
// constructors, hash_many and keccak_f1600_batch; python/cryptaccel/_hash.py gives those keyword arguments, defaults
// and docstrings.
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds the classes Hash and HashXOF and the functions _new, _hash_many, _keccak_f1600_batch, _hash_names, _hash_info and _hash_available to `m`.
void register_hash_bindings(nanobind::module_& m);

}  // namespace pyca

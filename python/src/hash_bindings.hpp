// Bindings of include/cryptaccel/hash.hpp: the hash object classes Hash and HashXOF (hashlib's interface, defined
// here so that update()/digest() cost one call), the named constructors (cryptaccel.sha256, ...: plain C functions
// with hashlib's keywords, so that a one-shot sha256(m).digest() pays for no Python frame and no nanobind argument
// dispatch), and the private functions behind cryptaccel.new(), hash_many and keccak_f1600_batch;
// python/cryptaccel/_hash.py gives those keyword arguments, defaults and docstrings.
#pragma once
#include <nanobind/nanobind.h>

#include <exception>

namespace pyca {

/// Adds the classes Hash and HashXOF, the dict _constructors (hash name -> named constructor) and the functions _new,
/// _hash_many, _keccak_f1600_batch, _hash_names, _hash_info and _hash_available to `m`.
void register_hash_bindings(nanobind::module_& m);

/// Sets the Python error for the C++ exception `p` as nanobind's dispatch would (cryptaccel's errors as the classes
/// of cryptaccel._errors, nb::python_error restored, bad_alloc as MemoryError), for functions that bypass nanobind's
/// dispatch (the named hash constructors). Defined in module.cpp, next to the exception translator.
void set_python_error(const std::exception_ptr& p) noexcept;

}  // namespace pyca

// Bindings of include/cryptaccel/rsa.hpp: the key classes _RsaPrivateKey and _RsaPublicKey and the private functions
// behind cryptaccel.rsa (sign, verify, encrypt, decrypt, their batch forms and modexp_many). python/cryptaccel/rsa.py
// gives them keyword arguments, defaults, docstrings and the public PrivateKey / PublicKey classes.
//
// Every RSA call runs with the GIL released: even the cheapest (a 1024-bit verify) costs tens of microseconds, far
// more than releasing and taking the GIL back. Arguments are read into ByteArg first (bytes in place, other buffers
// copied while the GIL is held), so no Python object is touched without it.
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds _RsaPrivateKey, _RsaPublicKey and the _rsa_* functions to `m`.
void register_rsa_bindings(nanobind::module_& m);

}  // namespace pyca

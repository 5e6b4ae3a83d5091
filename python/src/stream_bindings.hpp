// Bindings of include/cryptaccel/stream.hpp: the private class behind cryptaccel.encryptor / decryptor and
// encrypt_file / decrypt_file (python/cryptaccel/_stream.py gives them keyword arguments, defaults and docstrings).
#pragma once
#include <nanobind/nanobind.h>

namespace pyca {

/// Adds _CipherStream (update, finish, engine_used) and _streamable to `m`.
void register_stream_bindings(nanobind::module_& m);

}  // namespace pyca

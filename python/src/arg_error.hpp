// ArgumentTypeError: a Python argument of the wrong type, found by the extension (a str where bytes are needed, a
// float where an int is). module.cpp's exception translator raises it in Python as cryptaccel.InvalidArgumentType,
// a TypeError that is also a cryptaccel.Error (python/cryptaccel/_errors.py), instead of nanobind's plain TypeError.
#pragma once
#include <stdexcept>
#include <string>

namespace pyca {

/// Thrown by the bindings for an argument of the wrong type; `what()` is the one-line Python message.
class ArgumentTypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace pyca

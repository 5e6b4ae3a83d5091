// GIL policy shared by the extension's source files: calls whose inputs together exceed kReleaseGilAbove bytes run
// the C++ code with the GIL released (MaybeReleaseGil), so other Python threads keep running.
#pragma once
#include <nanobind/nanobind.h>

#include <cstddef>
#include <optional>

namespace pyca {

/// Inputs larger than this (in bytes, all inputs of a call together) run with the GIL released.
inline constexpr std::size_t kReleaseGilAbove = 4096;

/// Releases the GIL for its lifetime when `release` is true.
class MaybeReleaseGil {
 public:
  explicit MaybeReleaseGil(bool release) {
    if (release) guard_.emplace();
  }

 private:
  std::optional<nanobind::gil_scoped_release> guard_;
};

}  // namespace pyca

// The Montgomery kernels of RSA arithmetic on the host, chosen at run time in one place: the MULX/ADX kernels of
// src/rsa/mont_mulx.hpp when the CPU has BMI2 and ADX (and CRYPTACCEL_CPU_MASK hides neither), else the portable
// ones of src/algo/montgomery.hpp. The `ref` engine asks for the portable ones, so that it stays a reference built
// only from portable code end to end (its raw operations, and the blinding and result check around them).
#pragma once
#include "algo/montgomery.hpp"
#include "rsa/mont_mulx.hpp"

namespace cryptaccel::rsa {

/// Calls f(rsa::MulxMont{}) when those kernels may run and `portable` is false, else f(bn::PortableMont{}).
template <class F>
decltype(auto) with_host_mont(bool portable, F&& f) {
  if (!portable && rsa::mulx_adx_available()) return f(rsa::MulxMont{});
  return f(algo::bn::PortableMont{});
}

}  // namespace cryptaccel::rsa

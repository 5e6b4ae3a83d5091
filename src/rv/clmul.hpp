// Carry-less multiplication shared by the scalar (Zbc/Zbkc, exec_zbkc.cpp) and vector (Zvbc, exec_zvbc.cpp)
// instructions: one implementation, constant time (no data-dependent branch).
#pragma once
#include <cstdint>

namespace cryptaccel::rv {

/// The 2*W-bit carry-less product of a and b (W = bits of X) as (high, low).
template <class X>
inline void clmul_wide(X a, X b, X& hi, X& lo) {
  constexpr unsigned n = sizeof(X) * 8;
  X h = 0, l = 0;
  for (unsigned i = 0; i < n; ++i) {
    const X m = static_cast<X>(0) - ((b >> i) & 1);  // all ones when bit i of b is set
    l ^= static_cast<X>(a << i) & m;
    if (i) h ^= static_cast<X>(a >> (n - i)) & m;
  }
  hi = h, lo = l;
}

}  // namespace cryptaccel::rv

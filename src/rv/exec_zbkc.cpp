// Zbc/Zbkc carry-less multiplication (bitmanip spec v1.0.0 §2.3; scalar crypto §2.3).
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
/// The 2*XLEN-bit carry-less product of a and b as (high, low).
template <class X>
void clmul_wide(X a, X b, X& hi, X& lo) {
  constexpr unsigned n = sizeof(X) * 8;
  X h = 0, l = 0;
  for (unsigned i = 0; i < n; ++i) {
    const X m = static_cast<X>(0) - ((b >> i) & 1);  // all ones when bit i of b is set
    l ^= static_cast<X>(a << i) & m;
    if (i) h ^= static_cast<X>(a >> (n - i)) & m;
  }
  hi = h, lo = l;
}
}  // namespace

RV_EXEC(clmul) { X h, l; clmul_wide(RS1, RS2, h, l); SET_RD(l); return NEXT; }
RV_EXEC(clmulh) { X h, l; clmul_wide(RS1, RS2, h, l); SET_RD(h); return NEXT; }
/// clmulr: bits 2*XLEN-2 .. XLEN-1 of the product.
RV_EXEC(clmulr) {
  X h, l;
  clmul_wide(RS1, RS2, h, l);
  SET_RD(static_cast<X>(h << 1) | static_cast<X>(l >> (XLEN - 1)));
  return NEXT;
}

RV_INSTANTIATE(clmul) RV_INSTANTIATE(clmulh) RV_INSTANTIATE(clmulr)

}  // namespace cryptaccel::rv

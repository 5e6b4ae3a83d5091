// Zbc/Zbkc carry-less multiplication (bitmanip spec v1.0.0 §2.3; scalar crypto §2.3).
#include "rv/clmul.hpp"
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

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

// Zbkx crossbar permutations (scalar crypto spec v1.0.1 §2.4): each nibble (xperm4) or byte (xperm8) of rs2
// indexes a nibble/byte of rs1; out-of-range indices give 0.
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
template <class X, unsigned Bits>
X xperm(X table, X indices) {
  constexpr unsigned n = sizeof(X) * 8;
  constexpr X mask = static_cast<X>((X{1} << Bits) - 1);
  X r = 0;
  for (unsigned i = 0; i < n; i += Bits) {
    const X idx = (indices >> i) & mask;
    const X v = idx < n / Bits ? static_cast<X>((table >> (idx * Bits)) & mask) : X{0};
    r |= static_cast<X>(v << i);
  }
  return r;
}
}  // namespace

RV_EXEC(xperm4) { SET_RD((xperm<X, 4>(RS1, RS2))); return NEXT; }
RV_EXEC(xperm8) { SET_RD((xperm<X, 8>(RS1, RS2))); return NEXT; }

RV_INSTANTIATE(xperm4) RV_INSTANTIATE(xperm8)

}  // namespace cryptaccel::rv

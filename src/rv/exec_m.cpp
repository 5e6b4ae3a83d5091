// M extension semantics (unprivileged spec ch. 13): division by zero gives all ones (quotient) or the dividend
// (remainder); the signed overflow MIN / -1 gives MIN and remainder 0. No traps.
#include <limits>

#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
/// High XLEN bits of the 2*XLEN-bit product of a and b, each taken signed or unsigned.
template <class X, bool ASigned, bool BSigned>
X mul_high(X a, X b) {
  if constexpr (sizeof(X) == 4) {
    if constexpr (!ASigned && !BSigned) return static_cast<X>((std::uint64_t{a} * b) >> 32);  // 2^64 > INT64_MAX
    const std::int64_t sa = ASigned ? std::int64_t{static_cast<std::int32_t>(a)} : std::int64_t{a};
    const std::int64_t sb = BSigned ? std::int64_t{static_cast<std::int32_t>(b)} : std::int64_t{b};
    return static_cast<X>(static_cast<std::uint64_t>(sa * sb) >> 32);
  } else {
    const __int128 sa = ASigned ? __int128{static_cast<std::int64_t>(a)} : __int128{a};
    const __int128 sb = BSigned ? __int128{static_cast<std::int64_t>(b)} : __int128{b};
    // Signed × unsigned 64-bit fits in 128 signed bits; unsigned × unsigned is done unsigned.
    if constexpr (!ASigned && !BSigned) return static_cast<X>((static_cast<unsigned __int128>(a) * b) >> 64);
    else return static_cast<X>(static_cast<unsigned __int128>(sa * sb) >> 64);
  }
}

template <class T>
T div_signed(T a, T b) {
  if (b == 0) return -1;
  if (a == std::numeric_limits<T>::min() && b == -1) return a;
  return a / b;
}
template <class T>
T rem_signed(T a, T b) {
  if (b == 0) return a;
  if (a == std::numeric_limits<T>::min() && b == -1) return 0;
  return a % b;
}
template <class T>
T div_unsigned(T a, T b) { return b == 0 ? static_cast<T>(~T{0}) : a / b; }
template <class T>
T rem_unsigned(T a, T b) { return b == 0 ? a : a % b; }
}  // namespace

RV_EXEC(mul) { SET_RD(RS1 * RS2); return NEXT; }
RV_EXEC(mulh) { SET_RD((mul_high<X, true, true>(RS1, RS2))); return NEXT; }
RV_EXEC(mulhsu) { SET_RD((mul_high<X, true, false>(RS1, RS2))); return NEXT; }
RV_EXEC(mulhu) { SET_RD((mul_high<X, false, false>(RS1, RS2))); return NEXT; }
RV_EXEC(div) { SET_RD(div_signed(SGN(RS1), SGN(RS2))); return NEXT; }
RV_EXEC(divu) { SET_RD(div_unsigned(RS1, RS2)); return NEXT; }
RV_EXEC(rem) { SET_RD(rem_signed(SGN(RS1), SGN(RS2))); return NEXT; }
RV_EXEC(remu) { SET_RD(rem_unsigned(RS1, RS2)); return NEXT; }

#define LO32S(v) static_cast<std::int32_t>(static_cast<std::uint32_t>(v))
#define LO32U(v) static_cast<std::uint32_t>(v)
RV_EXEC(mulw) { SET_RD(SEXT32(LO32U(RS1) * LO32U(RS2))); return NEXT; }
RV_EXEC(divw) { SET_RD(SEXT32(div_signed(LO32S(RS1), LO32S(RS2)))); return NEXT; }
RV_EXEC(divuw) { SET_RD(SEXT32(div_unsigned(LO32U(RS1), LO32U(RS2)))); return NEXT; }
RV_EXEC(remw) { SET_RD(SEXT32(rem_signed(LO32S(RS1), LO32S(RS2)))); return NEXT; }
RV_EXEC(remuw) { SET_RD(SEXT32(rem_unsigned(LO32U(RS1), LO32U(RS2)))); return NEXT; }

RV_INSTANTIATE(mul) RV_INSTANTIATE(mulh) RV_INSTANTIATE(mulhsu) RV_INSTANTIATE(mulhu) RV_INSTANTIATE(div)
RV_INSTANTIATE(divu) RV_INSTANTIATE(rem) RV_INSTANTIATE(remu) RV_INSTANTIATE(mulw) RV_INSTANTIATE(divw)
RV_INSTANTIATE(divuw) RV_INSTANTIATE(remw) RV_INSTANTIATE(remuw)

}  // namespace cryptaccel::rv

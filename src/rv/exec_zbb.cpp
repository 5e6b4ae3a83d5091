// Zbb semantics (bitmanip spec v1.0.0), including the logic-with-negate, rotate and rev8 instructions that Zbkb
// shares with it.
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
template <class X>
X rotl(X v, unsigned n) { return std::rotl(v, static_cast<int>(n & (sizeof(X) * 8 - 1))); }
template <class X>
X rotr(X v, unsigned n) { return std::rotr(v, static_cast<int>(n & (sizeof(X) * 8 - 1))); }
/// Byte reversal of an XLEN value.
template <class X>
X byte_reverse(X v) {
  X r = 0;
  for (unsigned i = 0; i < sizeof(X); ++i) r = static_cast<X>((r << 8) | ((v >> (8 * i)) & 0xFF));
  return r;
}
}  // namespace

RV_EXEC(andn) { SET_RD(RS1 & ~RS2); return NEXT; }
RV_EXEC(orn) { SET_RD(RS1 | ~RS2); return NEXT; }
RV_EXEC(xnor) { SET_RD(~(RS1 ^ RS2)); return NEXT; }
RV_EXEC(rol) { SET_RD(rotl(RS1, static_cast<unsigned>(RS2))); return NEXT; }
RV_EXEC(ror) { SET_RD(rotr(RS1, static_cast<unsigned>(RS2))); return NEXT; }
RV_EXEC(rori) { SET_RD(rotr(RS1, static_cast<unsigned>(d.imm))); return NEXT; }
RV_EXEC(rori64) { return exec_rori<X>(c, d, pc); }
RV_EXEC(rolw) { SET_RD(SEXT32(std::rotl(static_cast<std::uint32_t>(RS1), static_cast<int>(RS2 & 31)))); return NEXT; }
RV_EXEC(rorw) { SET_RD(SEXT32(std::rotr(static_cast<std::uint32_t>(RS1), static_cast<int>(RS2 & 31)))); return NEXT; }
RV_EXEC(roriw) { SET_RD(SEXT32(std::rotr(static_cast<std::uint32_t>(RS1), static_cast<int>(d.imm & 31)))); return NEXT; }
RV_EXEC(rev8_32) { SET_RD(byte_reverse(RS1)); return NEXT; }
RV_EXEC(rev8_64) { SET_RD(byte_reverse(RS1)); return NEXT; }

RV_EXEC(clz) { SET_RD(std::countl_zero(RS1)); return NEXT; }
RV_EXEC(ctz) { SET_RD(std::countr_zero(RS1)); return NEXT; }
RV_EXEC(cpop) { SET_RD(std::popcount(RS1)); return NEXT; }
RV_EXEC(clzw) { SET_RD(std::countl_zero(static_cast<std::uint32_t>(RS1))); return NEXT; }
RV_EXEC(ctzw) { SET_RD(std::countr_zero(static_cast<std::uint32_t>(RS1))); return NEXT; }
RV_EXEC(cpopw) { SET_RD(std::popcount(static_cast<std::uint32_t>(RS1))); return NEXT; }
RV_EXEC(sext_b) { SET_RD(static_cast<X>(static_cast<std::int64_t>(static_cast<std::int8_t>(RS1)))); return NEXT; }
RV_EXEC(sext_h) { SET_RD(static_cast<X>(static_cast<std::int64_t>(static_cast<std::int16_t>(RS1)))); return NEXT; }
RV_EXEC(zext_h32) { SET_RD(RS1 & 0xFFFF); return NEXT; }
RV_EXEC(zext_h64) { SET_RD(RS1 & 0xFFFF); return NEXT; }
RV_EXEC(max) { SET_RD(SGN(RS1) < SGN(RS2) ? RS2 : RS1); return NEXT; }
RV_EXEC(maxu) { SET_RD(RS1 < RS2 ? RS2 : RS1); return NEXT; }
RV_EXEC(min) { SET_RD(SGN(RS1) < SGN(RS2) ? RS1 : RS2); return NEXT; }
RV_EXEC(minu) { SET_RD(RS1 < RS2 ? RS1 : RS2); return NEXT; }
/// orc.b: each byte becomes 0xFF if any of its bits is set, else 0x00.
RV_EXEC(orc_b) {
  const X v = RS1;
  X r = 0;
  for (unsigned i = 0; i < sizeof(X); ++i)
    if ((v >> (8 * i)) & 0xFF) r |= static_cast<X>(X{0xFF} << (8 * i));
  SET_RD(r);
  return NEXT;
}

RV_INSTANTIATE(andn) RV_INSTANTIATE(orn) RV_INSTANTIATE(xnor) RV_INSTANTIATE(rol) RV_INSTANTIATE(ror)
RV_INSTANTIATE(rori) RV_INSTANTIATE(rori64) RV_INSTANTIATE(rolw) RV_INSTANTIATE(rorw) RV_INSTANTIATE(roriw)
RV_INSTANTIATE(rev8_32) RV_INSTANTIATE(rev8_64) RV_INSTANTIATE(clz) RV_INSTANTIATE(ctz) RV_INSTANTIATE(cpop)
RV_INSTANTIATE(clzw) RV_INSTANTIATE(ctzw) RV_INSTANTIATE(cpopw) RV_INSTANTIATE(sext_b) RV_INSTANTIATE(sext_h)
RV_INSTANTIATE(zext_h32) RV_INSTANTIATE(zext_h64) RV_INSTANTIATE(max) RV_INSTANTIATE(maxu) RV_INSTANTIATE(min)
RV_INSTANTIATE(minu) RV_INSTANTIATE(orc_b)

}  // namespace cryptaccel::rv

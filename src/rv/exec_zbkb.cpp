// Zbkb semantics beyond the Zbb subset (scalar crypto spec v1.0.1 §2.2): pack, packh, packw, brev8, zip, unzip.
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

/// pack: low halves of rs1 (low) and rs2 (high).
RV_EXEC(pack) {
  constexpr unsigned half = XLEN / 2;
  const X lo_mask = static_cast<X>((X{1} << half) - 1);
  SET_RD((RS1 & lo_mask) | static_cast<X>((RS2 & lo_mask) << half));
  return NEXT;
}
RV_EXEC(packh) { SET_RD((RS1 & 0xFF) | ((RS2 & 0xFF) << 8)); return NEXT; }
RV_EXEC(packw) { SET_RD(SEXT32((RS1 & 0xFFFF) | ((RS2 & 0xFFFF) << 16))); return NEXT; }

/// brev8: reverses the bits of every byte.
RV_EXEC(brev8) {
  const X v = RS1;
  X r = 0;
  for (unsigned i = 0; i < XLEN; ++i) r |= static_cast<X>(((v >> i) & 1) << ((i & ~7u) | (7 - (i & 7))));
  SET_RD(r);
  return NEXT;
}

/// zip (RV32): rd[2i] = rs1[i], rd[2i+1] = rs1[i+16].
RV_EXEC(zip) {
  const std::uint32_t v = static_cast<std::uint32_t>(RS1);
  std::uint32_t r = 0;
  for (unsigned i = 0; i < 16; ++i) r |= (((v >> i) & 1u) << (2 * i)) | (((v >> (i + 16)) & 1u) << (2 * i + 1));
  SET_RD(r);
  return NEXT;
}
/// unzip (RV32): rd[i] = rs1[2i], rd[i+16] = rs1[2i+1].
RV_EXEC(unzip) {
  const std::uint32_t v = static_cast<std::uint32_t>(RS1);
  std::uint32_t r = 0;
  for (unsigned i = 0; i < 16; ++i) r |= (((v >> (2 * i)) & 1u) << i) | (((v >> (2 * i + 1)) & 1u) << (i + 16));
  SET_RD(r);
  return NEXT;
}

RV_INSTANTIATE(pack) RV_INSTANTIATE(packh) RV_INSTANTIATE(packw) RV_INSTANTIATE(brev8) RV_INSTANTIATE(zip)
RV_INSTANTIATE(unzip)

}  // namespace cryptaccel::rv

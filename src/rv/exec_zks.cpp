// Zksed / Zksh semantics (scalar crypto spec v1.0.1 §2.10-2.11). The SM4 S-box is the library's
// (algo/sbox_tables.hpp); SM3's P0/P1 are algo/sm3.hpp's.
#include "algo/sbox_tables.hpp"
#include "algo/sm3.hpp"
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
const algo::ByteTable& kSm4Sbox = algo::sm4_sbox_table();

/// sm4ed/sm4ks: byte bs of rs2 through the S-box, through the linear layer's contribution of that byte
/// (L for encryption rounds, L' for the key schedule), rotated to byte position bs, XORed into rs1.
template <bool KeySchedule>
std::uint32_t sm4_step(std::uint32_t rs1, std::uint32_t rs2, unsigned bs) {
  const unsigned shamt = 8 * bs;
  const std::uint32_t x = kSm4Sbox[(rs2 >> shamt) & 0xFF];
  std::uint32_t y;
  if constexpr (KeySchedule)
    y = x ^ ((x & 0x07) << 29) ^ ((x & 0xFE) << 7) ^ ((x & 0x01) << 23) ^ ((x & 0xF8) << 13);
  else
    y = x ^ (x << 8) ^ (x << 2) ^ (x << 18) ^ ((x & 0x3F) << 26) ^ ((x & 0xC0) << 10);
  return rs1 ^ std::rotl(y, static_cast<int>(shamt));
}
}  // namespace

RV_EXEC(sm4ed) { SET_RD(SEXT32(sm4_step<false>(static_cast<std::uint32_t>(RS1), static_cast<std::uint32_t>(RS2), d.imm))); return NEXT; }
RV_EXEC(sm4ks) { SET_RD(SEXT32(sm4_step<true>(static_cast<std::uint32_t>(RS1), static_cast<std::uint32_t>(RS2), d.imm))); return NEXT; }
RV_EXEC(sm3p0) { SET_RD(SEXT32(algo::sm3_p0(static_cast<std::uint32_t>(RS1)))); return NEXT; }
RV_EXEC(sm3p1) { SET_RD(SEXT32(algo::sm3_p1(static_cast<std::uint32_t>(RS1)))); return NEXT; }

RV_INSTANTIATE(sm4ed) RV_INSTANTIATE(sm4ks) RV_INSTANTIATE(sm3p0) RV_INSTANTIATE(sm3p1)

}  // namespace cryptaccel::rv

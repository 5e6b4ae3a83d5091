// C extension: each 16-bit instruction is expanded to the 32-bit instruction it stands for (unprivileged spec
// ch. 16, "RVC instruction set listings"), which the ordinary decoder then decodes; the pre-decoded copy keeps
// len = 2. Floating-point forms expand to their F/D instructions, which this simulator does not implement (they
// stop with a message like any unknown instruction).
#include "rv/core.hpp"

namespace cryptaccel::rv {

namespace {
constexpr std::uint32_t bit(std::uint32_t h, unsigned n) { return (h >> n) & 1u; }
constexpr std::uint32_t bits(std::uint32_t h, unsigned hi, unsigned lo) { return (h >> lo) & ((1u << (hi - lo + 1)) - 1); }
/// Sign-extends the low `n` bits.
constexpr std::int32_t sext(std::uint32_t v, unsigned n) {
  return static_cast<std::int32_t>(v << (32 - n)) >> (32 - n);
}

constexpr std::uint32_t enc_r(std::uint32_t op, std::uint32_t rd, std::uint32_t f3, std::uint32_t rs1,
                              std::uint32_t rs2, std::uint32_t f7) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
constexpr std::uint32_t enc_i(std::uint32_t op, std::uint32_t rd, std::uint32_t f3, std::uint32_t rs1, std::int32_t imm) {
  return (static_cast<std::uint32_t>(imm) & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
constexpr std::uint32_t enc_s(std::uint32_t op, std::uint32_t f3, std::uint32_t rs1, std::uint32_t rs2, std::int32_t imm) {
  const auto u = static_cast<std::uint32_t>(imm);
  return ((u >> 5) & 0x7F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | op;
}
constexpr std::uint32_t enc_b(std::uint32_t f3, std::uint32_t rs1, std::uint32_t rs2, std::int32_t imm) {
  const auto u = static_cast<std::uint32_t>(imm);
  return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | ((u >> 1) & 0xF) << 8 |
         ((u >> 11) & 1) << 7 | 0x63;
}
constexpr std::uint32_t enc_j(std::uint32_t rd, std::int32_t imm) {
  const auto u = static_cast<std::uint32_t>(imm);
  return ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3FF) << 21 | ((u >> 11) & 1) << 20 | ((u >> 12) & 0xFF) << 12 |
         rd << 7 | 0x6F;
}
}  // namespace

std::uint32_t expand_compressed(std::uint16_t half, unsigned xlen) {
  const std::uint32_t h = half;
  const bool rv64 = xlen == 64;
  const std::uint32_t f3 = bits(h, 15, 13);
  const std::uint32_t rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);
  const std::uint32_t rdp = 8 + bits(h, 4, 2), rs1p = 8 + bits(h, 9, 7);  // the 3-bit x8..x15 fields
  const std::int32_t imm6 = sext(bit(h, 12) << 5 | bits(h, 6, 2), 6);
  const std::uint32_t uimm_w = bits(h, 12, 10) << 3 | bit(h, 6) << 2 | bit(h, 5) << 6;  // c.lw/c.sw/c.flw/c.fsw
  const std::uint32_t uimm_d = bits(h, 12, 10) << 3 | bits(h, 6, 5) << 6;                // c.ld/c.sd/c.fld/c.fsd
  const std::uint32_t shamt = bit(h, 12) << 5 | bits(h, 6, 2);

  switch (h & 3) {
    case 0:
      switch (f3) {
        case 0: {  // c.addi4spn
          const std::uint32_t nz = bits(h, 12, 11) << 4 | bits(h, 10, 7) << 6 | bit(h, 6) << 2 | bit(h, 5) << 3;
          if (nz == 0) return 0;  // includes the all-zero illegal instruction
          return enc_i(0x13, rdp, 0, 2, static_cast<std::int32_t>(nz));
        }
        case 1: return enc_i(0x07, rdp, 3, rs1p, static_cast<std::int32_t>(uimm_d));  // c.fld
        case 2: return enc_i(0x03, rdp, 2, rs1p, static_cast<std::int32_t>(uimm_w));  // c.lw
        case 3:
          return rv64 ? enc_i(0x03, rdp, 3, rs1p, static_cast<std::int32_t>(uimm_d))   // c.ld
                      : enc_i(0x07, rdp, 2, rs1p, static_cast<std::int32_t>(uimm_w));  // c.flw
        case 5: return enc_s(0x27, 3, rs1p, rdp, static_cast<std::int32_t>(uimm_d));  // c.fsd
        case 6: return enc_s(0x23, 2, rs1p, rdp, static_cast<std::int32_t>(uimm_w));  // c.sw
        case 7:
          return rv64 ? enc_s(0x23, 3, rs1p, rdp, static_cast<std::int32_t>(uimm_d))   // c.sd
                      : enc_s(0x27, 2, rs1p, rdp, static_cast<std::int32_t>(uimm_w));  // c.fsw
        default: return 0;
      }
    case 1:
      switch (f3) {
        case 0: return enc_i(0x13, rd, 0, rd, imm6);  // c.addi, c.nop
        case 1:
          if (!rv64) {  // c.jal
            const std::int32_t off = sext(bit(h, 12) << 11 | bit(h, 11) << 4 | bits(h, 10, 9) << 8 | bit(h, 8) << 10 |
                                              bit(h, 7) << 6 | bit(h, 6) << 7 | bits(h, 5, 3) << 1 | bit(h, 2) << 5,
                                          12);
            return enc_j(1, off);
          }
          if (rd == 0) return 0;
          return enc_i(0x1B, rd, 0, rd, imm6);  // c.addiw
        case 2: return enc_i(0x13, rd, 0, 0, imm6);  // c.li
        case 3:
          if (rd == 2) {  // c.addi16sp
            const std::int32_t nz =
                sext(bit(h, 12) << 9 | bit(h, 6) << 4 | bit(h, 5) << 6 | bits(h, 4, 3) << 7 | bit(h, 2) << 5, 10);
            if (nz == 0) return 0;
            return enc_i(0x13, 2, 0, 2, nz);
          } else {  // c.lui
            const std::int32_t nz = sext(bit(h, 12) << 17 | bits(h, 6, 2) << 12, 18);
            if (nz == 0) return 0;
            return (static_cast<std::uint32_t>(nz) & 0xFFFFF000u) | rd << 7 | 0x37;
          }
        case 4:
          switch (bits(h, 11, 10)) {
            case 0:  // c.srli
              if (!rv64 && bit(h, 12)) return 0;
              return enc_i(0x13, rs1p, 5, rs1p, static_cast<std::int32_t>(shamt));
            case 1:  // c.srai
              if (!rv64 && bit(h, 12)) return 0;
              return enc_i(0x13, rs1p, 5, rs1p, static_cast<std::int32_t>(shamt | 0x400));
            case 2: return enc_i(0x13, rs1p, 7, rs1p, imm6);  // c.andi
            default: {
              const std::uint32_t f = bits(h, 6, 5);
              if (!bit(h, 12)) {
                static constexpr std::uint32_t kF3[4] = {0, 4, 6, 7};  // c.sub, c.xor, c.or, c.and
                return enc_r(0x33, rs1p, kF3[f], rs1p, rdp, f == 0 ? 0x20 : 0);
              }
              if (!rv64 || f > 1) return 0;
              return enc_r(0x3B, rs1p, 0, rs1p, rdp, f == 0 ? 0x20 : 0);  // c.subw, c.addw
            }
          }
        case 5: {  // c.j
          const std::int32_t off = sext(bit(h, 12) << 11 | bit(h, 11) << 4 | bits(h, 10, 9) << 8 | bit(h, 8) << 10 |
                                            bit(h, 7) << 6 | bit(h, 6) << 7 | bits(h, 5, 3) << 1 | bit(h, 2) << 5,
                                        12);
          return enc_j(0, off);
        }
        default: {  // c.beqz, c.bnez
          const std::int32_t off =
              sext(bit(h, 12) << 8 | bits(h, 11, 10) << 3 | bits(h, 6, 5) << 6 | bits(h, 4, 3) << 1 | bit(h, 2) << 5, 9);
          return enc_b(f3 == 6 ? 0 : 1, rs1p, 0, off);
        }
      }
    case 2:
      switch (f3) {
        case 0:  // c.slli
          if (!rv64 && bit(h, 12)) return 0;
          return enc_i(0x13, rd, 1, rd, static_cast<std::int32_t>(shamt));
        case 1:  // c.fldsp
          return enc_i(0x07, rd, 3, 2, static_cast<std::int32_t>(bit(h, 12) << 5 | bits(h, 6, 5) << 3 | bits(h, 4, 2) << 6));
        case 2:  // c.lwsp
          if (rd == 0) return 0;
          return enc_i(0x03, rd, 2, 2, static_cast<std::int32_t>(bit(h, 12) << 5 | bits(h, 6, 4) << 2 | bits(h, 3, 2) << 6));
        case 3:
          if (rv64) {  // c.ldsp
            if (rd == 0) return 0;
            return enc_i(0x03, rd, 3, 2, static_cast<std::int32_t>(bit(h, 12) << 5 | bits(h, 6, 5) << 3 | bits(h, 4, 2) << 6));
          }
          return enc_i(0x07, rd, 2, 2, static_cast<std::int32_t>(bit(h, 12) << 5 | bits(h, 6, 4) << 2 | bits(h, 3, 2) << 6));
        case 4:
          if (!bit(h, 12)) {
            if (rs2 == 0) return rd == 0 ? 0 : enc_i(0x67, 0, 0, rd, 0);  // c.jr
            return enc_r(0x33, rd, 0, 0, rs2, 0);                          // c.mv
          }
          if (rd == 0 && rs2 == 0) return 0x00100073;          // c.ebreak
          if (rs2 == 0) return enc_i(0x67, 1, 0, rd, 0);       // c.jalr
          return enc_r(0x33, rd, 0, rd, rs2, 0);               // c.add
        case 5:  // c.fsdsp
          return enc_s(0x27, 3, 2, rs2, static_cast<std::int32_t>(bits(h, 12, 10) << 3 | bits(h, 9, 7) << 6));
        case 6:  // c.swsp
          return enc_s(0x23, 2, 2, rs2, static_cast<std::int32_t>(bits(h, 12, 9) << 2 | bits(h, 8, 7) << 6));
        default:
          if (rv64)  // c.sdsp
            return enc_s(0x23, 3, 2, rs2, static_cast<std::int32_t>(bits(h, 12, 10) << 3 | bits(h, 9, 7) << 6));
          return enc_s(0x27, 2, 2, rs2, static_cast<std::int32_t>(bits(h, 12, 9) << 2 | bits(h, 8, 7) << 6));  // c.fswsp
      }
    default: return 0;  // not compressed
  }
}

}  // namespace cryptaccel::rv

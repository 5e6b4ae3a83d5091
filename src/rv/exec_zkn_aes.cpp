// Zkne/Zknd semantics (scalar crypto spec v1.0.1 §2.5-2.6). S-boxes are the library's (algo/sbox_tables.hpp);
// the AES state layout follows FIPS-197: byte i of the 128-bit state (rs2:rs1 for aes64*) is row i % 4 of
// column i / 4, and the aes64* instructions produce columns 0 and 1 (the low 64 bits) of the round output.
#include "algo/sbox_tables.hpp"
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
const algo::ByteTable& kSbox = algo::aes_sbox_table();
const algo::ByteTable& kInvSbox = algo::aes_inv_sbox_table();

std::uint8_t xtime(std::uint8_t b) { return static_cast<std::uint8_t>((b << 1) ^ ((b >> 7) * 0x1B)); }
/// Multiplication in GF(2^8) mod x^8+x^4+x^3+x+1 by a small constant.
std::uint8_t gfmul(std::uint8_t b, unsigned k) {
  std::uint8_t r = 0;
  for (; k; k >>= 1, b = xtime(b))
    if (k & 1) r ^= b;
  return r;
}
/// MixColumns of one column (bytes little-endian in a word: row 0 in bits 7..0).
std::uint32_t mix_column(std::uint32_t col) {
  std::uint8_t a[4], r[4];
  for (int i = 0; i < 4; ++i) a[i] = static_cast<std::uint8_t>(col >> (8 * i));
  for (int i = 0; i < 4; ++i)
    r[i] = static_cast<std::uint8_t>(gfmul(a[i], 2) ^ gfmul(a[(i + 1) & 3], 3) ^ a[(i + 2) & 3] ^ a[(i + 3) & 3]);
  return std::uint32_t{r[0]} | std::uint32_t{r[1]} << 8 | std::uint32_t{r[2]} << 16 | std::uint32_t{r[3]} << 24;
}
/// InvMixColumns of one column.
std::uint32_t inv_mix_column(std::uint32_t col) {
  std::uint8_t a[4], r[4];
  for (int i = 0; i < 4; ++i) a[i] = static_cast<std::uint8_t>(col >> (8 * i));
  for (int i = 0; i < 4; ++i)
    r[i] = static_cast<std::uint8_t>(gfmul(a[i], 14) ^ gfmul(a[(i + 1) & 3], 11) ^ gfmul(a[(i + 2) & 3], 13) ^
                                     gfmul(a[(i + 3) & 3], 9));
  return std::uint32_t{r[0]} | std::uint32_t{r[1]} << 8 | std::uint32_t{r[2]} << 16 | std::uint32_t{r[3]} << 24;
}

/// aes32*: one byte of rs2 (selected by bs) through the S-box, optionally through one column of (Inv)MixColumns,
/// rotated back to byte position bs and XORed into rs1.
template <bool Decrypt, bool Mix>
std::uint32_t aes32(std::uint32_t rs1, std::uint32_t rs2, unsigned bs) {
  const unsigned shamt = 8 * bs;
  const std::uint8_t si = static_cast<std::uint8_t>(rs2 >> shamt);
  const std::uint8_t so = Decrypt ? kInvSbox[si] : kSbox[si];
  std::uint32_t mixed;
  if constexpr (!Mix) mixed = so;
  else if constexpr (Decrypt)  // {0e, 09, 0d, 0b}·so in rows 0..3
    mixed = std::uint32_t{gfmul(so, 14)} | std::uint32_t{gfmul(so, 9)} << 8 | std::uint32_t{gfmul(so, 13)} << 16 |
            std::uint32_t{gfmul(so, 11)} << 24;
  else  // {02, 01, 01, 03}·so
    mixed = std::uint32_t{gfmul(so, 2)} | std::uint32_t{so} << 8 | std::uint32_t{so} << 16 |
            std::uint32_t{gfmul(so, 3)} << 24;
  return rs1 ^ std::rotl(mixed, static_cast<int>(shamt));
}

/// aes64*: (Inv)ShiftRows then (Inv)SubBytes of the 128-bit state hi:lo, low 64 bits (columns 0 and 1).
template <bool Decrypt>
std::uint64_t aes64_sub_shift(std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t r = 0;
  for (unsigned b = 0; b < 8; ++b) {
    const unsigned col = b / 4, row = b % 4;
    // ShiftRows: new[row][col] = old[row][col + row]; InvShiftRows: old[row][col - row] (mod 4).
    const unsigned src_col = Decrypt ? (col + 4 - row) % 4 : (col + row) % 4;
    const unsigned src = 4 * src_col + row;
    const std::uint8_t v = static_cast<std::uint8_t>((src < 8 ? lo >> (8 * src) : hi >> (8 * (src - 8))));
    r |= std::uint64_t{Decrypt ? kInvSbox[v] : kSbox[v]} << (8 * b);
  }
  return r;
}
std::uint64_t mix64(std::uint64_t v, std::uint32_t (*f)(std::uint32_t)) {
  return std::uint64_t{f(static_cast<std::uint32_t>(v))} | std::uint64_t{f(static_cast<std::uint32_t>(v >> 32))} << 32;
}
}  // namespace

// RV32 (results sign-extended: only decoded on RV32, where that is the identity).
RV_EXEC(aes32esi) { SET_RD(SEXT32((aes32<false, false>(RS1, RS2, d.imm)))); return NEXT; }
RV_EXEC(aes32esmi) { SET_RD(SEXT32((aes32<false, true>(RS1, RS2, d.imm)))); return NEXT; }
RV_EXEC(aes32dsi) { SET_RD(SEXT32((aes32<true, false>(RS1, RS2, d.imm)))); return NEXT; }
RV_EXEC(aes32dsmi) { SET_RD(SEXT32((aes32<true, true>(RS1, RS2, d.imm)))); return NEXT; }

// RV64.
RV_EXEC(aes64es) { SET_RD(aes64_sub_shift<false>(c.x[d.rs1], c.x[d.rs2])); return NEXT; }
RV_EXEC(aes64esm) { SET_RD(mix64(aes64_sub_shift<false>(c.x[d.rs1], c.x[d.rs2]), mix_column)); return NEXT; }
RV_EXEC(aes64ds) { SET_RD(aes64_sub_shift<true>(c.x[d.rs1], c.x[d.rs2])); return NEXT; }
RV_EXEC(aes64dsm) { SET_RD(mix64(aes64_sub_shift<true>(c.x[d.rs1], c.x[d.rs2]), inv_mix_column)); return NEXT; }
RV_EXEC(aes64im) { SET_RD(mix64(c.x[d.rs1], inv_mix_column)); return NEXT; }
/// aes64ks1i: SubWord(RotWord(rs1[63:32])) ^ rcon[rnum] in both halves; rnum = 10 skips the rotation and rcon
/// (the AES-256 odd step). rnum > 10 is reserved and rejected by the decoder.
RV_EXEC(aes64ks1i) {
  static constexpr std::uint8_t kRcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36};
  const unsigned rnum = static_cast<unsigned>(d.imm);
  std::uint32_t t = static_cast<std::uint32_t>(c.x[d.rs1] >> 32);
  if (rnum != 10) t = std::rotr(t, 8);
  std::uint32_t s = 0;
  for (int i = 0; i < 4; ++i) s |= std::uint32_t{kSbox[(t >> (8 * i)) & 0xFF]} << (8 * i);
  if (rnum < 10) s ^= kRcon[rnum];
  SET_RD(std::uint64_t{s} << 32 | s);
  return NEXT;
}
/// aes64ks2: w0 = rs1[63:32] ^ rs2[31:0]; w1 = w0 ^ rs2[63:32]; rd = w1:w0.
RV_EXEC(aes64ks2) {
  const std::uint64_t a = c.x[d.rs1], b = c.x[d.rs2];
  const std::uint32_t w0 = static_cast<std::uint32_t>(a >> 32) ^ static_cast<std::uint32_t>(b);
  const std::uint32_t w1 = w0 ^ static_cast<std::uint32_t>(b >> 32);
  SET_RD(std::uint64_t{w1} << 32 | w0);
  return NEXT;
}

RV_INSTANTIATE(aes32esi) RV_INSTANTIATE(aes32esmi) RV_INSTANTIATE(aes32dsi) RV_INSTANTIATE(aes32dsmi)
RV_INSTANTIATE(aes64es) RV_INSTANTIATE(aes64esm) RV_INSTANTIATE(aes64ds) RV_INSTANTIATE(aes64dsm) RV_INSTANTIATE(aes64im)
RV_INSTANTIATE(aes64ks1i) RV_INSTANTIATE(aes64ks2)

}  // namespace cryptaccel::rv

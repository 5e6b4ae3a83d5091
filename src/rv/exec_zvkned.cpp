// Zvkned semantics (vector crypto spec v1.0, "Zvkned"): AES rounds on 128-bit element groups (EGS = 4, SEW = 32),
// byte k of a group being byte k of the FIPS-197 state (what vle32.v of the block gives). vd holds the state,
// vs2 the round key: one per group (.vv) or element group 0 for all (.vs). The round steps are the library's
// bitsliced AES functions (algo/aes_bitsliced.hpp) on one block; the key-schedule S-box is algo's table.
#include "algo/aes_bitsliced.hpp"
#include "algo/sbox_tables.hpp"
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
using W = std::uint32_t;  // bit-planes of one 16-byte block (the upper lane stays zero)
enum class Round { ef, em, df, dm, z };

/// One round of kind `k` on the 16-byte state with the 16-byte round key.
void aes_round(std::uint8_t* state, const std::uint8_t* key, Round k) {
  W s[8], rk[8];
  algo::bytes_to_planes(state, 16, s);
  algo::bytes_to_planes(key, 16, rk);
  switch (k) {
    case Round::ef:  // SubBytes, ShiftRows, AddRoundKey
    case Round::em:  // ... with MixColumns before AddRoundKey
      algo::aes_sbox_planes(s);
      for (auto& p : s) p = algo::aes_shift_rows_plane(p);
      if (k == Round::em) algo::aes_mix_columns_planes(s);
      algo::aes_add_round_key(s, rk);
      break;
    case Round::df:  // InvShiftRows, InvSubBytes, AddRoundKey
    case Round::dm:  // ... then InvMixColumns
      for (auto& p : s) p = algo::aes_inv_shift_rows_plane(p);
      algo::aes_inv_sbox_planes(s);
      algo::aes_add_round_key(s, rk);
      if (k == Round::dm) algo::aes_inv_mix_columns_planes(s);
      break;
    case Round::z:
      algo::aes_add_round_key(s, rk);
      break;
  }
  algo::planes_to_bytes(s, 16, state);
}

template <class X>
std::uint64_t round_insn(Core& c, const Insn& d, std::uint64_t pc, Round k, bool vs_form) {
  V_EG_BEGIN(4, vs_form, vs_form, false)
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d);
  for (std::uint64_t g = v.vstart / 4; g < v.vl / 4; ++g)
    aes_round(vec::eg_ptr(c, vd, g, 16), vec::eg_ptr(c, vs2, vs_form ? 0 : g, 16), k);
  vec::eg_timing(c, d, v, rules, vec::regs(vd, v.group) | vec::regs(vs2, vs_form ? 1 : v.group), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}

std::uint32_t sub_word(std::uint32_t w) {
  const algo::ByteTable& sbox = algo::aes_sbox_table();
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= std::uint32_t{sbox[(w >> (8 * i)) & 0xFF]} << (8 * i);
  return r;
}
constexpr std::uint8_t kRcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36};

/// vaeskf1.vi (AES-128, round 1..10) and vaeskf2.vi (AES-256, round 2..14): the next round key of each group.
/// Out-of-range round numbers have bit 3 inverted (the spec's rule). Words are little-endian, so RotWord is a
/// rotation right by 8 and rcon goes into the low byte.
template <class X, bool Aes256>
std::uint64_t keyfwd(Core& c, const Insn& d, std::uint64_t pc) {
  V_EG_BEGIN(4, false, false, false)
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d);
  unsigned rnd = vec::uimm5(d);
  if (Aes256 ? (rnd < 2 || rnd > 14) : (rnd == 0 || rnd > 10)) rnd ^= 8;
  for (std::uint64_t g = v.vstart / 4; g < v.vl / 4; ++g) {
    const std::uint8_t* cur = vec::eg_ptr(c, vs2, g, 16);
    std::uint8_t* out = vec::eg_ptr(c, vd, g, 16);
    const std::uint32_t w3 = vec::eg_word(cur, 3);
    std::uint32_t w[4];
    if constexpr (!Aes256) {
      w[0] = vec::eg_word(cur, 0) ^ sub_word(std::rotr(w3, 8)) ^ kRcon[rnd - 1];
      for (unsigned i = 1; i < 4; ++i) w[i] = w[i - 1] ^ vec::eg_word(cur, i);
    } else {
      const std::uint32_t t = (rnd & 1) ? sub_word(w3) : sub_word(std::rotr(w3, 8)) ^ kRcon[rnd / 2 - 1];
      w[0] = vec::eg_word(out, 0) ^ t;  // vd holds round key rnd - 2
      for (unsigned i = 1; i < 4; ++i) w[i] = w[i - 1] ^ vec::eg_word(out, i);
    }
    for (unsigned i = 0; i < 4; ++i) vec::set_eg_word(out, i, w[i]);
  }
  vec::eg_timing(c, d, v, rules, vec::regs(vs2, v.group) | (Aes256 ? vec::regs(vd, v.group) : 0), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}
}  // namespace

RV_EXEC(vaesef_vv) { return round_insn<X>(c, d, pc, Round::ef, false); }
RV_EXEC(vaesef_vs) { return round_insn<X>(c, d, pc, Round::ef, true); }
RV_EXEC(vaesem_vv) { return round_insn<X>(c, d, pc, Round::em, false); }
RV_EXEC(vaesem_vs) { return round_insn<X>(c, d, pc, Round::em, true); }
RV_EXEC(vaesdf_vv) { return round_insn<X>(c, d, pc, Round::df, false); }
RV_EXEC(vaesdf_vs) { return round_insn<X>(c, d, pc, Round::df, true); }
RV_EXEC(vaesdm_vv) { return round_insn<X>(c, d, pc, Round::dm, false); }
RV_EXEC(vaesdm_vs) { return round_insn<X>(c, d, pc, Round::dm, true); }
RV_EXEC(vaesz_vs) { return round_insn<X>(c, d, pc, Round::z, true); }
RV_EXEC(vaeskf1_vi) { return keyfwd<X, false>(c, d, pc); }
RV_EXEC(vaeskf2_vi) { return keyfwd<X, true>(c, d, pc); }

RV_INSTANTIATE(vaesef_vv) RV_INSTANTIATE(vaesef_vs) RV_INSTANTIATE(vaesem_vv) RV_INSTANTIATE(vaesem_vs)
RV_INSTANTIATE(vaesdf_vv) RV_INSTANTIATE(vaesdf_vs) RV_INSTANTIATE(vaesdm_vv) RV_INSTANTIATE(vaesdm_vs)
RV_INSTANTIATE(vaesz_vs) RV_INSTANTIATE(vaeskf1_vi) RV_INSTANTIATE(vaeskf2_vi)

}  // namespace cryptaccel::rv

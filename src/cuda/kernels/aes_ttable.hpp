// T-table AES for the GPU's "ttable" variant (engine `cuda-ttable`). NOT CONSTANT TIME: table indices are key- and
// data-dependent, so shared-memory access timing can leak the key to code sharing the GPU. The constant-time
// bitsliced kernel is the default; this one exists because it is what GPU AES papers measure.
//
// One table per direction: Te[x] = (2·S(x), S(x), S(x), 3·S(x)) and Td[x] = (14·S⁻¹(x), 9·S⁻¹(x), 13·S⁻¹(x),
// 11·S⁻¹(x)) as little-endian column words (row r in byte r); the other three classic tables are byte rotations of
// these (__byte_perm on the device). The last round reads S(x) from byte 1 of Te and S⁻¹(x) from its own table.
// On the device each table is copied into shared memory 32 times, entry x of lane l at [x * 32 + l], so that every
// lane of a warp reads its own bank (no bank conflicts whatever the indices); TtableView says where the copies are.
// Decryption uses the equivalent inverse cipher (FIPS-197 §5.3.5): round keys 1..Nr-1 through InvMixColumns.
#pragma once
#include <cstdint>

#include "algo/aes_key_schedule.hpp"
#include "algo/bits.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::cuda {

/// Where the tables are: entry x of this lane's copy is at table[x * stride + lane].
struct TtableView {
  const std::uint32_t* te;
  const std::uint32_t* td;
  const std::uint32_t* inv_sbox;  ///< S⁻¹(x) in the low byte
  unsigned stride;
  unsigned lane;
};

/// Expanded T-table key: encryption round keys and the equivalent inverse cipher's, as column words.
struct TtableKey {
  std::uint32_t ek[60];
  std::uint32_t dk[60];
  int rounds;
};

/// Rotations of a column word by whole rows (byte r moves to byte r + k).
CA_HD std::uint32_t col_rot8(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, x, 0x2103);
#else
  return (x << 8) | (x >> 24);
#endif
}
CA_HD std::uint32_t col_rot16(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, x, 0x1032);
#else
  return (x << 16) | (x >> 16);
#endif
}
CA_HD std::uint32_t col_rot24(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, x, 0x0321);
#else
  return (x << 24) | (x >> 8);
#endif
}


/// Expands a 16/24/32-byte key (constant-time schedule from src/algo) into the T-table key.
CA_HD void ttable_expand_key(const std::uint8_t* key, int key_len, TtableKey& out) {
  algo::AesRoundKeys rk;
  algo::aes_expand_key(key, key_len, rk);
  const int nr = rk.rounds;
  out.rounds = nr;
  for (int r = 0; r <= nr; ++r)
    for (int c = 0; c < 4; ++c) out.ek[4 * r + c] = algo::load_le32(&rk.bytes[r][4 * c]);
  for (int c = 0; c < 4; ++c) {
    out.dk[c] = out.ek[4 * nr + c];
    out.dk[4 * nr + c] = out.ek[c];
  }
  for (int r = 1; r < nr; ++r)
    for (int c = 0; c < 4; ++c) out.dk[4 * r + c] = algo::aes_inv_mix_column(out.ek[4 * (nr - r) + c]);
  for (int r = 0; r <= nr; ++r)
    for (int k = 0; k < 16; ++k) rk.bytes[r][k] = 0;
}

CA_HD std::uint32_t tt_te(const TtableView& t, std::uint32_t x) { return t.te[(x & 0xFFu) * t.stride + t.lane]; }
CA_HD std::uint32_t tt_td(const TtableView& t, std::uint32_t x) { return t.td[(x & 0xFFu) * t.stride + t.lane]; }
CA_HD std::uint32_t tt_is(const TtableView& t, std::uint32_t x) { return t.inv_sbox[(x & 0xFFu) * t.stride + t.lane]; }

/// Encrypts one 16-byte block.
CA_HD void ttable_encrypt_block(const TtableView& t, const TtableKey& k, const std::uint8_t* in, std::uint8_t* out) {
  std::uint32_t s[4], u[4];
  for (int c = 0; c < 4; ++c) s[c] = algo::load_le32(in + 4 * c) ^ k.ek[c];
  for (int r = 1; r < k.rounds; ++r) {
    for (int c = 0; c < 4; ++c)
      u[c] = tt_te(t, s[c]) ^ col_rot8(tt_te(t, s[(c + 1) & 3] >> 8)) ^ col_rot16(tt_te(t, s[(c + 2) & 3] >> 16)) ^
             col_rot24(tt_te(t, s[(c + 3) & 3] >> 24)) ^ k.ek[4 * r + c];
    for (int c = 0; c < 4; ++c) s[c] = u[c];
  }
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t w = ((tt_te(t, s[c]) >> 8) & 0xFFu) | (tt_te(t, s[(c + 1) & 3] >> 8) & 0xFF00u) |
                            ((tt_te(t, s[(c + 2) & 3] >> 16) << 8) & 0xFF0000u) |
                            ((tt_te(t, s[(c + 3) & 3] >> 24) << 16) & 0xFF000000u);
    algo::store_le32(out + 4 * c, w ^ k.ek[4 * k.rounds + c]);
  }
}

/// Decrypts one 16-byte block (equivalent inverse cipher).
CA_HD void ttable_decrypt_block(const TtableView& t, const TtableKey& k, const std::uint8_t* in, std::uint8_t* out) {
  std::uint32_t s[4], u[4];
  for (int c = 0; c < 4; ++c) s[c] = algo::load_le32(in + 4 * c) ^ k.dk[c];
  for (int r = 1; r < k.rounds; ++r) {
    for (int c = 0; c < 4; ++c)
      u[c] = tt_td(t, s[c]) ^ col_rot8(tt_td(t, s[(c + 3) & 3] >> 8)) ^ col_rot16(tt_td(t, s[(c + 2) & 3] >> 16)) ^
             col_rot24(tt_td(t, s[(c + 1) & 3] >> 24)) ^ k.dk[4 * r + c];
    for (int c = 0; c < 4; ++c) s[c] = u[c];
  }
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t w = (tt_is(t, s[c]) & 0xFFu) | ((tt_is(t, s[(c + 3) & 3] >> 8) & 0xFFu) << 8) |
                            ((tt_is(t, s[(c + 2) & 3] >> 16) & 0xFFu) << 16) |
                            ((tt_is(t, s[(c + 1) & 3] >> 24) & 0xFFu) << 24);
    algo::store_le32(out + 4 * c, w ^ k.dk[4 * k.rounds + c]);
  }
}

/// The three tables (256 entries each), built on the host from the library's constant-time S-box definitions.
struct TtableTables {
  std::uint32_t te[256];
  std::uint32_t td[256];
  std::uint32_t inv_sbox[256];
};

/// The tables, computed once (host only).
const TtableTables& ttable_tables();

}  // namespace cryptaccel::cuda

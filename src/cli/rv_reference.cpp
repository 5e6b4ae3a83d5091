#include "rv_reference.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "algo/aes_key_schedule.hpp"
#include "algo/bits.hpp"
#include "algo/keccak.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"

namespace cryptaccel::cli::rvlab {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// GF(2^8) multiplication modulo x^8 + x^4 + x^3 + x + 1, without branches on the operands (the schedule bytes are
/// key material).
std::uint8_t gf_mul(std::uint8_t a, std::uint8_t b) {
  std::uint8_t r = 0;
  for (int i = 0; i < 8; ++i) {
    r ^= static_cast<std::uint8_t>(-((b >> i) & 1) & a);
    a = static_cast<std::uint8_t>((a << 1) ^ (-(a >> 7) & 0x1B));
  }
  return r;
}

/// InvMixColumns of one 16-byte round key (four columns of four bytes), in place.
void inv_mix_columns(std::uint8_t* block) {
  for (int c = 0; c < 4; ++c) {
    std::uint8_t* col = block + 4 * c;
    const std::uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
    col[0] = gf_mul(a0, 14) ^ gf_mul(a1, 11) ^ gf_mul(a2, 13) ^ gf_mul(a3, 9);
    col[1] = gf_mul(a0, 9) ^ gf_mul(a1, 14) ^ gf_mul(a2, 11) ^ gf_mul(a3, 13);
    col[2] = gf_mul(a0, 13) ^ gf_mul(a1, 9) ^ gf_mul(a2, 14) ^ gf_mul(a3, 11);
    col[3] = gf_mul(a0, 11) ^ gf_mul(a1, 13) ^ gf_mul(a2, 9) ^ gf_mul(a3, 14);
  }
}

}  // namespace

bytes reference_cipher(const std::string& algorithm, const std::string& mode, bool decrypt, bytes_view key,
                       bytes_view iv, bytes_view data) {
  // "AES-256" + "ctr" -> "aes-256-ctr"; "SM4" + "ecb" -> "sm4-ecb".
  CipherSpec spec = CipherSpec::parse(lower(algorithm) + "-" + mode);
  spec.padding = false;
  CipherParams params;
  params.key = key;
  if (spec.mode != Mode::ecb) params.iv = iv;
  return decrypt ? cryptaccel::decrypt(spec, params, data, "ref") : cryptaccel::encrypt(spec, params, data, "ref");
}

bytes reference_gcm(const std::string& algorithm, bytes_view key, bytes_view iv, bytes_view aad, bytes_view plaintext) {
  const CipherSpec spec = CipherSpec::parse(lower(algorithm));  // "aes-128-gcm"
  CipherParams params;
  params.key = key;
  params.iv = iv;
  params.aad = aad;
  params.tag_len = 16;
  return cryptaccel::encrypt(spec, params, plaintext, "ref");
}

bytes reference_hash(const std::string& algorithm, bytes_view message) {
  return cryptaccel::hash(parse_hash(algorithm), message, 0, "ref");
}

bytes reference_xof(const std::string& algorithm, bytes_view message, std::size_t outlen) {
  return cryptaccel::hash(parse_hash(algorithm), message, outlen, "ref");
}

bytes reference_keccak_p(bytes_view states, unsigned rounds) {
  if (rounds < 1 || rounds > 24) {
    throw std::invalid_argument("Keccak-p rounds must be 1..24, got " + std::to_string(rounds));
  }
  if (states.size() % 200 != 0) throw std::invalid_argument("Keccak states are 200 bytes each");
  std::vector<KeccakState> batch(states.size() / 200);
  for (std::size_t s = 0; s < batch.size(); ++s)
    for (std::size_t i = 0; i < 25; ++i) batch[s][i] = algo::load_le64(states.data() + 200 * s + 8 * i);
  if (rounds == 24) {
    keccak_f1600_batch(std::span<KeccakState>(batch), "ref");
  } else {
    for (KeccakState& a : batch)
      for (unsigned r = 24 - rounds; r < 24; ++r) algo::keccak_round(a.data(), CA_TABLE(algo::kKeccakRc)[r]);
  }
  bytes out(states.size());
  for (std::size_t s = 0; s < batch.size(); ++s)
    for (std::size_t i = 0; i < 25; ++i) algo::store_le64(out.data() + 200 * s + 8 * i, batch[s][i]);
  return out;
}

bytes reference_aes_schedule(bytes_view key, bool decryption) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32) {
    throw std::invalid_argument("AES key of " + std::to_string(key.size()) + " bytes");
  }
  algo::AesRoundKeys rk{};
  algo::aes_expand_key(key.data(), static_cast<int>(key.size()), rk);
  if (decryption) {
    for (int r = 1; r < rk.rounds; ++r) inv_mix_columns(rk.bytes[r]);
  }
  bytes out(&rk.bytes[0][0], &rk.bytes[0][0] + 16 * (rk.rounds + 1));
  secure_wipe(&rk, sizeof rk);
  return out;
}

}  // namespace cryptaccel::cli::rvlab

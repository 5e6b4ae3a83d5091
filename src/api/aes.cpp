#include "cryptaccel/aes.hpp"

#include "algo/aes_bitsliced.hpp"
#include "algo/aes_key_schedule.hpp"
#include "algo/bits.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel {

struct Aes::Schedule {
  algo::AesPlaneKeys<std::uint64_t> planes;
  ~Schedule() { secure_wipe(&planes, sizeof planes); }
};

Aes::Aes(bytes_view key) : schedule_(std::make_unique<Schedule>()) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32)
    throw InvalidArgument("invalid AES key length " + std::to_string(key.size()) + " (expected 16, 24 or 32 bytes)");
  algo::AesRoundKeys bytes;
  algo::aes_expand_key(key.data(), static_cast<int>(key.size()), bytes);
  algo::aes_plane_keys(bytes, schedule_->planes);
  secure_wipe(&bytes, sizeof bytes);
}

Aes::~Aes() = default;

bytes aes_round_keys(bytes_view key, bool equivalent_inverse) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32)
    throw InvalidArgument("invalid AES key length " + std::to_string(key.size()) + " (expected 16, 24 or 32 bytes)");
  algo::AesRoundKeys rk;
  algo::aes_expand_key(key.data(), static_cast<int>(key.size()), rk);
  bytes out(&rk.bytes[0][0], &rk.bytes[0][0] + 16 * (rk.rounds + 1));
  secure_wipe(&rk, sizeof rk);
  if (equivalent_inverse) {
    for (std::size_t at = 16; at + 16 < out.size(); at += 4)  // round keys 1 .. rounds-1, column by column
      algo::store_le32(out.data() + at, algo::aes_inv_mix_column(algo::load_le32(out.data() + at)));
  }
  return out;
}

int Aes::rounds() const { return schedule_->planes.rounds; }

namespace {
template <class Fn>
void for_each_lane_group(bytes_view in, mutable_bytes out, Fn fn) {
  if (in.size() % 16 || in.size() != out.size())
    throw InvalidArgument("AES block input must be a multiple of 16 bytes and equal in size to the output");
  constexpr std::size_t lanes = algo::kAesLanes<std::uint64_t>;
  const std::size_t blocks = in.size() / 16;
  for (std::size_t b = 0; b < blocks; b += lanes) fn(in.data() + 16 * b, out.data() + 16 * b, static_cast<int>(std::min(lanes, blocks - b)));
}
}  // namespace

void Aes::encrypt_blocks(bytes_view in, mutable_bytes out) const {
  for_each_lane_group(in, out, [&](const std::uint8_t* i, std::uint8_t* o, int n) {
    algo::aes_encrypt_blocks_bitsliced(schedule_->planes, i, o, n);
  });
}

void Aes::decrypt_blocks(bytes_view in, mutable_bytes out) const {
  for_each_lane_group(in, out, [&](const std::uint8_t* i, std::uint8_t* o, int n) {
    algo::aes_decrypt_blocks_bitsliced(schedule_->planes, i, o, n);
  });
}

}  // namespace cryptaccel

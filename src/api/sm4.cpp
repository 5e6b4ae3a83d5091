#include "cryptaccel/sm4.hpp"

#include <algorithm>

#include "algo/sm4.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel {

struct Sm4::Schedule {
  algo::Sm4RoundKeys keys;
  ~Schedule() { secure_wipe(&keys, sizeof keys); }
};

Sm4::Sm4(bytes_view key) : schedule_(std::make_unique<Schedule>()) {
  if (key.size() != 16) throw InvalidArgument("invalid SM4 key length " + std::to_string(key.size()) + " (expected 16 bytes)");
  algo::sm4_expand_key(key.data(), schedule_->keys);
}

Sm4::~Sm4() = default;

namespace {
void crypt(const algo::Sm4RoundKeys& keys, bool decrypt, bytes_view in, mutable_bytes out) {
  if (in.size() % 16 || in.size() != out.size())
    throw InvalidArgument("SM4 block input must be a multiple of 16 bytes and equal in size to the output");
  const std::size_t blocks = in.size() / 16;
  for (std::size_t b = 0; b < blocks; b += algo::kSm4Lanes)
    algo::sm4_crypt_blocks(keys, decrypt, in.data() + 16 * b, out.data() + 16 * b,
                           static_cast<int>(std::min<std::size_t>(algo::kSm4Lanes, blocks - b)));
}
}  // namespace

void Sm4::encrypt_blocks(bytes_view in, mutable_bytes out) const { crypt(schedule_->keys, false, in, out); }
void Sm4::decrypt_blocks(bytes_view in, mutable_bytes out) const { crypt(schedule_->keys, true, in, out); }

}  // namespace cryptaccel

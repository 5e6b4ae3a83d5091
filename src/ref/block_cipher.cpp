#include "ref/block_cipher.hpp"

#include <algorithm>

#include "algo/aes_bitsliced.hpp"
#include "algo/sm4.hpp"

namespace cryptaccel::ref {
namespace {

class AesKey final : public BlockCipherKey {
 public:
  explicit AesKey(bytes_view key) {
    algo::AesRoundKeys bytes;
    algo::aes_expand_key(key.data(), static_cast<int>(key.size()), bytes);
    algo::aes_plane_keys(bytes, planes_);
    secure_wipe(&bytes, sizeof bytes);
  }
  ~AesKey() override { secure_wipe(&planes_, sizeof planes_); }

  void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const override {
    for (std::size_t done = 0; done < nblocks; done += kLanes) {
      const int n = static_cast<int>(std::min<std::size_t>(kLanes, nblocks - done));
      algo::aes_encrypt_blocks_bitsliced(planes_, in + 16 * done, out + 16 * done, n);
    }
  }
  void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const override {
    for (std::size_t done = 0; done < nblocks; done += kLanes) {
      const int n = static_cast<int>(std::min<std::size_t>(kLanes, nblocks - done));
      algo::aes_decrypt_blocks_bitsliced(planes_, in + 16 * done, out + 16 * done, n);
    }
  }
  std::size_t parallel_blocks() const override { return kLanes; }

 private:
  static constexpr std::size_t kLanes = algo::kAesLanes<std::uint64_t>;
  algo::AesPlaneKeys<std::uint64_t> planes_;
};

class Sm4Key final : public BlockCipherKey {
 public:
  explicit Sm4Key(bytes_view key) { algo::sm4_expand_key(key.data(), keys_); }
  ~Sm4Key() override { secure_wipe(&keys_, sizeof keys_); }

  void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const override { run(false, in, out, nblocks); }
  void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const override { run(true, in, out, nblocks); }
  std::size_t parallel_blocks() const override { return algo::kSm4Lanes; }

 private:
  void run(bool decrypt, const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const {
    for (std::size_t done = 0; done < nblocks; done += algo::kSm4Lanes) {
      const int n = static_cast<int>(std::min<std::size_t>(algo::kSm4Lanes, nblocks - done));
      algo::sm4_crypt_blocks(keys_, decrypt, in + 16 * done, out + 16 * done, n);
    }
  }
  algo::Sm4RoundKeys keys_;
};

}  // namespace

std::unique_ptr<BlockCipherKey> make_block_cipher(BlockCipher cipher, bytes_view key) {
  if (cipher == BlockCipher::sm4) return std::make_unique<Sm4Key>(key);
  return std::make_unique<AesKey>(key);
}

}  // namespace cryptaccel::ref

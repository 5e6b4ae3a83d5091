// The `ref` engine's block ciphers behind one interface, so each mode is written once (src/ref/cipher_modes.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::ref {

/// A keyed 128-bit block cipher; the key schedule is wiped on destruction.
class BlockCipherKey {
 public:
  virtual ~BlockCipherKey() = default;
  /// Encrypts `nblocks` contiguous blocks; `in == out` is allowed.
  virtual void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const = 0;
  /// Decrypts `nblocks` contiguous blocks; `in == out` is allowed.
  virtual void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const = 0;
  /// Blocks the implementation processes at once; callers batch this many for speed.
  virtual std::size_t parallel_blocks() const = 0;
};

/// Constant-time (bitsliced) key for `cipher`; `key` must have block_cipher_key_size(cipher) bytes.
std::unique_ptr<BlockCipherKey> make_block_cipher(BlockCipher cipher, bytes_view key);

}  // namespace cryptaccel::ref

// cryptaccel — naming of block ciphers and modes ("aes-256-gcm", "sm4-ctr", ...).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel {

/// A 128-bit block cipher and its key size, or the ChaCha20 stream cipher (RFC 8439; only with Mode::poly1305).
enum class BlockCipher { aes128, aes192, aes256, sm4, chacha20 };

/// A mode of operation; poly1305 is RFC 8439's AEAD construction around ChaCha20 ("chacha20-poly1305").
enum class Mode { ecb, cbc, ctr, gcm, xts, poly1305 };

/// Whether an operation encrypts or decrypts.
enum class Direction { encrypt, decrypt };

/// A fully named symmetric cipher: block cipher + mode (+ padding for ECB/CBC).
struct CipherSpec {
  BlockCipher cipher = BlockCipher::aes128;
  Mode mode = Mode::ecb;
  /// PKCS#7 padding; only meaningful for ECB and CBC (openssl enc pads by default).
  bool padding = true;

  /// Parses "aes-128-cbc", "AES-256-GCM", "sm4-ctr", "aes-256-xts", "chacha20-poly1305" (an optional leading '-' is accepted,
  /// as in `openssl enc -aes-128-cbc`). Throws InvalidArgument for unknown or unsupported names.
  static CipherSpec parse(std::string_view name);

  /// Canonical lower-case name, e.g. "aes-256-gcm".
  std::string name() const;
  /// Key length in bytes (XTS: both keys, i.e. 32 or 64).
  std::size_t key_size() const;
  /// IV / nonce / tweak length in bytes expected by default (0 for ECB, 12 for GCM and ChaCha20-Poly1305, 16
  /// otherwise).
  std::size_t iv_size() const;
  /// True for AEAD modes (GCM, ChaCha20-Poly1305).
  bool is_aead() const { return mode == Mode::gcm || mode == Mode::poly1305; }
  /// True for AES of any key size (not SM4).
  bool is_aes() const {
    return cipher == BlockCipher::aes128 || cipher == BlockCipher::aes192 || cipher == BlockCipher::aes256;
  }
  /// True when output length differs from input length for this direction (padding or AEAD tag).
  bool pads() const { return padding && (mode == Mode::ecb || mode == Mode::cbc); }

  bool operator==(const CipherSpec&) const = default;
};

/// Every cipher name cryptaccel supports, canonical form, in a stable order.
std::vector<std::string> cipher_names();

/// Key length of a block cipher in bytes (16, 24, 32; SM4: 16; ChaCha20: 32).
std::size_t block_cipher_key_size(BlockCipher c);

}  // namespace cryptaccel

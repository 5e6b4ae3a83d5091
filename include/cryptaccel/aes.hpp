// cryptaccel — raw AES block cipher (FIPS-197), constant time (bitsliced). For modes use modes.hpp or batch.hpp.
#pragma once
#include <cstddef>
#include <memory>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// An expanded AES-128/192/256 key. The schedule is wiped on destruction.
class Aes {
 public:
  /// `key` must be 16, 24 or 32 bytes (else InvalidArgument).
  explicit Aes(bytes_view key);
  ~Aes();
  Aes(const Aes&) = delete;
  Aes& operator=(const Aes&) = delete;

  /// Encrypts `in.size() / 16` blocks; in.size() must be a multiple of 16 and equal out.size(). In-place is fine.
  void encrypt_blocks(bytes_view in, mutable_bytes out) const;
  /// Decrypts `in.size() / 16` blocks, as encrypt_blocks.
  void decrypt_blocks(bytes_view in, mutable_bytes out) const;
  /// Number of rounds: 10, 12 or 14.
  int rounds() const;

 private:
  struct Schedule;
  std::unique_ptr<Schedule> schedule_;
};

/// The round keys of `key` (16, 24 or 32 bytes, else InvalidArgument) as FIPS-197 §5.2 expands them: rounds + 1 keys
/// of 16 bytes, in encryption order. With `equivalent_inverse`, keys 1 .. rounds-1 go through InvMixColumns, as the
/// equivalent inverse cipher (§5.3.5) and AES-NI's AESDEC use them. The result is key material: wipe it after use.
bytes aes_round_keys(bytes_view key, bool equivalent_inverse = false);

}  // namespace cryptaccel

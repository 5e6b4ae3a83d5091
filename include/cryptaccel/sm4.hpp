// cryptaccel — raw SM4 block cipher (GB/T 32907-2016), constant time (bitsliced S-box). For modes use modes.hpp.
#pragma once
#include <memory>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// An expanded SM4 key (16 bytes). The schedule is wiped on destruction.
class Sm4 {
 public:
  /// `key` must be 16 bytes (else InvalidArgument).
  explicit Sm4(bytes_view key);
  ~Sm4();
  Sm4(const Sm4&) = delete;
  Sm4& operator=(const Sm4&) = delete;

  /// Encrypts in.size() / 16 blocks (a multiple of 16, equal to out.size()); in-place is fine.
  void encrypt_blocks(bytes_view in, mutable_bytes out) const;
  /// Decrypts in.size() / 16 blocks.
  void decrypt_blocks(bytes_view in, mutable_bytes out) const;

 private:
  struct Schedule;
  std::unique_ptr<Schedule> schedule_;
};

}  // namespace cryptaccel

// A heap buffer for secret bytes (keys, plaintext held back until it may be released), wiped when destroyed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

struct SecretBuffer {
  std::vector<std::uint8_t> data;
  explicit SecretBuffer(std::size_t n) : data(n) {}
  SecretBuffer(const SecretBuffer&) = delete;
  SecretBuffer& operator=(const SecretBuffer&) = delete;
  ~SecretBuffer() { secure_wipe(data.data(), data.size()); }
};

}  // namespace cryptaccel

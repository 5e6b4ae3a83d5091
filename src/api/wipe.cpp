#include <cstring>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

void secure_wipe(void* data, std::size_t len) noexcept {
  if (len == 0) return;
  std::memset(data, 0, len);
  // The asm barrier makes the memory observable, so the memset cannot be removed as a dead store.
  __asm__ __volatile__("" : : "r"(data) : "memory");
}

}  // namespace cryptaccel

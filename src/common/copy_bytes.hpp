// Copying bytes from spans that may be empty. An empty std::span (or vector) may have a null data(), and memcpy
// with a null pointer is undefined behaviour even for zero bytes (UBSan reports it; the fuzzers found several).
#pragma once
#include <cstddef>
#include <cstring>

namespace cryptaccel {

/// memcpy(dst, src, n) that does nothing for n == 0, whatever the pointers.
inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  if (n != 0) std::memcpy(dst, src, n);
}

}  // namespace cryptaccel

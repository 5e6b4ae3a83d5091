// Large output buffers backed by transparent huge pages. A new bytes object of many megabytes is fresh anonymous
// memory: every 4 KiB page faults on its first write, and on a 64 MiB result those 16 384 faults cost more than
// encrypting it (measured: a 64 MiB AES-GCM encrypt from Python spent most of its time in the kernel's fault path).
// Asking for huge pages (madvise MADV_HUGEPAGE, honoured where /sys/kernel/mm/transparent_hugepage/enabled is
// "madvise" or "always") makes that 32 faults of 2 MiB. Only advice: where the kernel declines, nothing changes.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace pyca {

/// Outputs at least this large are advised to use huge pages (below, the 2 MiB-aligned part is small or empty).
inline constexpr std::size_t kHugePagesFrom = std::size_t{8} << 20;

/// Advises the whole 2 MiB pages inside [data, data + len) to be backed by transparent huge pages, for len of at
/// least kHugePagesFrom bytes of memory that has not been written yet.
inline void advise_huge_pages(void* data, std::size_t len) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (len < kHugePagesFrom) return;
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (start + kHuge - 1) & ~(kHuge - 1), last = (start + len) & ~(kHuge - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace pyca

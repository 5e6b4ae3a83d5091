#include "stream/mapped_file.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>

namespace cryptaccel {
namespace {

// The live mapping, for the SIGBUS handler (one MappedFile at a time).
std::atomic<std::uint8_t*> g_begin{nullptr};
std::atomic<std::uint8_t*> g_end{nullptr};
volatile std::sig_atomic_t g_shrunk = 0;
struct sigaction g_old_bus {};
std::atomic<bool> g_in_use{false};

std::uintptr_t page_size() {
  static const std::uintptr_t size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

/// A fault past the end of a file that shrank: zero pages over the rest of the mapping (one mmap, async-signal-safe
/// in practice: a system call), and the faulting read repeats and sees zeros. Any other SIGBUS: the action that was
/// there before takes over (the fault repeats under it).
extern "C" void on_sigbus(int sig, siginfo_t* info, void*) {
  auto* addr = static_cast<std::uint8_t*>(info->si_addr);
  std::uint8_t* const begin = g_begin.load();
  std::uint8_t* const end = g_end.load();
  if (begin && addr >= begin && addr < end) {
    auto* page = reinterpret_cast<std::uint8_t*>(reinterpret_cast<std::uintptr_t>(addr) & ~(page_size() - 1));
    if (mmap(page, static_cast<std::size_t>(end - page), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
        MAP_FAILED) {
      g_shrunk = 1;
      return;
    }
  }
  sigaction(sig, &g_old_bus, nullptr);  // returning repeats the fault, now under the previous action
}

}  // namespace

std::unique_ptr<MappedFile> MappedFile::try_map(int fd, std::uint64_t min_bytes) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  const off_t offset = lseek(fd, 0, SEEK_CUR);
  if (offset < 0 || st.st_size - offset < static_cast<off_t>(std::max<std::uint64_t>(min_bytes, 1))) return nullptr;
  if (g_in_use.exchange(true)) return nullptr;
  const off_t aligned = offset & ~static_cast<off_t>(page_size() - 1);
  const auto map_len = static_cast<std::size_t>(st.st_size - aligned);
  void* map = mmap(nullptr, map_len, PROT_READ, MAP_PRIVATE, fd, aligned);
  if (map == MAP_FAILED) {
    g_in_use = false;
    return nullptr;
  }
  madvise(map, map_len, MADV_SEQUENTIAL);  // read ahead far, as a sequential read() would
  lseek(fd, st.st_size, SEEK_SET);
  return std::unique_ptr<MappedFile>(new MappedFile(fd, static_cast<std::uint8_t*>(map), map_len,
                                                      static_cast<std::size_t>(offset - aligned),
                                                      static_cast<std::uint64_t>(st.st_size)));
}

MappedFile::MappedFile(int fd, std::uint8_t* map, std::size_t map_len, std::size_t skip, std::uint64_t file_size)
    : fd_(fd), map_(map), map_len_(map_len), skip_(skip), file_size_(file_size) {
  g_shrunk = 0;
  g_begin = map_;
  g_end = map_ + map_len_;
  struct sigaction sa {};
  sa.sa_sigaction = on_sigbus;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGBUS, &sa, &g_old_bus);
}

MappedFile::~MappedFile() {
  sigaction(SIGBUS, &g_old_bus, nullptr);
  g_begin = nullptr;
  g_end = nullptr;
  munmap(map_, map_len_);
  g_in_use = false;
}

bytes_view MappedFile::data() const { return bytes_view(map_ + skip_, map_len_ - skip_); }

void MappedFile::release_before(std::uint64_t offset) const {
  const std::uintptr_t end = (skip_ + offset) & ~(page_size() - 1);
  if (end > 0) madvise(map_, std::min<std::size_t>(end, map_len_), MADV_DONTNEED);  // refaulted if ever read again
}

bool MappedFile::shrunk() const {
  struct stat st {};
  return g_shrunk || (fstat(fd_, &st) == 0 && static_cast<std::uint64_t>(st.st_size) < file_size_);
}

}  // namespace cryptaccel

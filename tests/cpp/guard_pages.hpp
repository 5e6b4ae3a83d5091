// For the tests of kernels with masked tails: an input and an output area, each ending right before a page that may
// not be read or written, so that a load or store past the last byte faults (the test crashes, and fails).
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace cryptaccel::test {

class GuardPages {
 public:
  GuardPages() : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    void* p = mmap(nullptr, 4 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    area_ = static_cast<std::uint8_t*>(p);
    if (mprotect(area_ + page_, page_, PROT_NONE) != 0 || mprotect(area_ + 3 * page_, page_, PROT_NONE) != 0)
      throw std::runtime_error("mprotect failed");
  }
  ~GuardPages() { munmap(area_, 4 * page_); }
  GuardPages(const GuardPages&) = delete;
  GuardPages& operator=(const GuardPages&) = delete;

  /// `len` (at most a page) writable bytes of the input area, ending at its guard page.
  std::uint8_t* input(std::size_t len) { return area_ + page_ - len; }
  /// The same for the output area.
  std::uint8_t* output(std::size_t len) { return area_ + 3 * page_ - len; }

 private:
  std::size_t page_;
  std::uint8_t* area_ = nullptr;
};

}  // namespace cryptaccel::test

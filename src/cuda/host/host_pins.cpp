#include "cuda/host/host_pins.hpp"

namespace cryptaccel::cuda {

void HostPins::add(const void* p, std::size_t n) {
  const auto b = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mutex_);
  ranges_[b] = b + n;
}

void HostPins::remove(const void* p) {
  std::lock_guard<std::mutex> lock(mutex_);
  ranges_.erase(reinterpret_cast<std::uintptr_t>(p));
}

bool HostPins::covers(const void* p, std::size_t n) const {
  if (n == 0) return false;
  const auto b = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ranges_.upper_bound(b);  // the first range starting after p: the one before it may hold p
  if (it == ranges_.begin()) return false;
  --it;
  return b < it->second && n <= it->second - b;  // it->first <= b by the search
}

HostPins& host_pins() {
  static HostPins pins;
  return pins;
}

}  // namespace cryptaccel::cuda

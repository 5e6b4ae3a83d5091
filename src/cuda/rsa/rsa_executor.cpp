// See rsa_executor.hpp.
#include "cuda/rsa/rsa_executor.hpp"

#include <algorithm>
#include <vector>

namespace cryptaccel::cuda {
namespace {

/// One stream's launch in flight.
struct Slot {
  const RsaLaunch* launch = nullptr;  ///< null: idle
  std::uint8_t* pinned = nullptr;
  std::uint8_t* device = nullptr;
  std::size_t bytes = 0;
};

/// Wipes and gives back a slot's buffers after the work queued on `s` (no throw: also used on the error path).
void release(Device& dev, Slot& slot, Stream s) noexcept {
  try {
    if (slot.device) {
      dev.zero(slot.device, slot.bytes, s);
      dev.free(slot.device, s);
    }
  } catch (...) {
  }
  try {
    if (slot.pinned) dev.release_pinned(slot.pinned, s, 0, slot.bytes);
  } catch (...) {
  }
  slot = Slot{};
}

}  // namespace

void run_rsa_tasks(Device& dev, std::span<const RsaTask> tasks, std::size_t max_jobs, RsaKernel kernel) {
  const std::vector<RsaLaunch> launches = rsa_plan(tasks, max_jobs, kernel);
  const std::size_t streams = std::max<std::size_t>(1, std::min<std::size_t>(dev.stream_count(), 2));
  std::vector<Slot> slots(streams);
  const auto finish = [&](std::size_t s) {  // wait for the slot's launch, unpack its results, release
    Slot& slot = slots[s];
    if (!slot.launch) return;
    dev.synchronize(dev.stream(s));
    rsa_unpack(*slot.launch, tasks, reinterpret_cast<const rsa_word*>(slot.pinned));
    release(dev, slot, dev.stream(s));
  };
  try {
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const std::size_t s = i % streams;
      const Stream stream = dev.stream(s);
      finish(s);
      const RsaLaunch& launch = launches[i];
      Slot& slot = slots[s];
      slot.bytes = launch.buffer_words() * sizeof(rsa_word);
      slot.pinned = dev.alloc_pinned(slot.bytes);
      rsa_pack(launch, tasks, reinterpret_cast<rsa_word*>(slot.pinned));
      slot.device = dev.alloc(slot.bytes, stream);
      slot.launch = &launch;
      dev.copy_to_device(slot.device, slot.pinned, slot.bytes, stream);
      const RsaModexpArgs args = rsa_launch_args(launch, reinterpret_cast<rsa_word*>(slot.device));
      dev.rsa(args, launch.words, launch.kind, launch.kernel, stream);
      // Only x (the first N words per job) comes back, into the front of the staging buffer.
      dev.copy_to_host(slot.pinned, slot.device, launch.words * launch.count() * sizeof(rsa_word), stream);
    }
    for (std::size_t s = 0; s < streams; ++s) finish(s);
  } catch (...) {
    for (std::size_t s = 0; s < streams; ++s)
      if (slots[s].launch) release(dev, slots[s], dev.stream(s));
    throw;
  }
}

}  // namespace cryptaccel::cuda

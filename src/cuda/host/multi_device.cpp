#include "cuda/host/multi_device.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_executor.hpp"
#include "cuda/host/work_plan.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel::cuda {
namespace {

/// Weight added per cipher job or hash message: its metadata and launch bookkeeping, so that batches of empty
/// messages still split by count.
constexpr std::uint64_t kItemOverheadBytes = 64;

/// Runs `run(device, begin, end)` for each range of a split of `weights` over `devices`, holding the device's mutex.
template <class Run>
void split_and_run(const DeviceSet& devices, std::span<const std::uint64_t> weights, std::uint64_t min_weight,
                   Run run) {
  if (devices.count == 0) throw Error("cuda: no device to run the batch on");
  const std::vector<std::size_t> bounds = split_by_weight(weights, devices.count, min_weight);
  run_ranges(bounds, [&](std::size_t r, std::size_t begin, std::size_t end) {
    Device& dev = devices.device(r);
    std::lock_guard<std::mutex> lock(dev.mutex());
    run(dev, begin, end, bounds.size() - 1);
  });
}

}  // namespace

std::vector<std::size_t> split_by_weight(std::span<const std::uint64_t> weights, std::size_t parts,
                                         std::uint64_t min_weight) {
  const std::size_t n = weights.size();
  if (n == 0) return {0};
  unsigned __int128 total = 0;
  for (std::uint64_t w : weights) total += w;
  unsigned __int128 k = 1;
  if (parts > 1 && total > 0) k = std::max<unsigned __int128>(1, std::min<unsigned __int128>(parts, total / std::max<std::uint64_t>(min_weight, 1)));
  std::vector<std::size_t> bounds{0};
  unsigned __int128 running = 0, range = 0;  // range: the index of the range being filled
  for (std::size_t i = 0; i + 1 < n && range + 1 < k; ++i) {
    running += weights[i];
    if (running * k < (range + 1) * total) continue;  // not yet at (range + 1) / k of the total
    bounds.push_back(i + 1);
    while (range + 1 < k && running * k >= (range + 1) * total) ++range;  // a heavy item may cover several shares
  }
  bounds.push_back(n);
  return bounds;
}

void run_ranges(std::span<const std::size_t> bounds,
                const std::function<void(std::size_t, std::size_t, std::size_t)>& fn) {
  if (bounds.size() < 2) return;
  const std::size_t ranges = bounds.size() - 1;
  std::vector<std::exception_ptr> errors(ranges);
  auto run = [&](std::size_t r) {
    try {
      fn(r, bounds[r], bounds[r + 1]);
    } catch (...) {
      errors[r] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(ranges - 1);
  try {
    for (std::size_t r = 1; r < ranges; ++r) threads.emplace_back(run, r);
  } catch (...) {  // no thread for this range: the ones started still finish before the error leaves
    for (std::thread& t : threads) t.join();
    throw;
  }
  run(0);
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

std::vector<int> device_order(int count, int current, const char* env) {
  std::vector<int> order;
  if (env == nullptr || *env == '\0') {
    if (current >= 0 && current < count) order.push_back(current);
    for (int d = 0; d < count; ++d)
      if (d != current) order.push_back(d);
    return order;
  }
  const std::string list(env);
  auto bad = [&](const std::string& why) {
    return InvalidArgument("CRYPTACCEL_CUDA_DEVICES=" + list + ": " + why + " (expected comma-separated device "
                           "indices below " + std::to_string(count) + ", the number of visible devices)");
  };
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, comma - pos);
    if (item.empty() || item.size() > 6 || item.find_first_not_of("0123456789") != std::string::npos)
      throw bad("'" + item + "' is not a device index");
    const int d = std::stoi(item);
    if (d >= count) throw bad("device " + item + " does not exist");
    if (std::find(order.begin(), order.end(), d) != order.end()) throw bad("device " + item + " is listed twice");
    order.push_back(d);
    pos = comma + 1;
  }
  return order;
}

std::size_t host_threads_per_device(std::size_t threads, std::size_t devices) {
  const std::size_t all = threads ? threads : engine::hardware_threads();
  return std::max<std::size_t>(1, all / std::max<std::size_t>(1, devices));
}

void run_cipher_batch(const DeviceSet& devices, const CipherSpec& spec, Direction dir,
                      std::span<CipherJob> jobs, const ExecOptions& options, std::uint64_t min_bytes) {
  std::vector<std::uint64_t> weights(jobs.size(), 0);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].status == JobStatus::pending)
      weights[i] = processed_length(spec, dir, jobs[i].in.size()) + kItemOverheadBytes;
  split_and_run(devices, weights, min_bytes, [&](Device& dev, std::size_t b, std::size_t e, std::size_t ranges) {
    ExecOptions o = options;
    o.host_threads = host_threads_per_device(options.host_threads, ranges);
    run_cipher_batch(dev, spec, dir, jobs.subspan(b, e - b), o);
  });
}

void run_hash_batch(const DeviceSet& devices, HashAlgorithm algorithm, std::span<HashJob> jobs,
                    const ExecOptions& options, std::uint64_t min_bytes) {
  std::vector<std::uint64_t> weights(jobs.size(), 0);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].status == JobStatus::pending) weights[i] = jobs[i].in.size() + kItemOverheadBytes;
  split_and_run(devices, weights, min_bytes, [&](Device& dev, std::size_t b, std::size_t e, std::size_t ranges) {
    ExecOptions o = options;
    o.host_threads = host_threads_per_device(options.host_threads, ranges);
    run_hash_batch(dev, algorithm, jobs.subspan(b, e - b), o);
  });
}

void run_keccak_batch(const DeviceSet& devices, std::span<KeccakState> states, const ExecOptions& options,
                      std::uint64_t min_bytes) {
  const std::vector<std::uint64_t> weights(states.size(), sizeof(KeccakState));
  split_and_run(devices, weights, min_bytes, [&](Device& dev, std::size_t b, std::size_t e, std::size_t) {
    run_keccak_batch(dev, states.subspan(b, e - b), options);
  });
}

std::uint64_t rsa_task_weight(const RsaTask& task) {
  const std::uint64_t limbs = task.modulus ? task.modulus->limbs : 0;
  const std::uint64_t bits = task.kind == RsaExpKind::secret ? task.exponent_bits : 64 * task.exponent_limbs;
  return limbs * limbs * std::max<std::uint64_t>(bits, 1);
}

void run_rsa_tasks(const DeviceSet& devices, std::span<const RsaTask> tasks, std::size_t max_jobs,
                   RsaKernel kernel, std::uint64_t min_work) {
  std::vector<std::uint64_t> weights(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) weights[i] = rsa_task_weight(tasks[i]);
  split_and_run(devices, weights, min_work, [&](Device& dev, std::size_t b, std::size_t e, std::size_t) {
    run_rsa_tasks(dev, tasks.subspan(b, e - b), max_jobs, kernel);
  });
}

}  // namespace cryptaccel::cuda

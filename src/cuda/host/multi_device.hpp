// Spreading one batch over several GPUs. The batch's items (cipher jobs, hash messages, Keccak states, RSA tasks,
// SHA-crypt candidates) are cut into consecutive ranges of about equal work, one per device, and each device runs its
// range as a batch of its own (executor.hpp, rsa_executor.hpp) on a host thread of its own, holding the device's
// mutex. An item is never cut across devices: one huge job runs on one GPU (the single-device pipeline cuts it into
// slices there). Small batches stay on the first device: a range is split off only when it brings at least a
// minimum of work. Pure host logic over the Device interface, tested with EmulatedDevices.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuda/host/device.hpp"
#include "cuda/host/executor.hpp"
#include "cuda/rsa/rsa_plan.hpp"

namespace cryptaccel::cuda {

/// The devices a batch may use: `count` of them; device(i) is opened on first use (a CUDA device costs a context,
/// streams and memory pools, so devices that get no range are never opened).
struct DeviceSet {
  std::size_t count = 0;
  std::function<Device&(std::size_t)> device;
  /// A set over devices that already exist (tests).
  static DeviceSet of(std::span<Device* const> devices) {
    return {devices.size(), [devices](std::size_t i) -> Device& { return *devices[i]; }};
  }
};

/// Least work a device gets before a batch is split, per kind of batch. These bound the split's overhead (a
/// host thread, one pipeline fill and drain per device); they are estimates, not measured on a multi-GPU machine.
/// Cipher and hash batches: processed bytes (a device's pipeline needs a few 32 MiB chunks to overlap).
inline constexpr std::uint64_t kMinBytesPerDevice = std::uint64_t{128} << 20;
/// RSA: work units of rsa_task_weight; 2^17 RSA-2048 CRT halves (65 536 signatures), about half of what one
/// launch of kRsaMaxJobsPerLaunch holds: below that a GPU is not full and a second one shortens nothing.
inline constexpr std::uint64_t kMinRsaWorkPerDevice = (std::uint64_t{1} << 17) * 16 * 16 * 1024;
/// SHA-crypt: candidates × rounds; 2^16 candidates at the default 5000 rounds.
inline constexpr std::uint64_t kMinShaCryptWorkPerDevice = (std::uint64_t{1} << 16) * 5000;

/// Splits items with the given weights into at most `parts` consecutive ranges of about equal total weight.
/// Returns the boundaries 0 = b0 < b1 < ... < bk = weights.size() (k ranges). Fewer ranges than `parts` when the
/// total is below parts × min_weight: then k = max(1, total / min_weight). Each range ends at the first item where
/// its running total reaches its share, so a range exceeds total / k by less than its heaviest item. {0} when there
/// are no items; one range when parts <= 1.
std::vector<std::size_t> split_by_weight(std::span<const std::uint64_t> weights, std::size_t parts,
                                         std::uint64_t min_weight);

/// Calls fn(range, begin, end) for every range of `bounds` (as split_by_weight returns), each on a host thread of its
/// own (range 0 on the calling thread), and returns when all have returned. The first exception thrown is rethrown
/// then (the other ranges still run to completion).
void run_ranges(std::span<const std::size_t> bounds,
                const std::function<void(std::size_t range, std::size_t begin, std::size_t end)>& fn);

/// The device indices a batch may use, in order (the first one gets the first range, and every batch too small to
/// split): the devices listed in `env` (CRYPTACCEL_CUDA_DEVICES, comma-separated indices, e.g. "1,0"), or when
/// `env` is null or empty every one of the `count` visible devices, `current` first. Throws InvalidArgument naming
/// the variable for an index out of range, a repeated index or anything but digits and commas.
std::vector<int> device_order(int count, int current, const char* env);

/// Host threads for each of `devices` devices out of `threads` (0: all cores): an even share, at least 1.
std::size_t host_threads_per_device(std::size_t threads, std::size_t devices);

/// run_cipher_batch (executor.hpp) over several devices: the pending jobs are split by processed bytes, each
/// range runs on its device (whose mutex is held meanwhile). `min_bytes`: kMinBytesPerDevice (tests use less).
void run_cipher_batch(const DeviceSet& devices, const CipherSpec& spec, Direction dir,
                      std::span<CipherJob> jobs, const ExecOptions& options,
                      std::uint64_t min_bytes = kMinBytesPerDevice);

/// run_hash_batch over several devices, split by message bytes.
void run_hash_batch(const DeviceSet& devices, HashAlgorithm algorithm, std::span<HashJob> jobs,
                    const ExecOptions& options, std::uint64_t min_bytes = kMinBytesPerDevice);

/// run_keccak_batch over several devices, split by state count.
void run_keccak_batch(const DeviceSet& devices, std::span<KeccakState> states, const ExecOptions& options,
                      std::uint64_t min_bytes = kMinBytesPerDevice);

/// The relative cost of an RSA task: modulus limbs squared (one Montgomery product) times exponent bits (products
/// per exponentiation).
std::uint64_t rsa_task_weight(const RsaTask& task);

/// run_rsa_tasks (rsa_executor.hpp) over several devices, split by rsa_task_weight.
void run_rsa_tasks(const DeviceSet& devices, std::span<const RsaTask> tasks, std::size_t max_jobs,
                   RsaKernel kernel, std::uint64_t min_work = kMinRsaWorkPerDevice);

}  // namespace cryptaccel::cuda

// Runs batches on a Device (pure host logic: the GPU or its host emulation does the work).
//  - Host-resident batches are pipelined: chunks (src/cuda/host/work_plan.hpp) go through a few pinned staging buffers,
//    each on its own stream, so that one chunk's copy in, another's kernels and a third's copy out overlap.
//  - Device-resident jobs are processed where they are: only their metadata is uploaded.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/hash.hpp"
#include "cuda/host/chunk_builder.hpp"
#include "cuda/host/device.hpp"
#include "cuda/host/work_plan.hpp"

namespace cryptaccel::cuda {

/// How a batch runs.
struct ExecOptions {
  CipherImpl impl = CipherImpl::aes_bitsliced;  ///< AES implementation (SM4 specs always use CipherImpl::sm4)
  std::uint64_t xts_unit = 0;
  ChunkLimits limits;
  std::size_t slots = 3;         ///< staging buffers / streams in flight (>= 3 overlaps copy in, kernels, copy out)
  std::size_t host_threads = 0;  ///< threads for host copies into and out of staging (0: all cores)
};

/// The implementation that serves `cipher` when AES is asked to use `aes_impl`.
CipherImpl impl_for(BlockCipher cipher, CipherImpl aes_impl);

/// Runs every pending job of a host-resident batch (validated) and sets each job's status, out_len and error.
void run_cipher_batch(Device& dev, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                      const ExecOptions& options);

/// Queues device-resident jobs (dev_in/dev_out/dev_tag/dev_ok set; no padding) on `stream` and returns without
/// waiting. A GCM decryption whose tag does not match has its output zeroed on the device and *dev_ok set to 0.
void enqueue_device_cipher(Device& dev, const CipherSpec& spec, Direction dir, std::span<const JobView> jobs,
                           CipherImpl impl, std::uint64_t xts_unit, Stream stream);

/// Hashes every pending job of a host-resident batch (digest sizes validated) and sets statuses.
void run_hash_batch(Device& dev, HashAlgorithm algorithm, std::span<HashJob> jobs, const ExecOptions& options);

/// Applies Keccak-f[1600] to host-resident states.
void run_keccak_batch(Device& dev, std::span<KeccakState> states, const ExecOptions& options);

}  // namespace cryptaccel::cuda

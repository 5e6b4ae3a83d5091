// Host-side planning for the cuda engine (pure functions, unit-tested without a GPU):
//  - which bytes of each job the device processes (padding applied on the host),
//  - how a batch is cut into chunks that fit a device buffer: whole jobs grouped together, and jobs larger than a
//    chunk cut into slices at points where the mode allows it (the IV of a slice is derived on the host, see
//    chunk_builder.cpp), so that host-resident data can be pipelined through a few staging buffers,
//  - the order in which the pipeline fills, launches and retires chunks (pipeline_schedule).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"

namespace cryptaccel::cuda {

/// Bytes the device processes for a job of `in_len` input bytes: the input, rounded up to whole blocks with PKCS#7
/// padding when encrypting ECB/CBC with padding.
std::uint64_t processed_length(const CipherSpec& spec, Direction dir, std::uint64_t in_len);

/// Lengths of the slices one job of `len` processed bytes is cut into for chunks of at most `max_bytes`, in order.
/// One slice (the whole job) when it fits or when the mode cannot be cut (CBC encryption). Cuts are at block
/// boundaries (XTS with data units: at data-unit boundaries; XTS without: the last slice keeps the final whole block
/// together with a partial block, for ciphertext stealing). `max_bytes` >= 64 KiB.
std::vector<std::uint64_t> slice_lengths(const CipherSpec& spec, Direction dir, std::uint64_t len,
                                         std::uint64_t xts_unit, std::uint64_t max_bytes);

/// A contiguous range of one job's processed bytes, run on the device as one piece of work.
struct Slice {
  std::uint32_t job;      ///< index in the batch
  std::uint32_t index;    ///< slice number within its job (0-based)
  std::uint64_t offset;   ///< byte offset into the job's processed bytes
  std::uint64_t len;
  bool last;              ///< the job's last slice
};

/// What one device buffer holds at a time.
struct Chunk {
  std::vector<Slice> slices;
  std::uint64_t bytes = 0;  ///< sum of the slices' lengths, each rounded up to 16
  bool split = false;       ///< holds one slice of a job cut over several chunks
};

/// Limits of one chunk.
struct ChunkLimits {
  std::uint64_t max_bytes = std::uint64_t{32} << 20;  ///< data bytes (a job that cannot be cut may exceed it alone)
  std::uint32_t max_jobs = 1u << 16;                  ///< jobs (bounds the per-job metadata and key schedules)
};

/// Cuts the pending jobs (status `pending`) of a cipher batch into chunks: jobs that fit are grouped in batch order
/// until a limit is reached; a larger job is cut by slice_lengths, each slice a chunk of its own.
std::vector<Chunk> plan_cipher_chunks(const CipherSpec& spec, Direction dir, std::span<const CipherJob> jobs,
                                      std::uint64_t xts_unit, const ChunkLimits& limits);

/// Groups `sizes` (item bytes, e.g. hash messages) into consecutive runs [begin, end) of at most `max_bytes` and
/// `max_items` (an item larger than `max_bytes` forms a run of its own). Returns the run boundaries: 0 = b0 < b1 < ...
/// < bn = sizes.size() (just {0} when there are no items).
std::vector<std::size_t> group_items(std::span<const std::uint64_t> sizes, std::uint64_t max_bytes,
                                     std::size_t max_items);

/// One step of the host-resident pipeline.
struct PipelineStep {
  enum Kind { fill, launch, retire };
  Kind kind;
  std::size_t chunk;
  std::size_t slot;  ///< staging buffer, device buffer and stream used
};

/// The order of the pipeline's steps for `chunks` chunks over `slots` staging slots (>= 1): chunk c uses slot
/// c % slots; it is filled (host copies into pinned staging), launched (copy in, kernels, copy out, queued on the
/// slot's stream) and retired (wait for the stream, copy results out of staging) before its slot is filled again.
/// Up to `slots` chunks are in flight, so copies in, kernels and copies out of different chunks overlap.
std::vector<PipelineStep> pipeline_schedule(std::size_t chunks, std::size_t slots);

}  // namespace cryptaccel::cuda

// The device-memory image of one chunk (pure host code, unit-tested without a GPU): where each region lives in the
// chunk's device buffer, and the metadata the kernels read (DevCipherJob per slice, unit prefix sums, raw keys, GCM
// parents, GHASH slot layout), written into a host staging buffer that is copied to the device in one transfer.
//
// Device buffer layout (each region 256-byte aligned):
//   uploaded:  data | aad | ivs | tags | oks | jobs | unit_begin | raw_keys | parents | slot_begin | slot_job
//   scratch:   keys | chain | states | slots | partials
// `data` holds host-resident slices (processed in place) and is empty for device-resident jobs; `tags` and `oks`
// come back after the kernels (GCM tags written, decryption results).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "cuda/host/layout.hpp"
#include "cuda/host/work_plan.hpp"

namespace cryptaccel::cuda {

/// What the builder needs to know about one job, wherever its data lives.
struct JobView {
  bytes_view key;
  bytes_view iv;
  bytes_view aad;                           ///< GCM (host memory)
  std::uint64_t in_len = 0;                 ///< input bytes (before padding)
  bool on_device = false;                   ///< device-resident (dev_in/dev_out) rather than host-resident (host_in)
  const std::uint8_t* host_in = nullptr;    ///< host-resident input
  const std::uint8_t* dev_in = nullptr;     ///< device-resident input and output (may be equal)
  std::uint8_t* dev_out = nullptr;
  std::uint32_t tag_len = 0;                ///< GCM
  const std::uint8_t* expected_tag = nullptr;  ///< GCM decryption, host-resident: the tag to check (host memory)
  std::uint8_t* dev_tag = nullptr;          ///< GCM, device-resident: tag in device memory (written / checked there)
  std::int32_t* dev_ok = nullptr;           ///< GCM decryption, device-resident: result flag in device memory
  /// CBC decryption cut into slices, host-resident: a copy of the ciphertext block before each slice (16 bytes per
  /// slice, indexed by slice number), taken before any output is written (an in-place job overwrites its input).
  const std::uint8_t* chain_blocks = nullptr;
};

/// A host view of a batch's CipherJob.
JobView job_view(const CipherJob& job);

/// Offsets of the regions of one chunk's device buffer, and its metadata.
class ChunkImage {
 public:
  ChunkImage(const CipherSpec& spec, Direction dir, CipherImpl impl, std::uint64_t xts_unit,
             std::span<const JobView> jobs, const Chunk& chunk);

  /// Bytes copied host -> device (data and metadata), and the whole device buffer (plus scratch).
  std::uint64_t upload_bytes() const { return upload_; }
  std::uint64_t device_bytes() const { return total_; }
  /// Host-resident data: where slice i sits in the buffer (its processed bytes, rounded up to 16).
  std::uint64_t data_offset(std::size_t slice) const { return data_off_[slice]; }
  std::uint64_t data_bytes() const { return data_bytes_; }
  /// Tags then result flags, copied back after the kernels: [results_offset, +results_bytes).
  std::uint64_t results_offset() const { return tags_; }
  std::uint64_t results_bytes() const { return oks_ + 4 * parents_count_ - tags_; }
  std::uint64_t tag_offset(std::size_t parent) const { return tags_ + 16 * parent; }
  std::uint64_t ok_offset(std::size_t parent) const { return oks_ + 4 * parent; }
  /// Secrets in scratch (key schedules, GCM states): wiped on the device after the kernels.
  std::uint64_t keys_offset() const { return keys_; }
  std::uint64_t keys_bytes() const { return chain_ - keys_; }
  std::uint64_t states_offset() const { return states_; }
  std::uint64_t states_bytes() const { return slots_ - states_; }
  std::uint64_t raw_keys_offset() const { return raw_keys_; }
  std::uint64_t raw_keys_bytes() const { return parents_ - raw_keys_; }

  /// Counts the kernels are launched with.
  std::uint64_t units() const { return unit_begin_.back(); }
  std::uint32_t jobs() const { return static_cast<std::uint32_t>(slices_.size()); }
  std::uint32_t key_count() const { return static_cast<std::uint32_t>(raw_.size()); }
  std::uint32_t parent_count() const { return parents_count_; }
  std::uint64_t total_slots() const { return total_slots_; }
  /// GHASH tree levels (log2 of the largest slice's slot count).
  std::uint32_t ghash_levels() const { return levels_; }
  /// True when this chunk completes its GCM messages (whole jobs, or the last slice of a split one).
  bool finalizes() const { return finalizes_; }

  /// Writes the metadata (not the data) into `staging` (upload_bytes() long, mirroring the device buffer) for a
  /// device buffer at `dbase`, and returns the kernel arguments. `split_partials`: for a chunk that holds a slice
  /// of a GCM job cut over several chunks, the device array of that job's partial GHASH records (one per slice);
  /// nullptr otherwise. `alpha_pow`: the device's XTS α^(2^i) table.
  CipherArgs write_metadata(std::uint8_t* staging, std::uint8_t* dbase, PiecePartial* split_partials,
                            const algo::Gf128* alpha_pow) const;

  /// Host-resident data: copies bytes [from, to) of slice i's processed input (with the PKCS#7 block when padding;
  /// `to` may run up to the slice's length rounded to 16, the rounding is zeroed) into its place in `staging`.
  void copy_in(std::size_t slice, std::uint8_t* staging, std::uint64_t from, std::uint64_t to) const;
  /// The slices of this chunk.
  const std::vector<Slice>& slices() const { return slices_; }

 private:
  CipherSpec spec_;
  Direction dir_;
  CipherImpl impl_;
  std::uint64_t xts_unit_;
  std::span<const JobView> jobs_;
  std::vector<Slice> slices_;
  std::vector<std::uint64_t> data_off_;
  std::vector<std::uint64_t> unit_begin_;        // slices + 1
  std::vector<std::uint32_t> key_slot_;          // per slice
  std::vector<const JobView*> raw_;              // per key slot: the job whose key (XTS: half) it holds
  std::vector<std::uint8_t> raw_half_;           // per key slot: 0 whole key, 1 first half, 2 second half
  std::vector<std::uint64_t> aad_off_, iv_off_;  // per slice (GCM)
  std::vector<std::uint64_t> slot_base_, slots_of_;
  std::vector<std::uint64_t> slot_begin_;        // slot order, slices + 1
  std::vector<std::uint32_t> slot_job_;          // slot order
  std::uint32_t parents_count_ = 0;
  std::uint64_t total_slots_ = 0;
  std::uint32_t levels_ = 0;
  bool finalizes_ = false;
  std::uint64_t data_bytes_ = 0;
  // region offsets
  std::uint64_t aad_ = 0, ivs_ = 0, tags_ = 0, oks_ = 0, jobs_off_ = 0, unit_begin_off_ = 0, raw_keys_ = 0,
                parents_ = 0, slot_begin_off_ = 0, slot_job_off_ = 0, upload_ = 0;
  std::uint64_t keys_ = 0, chain_ = 0, states_ = 0, slots_ = 0, partials_ = 0, total_ = 0;
};

}  // namespace cryptaccel::cuda

// Splitting large cipher jobs into independent pieces, so that one big message can use every host thread.
//
// A piece is an ordinary CipherJob over a slice of its parent's input and output, with the IV the mode implies at
// that offset, so any engine runs it unchanged:
//   CTR   counter block + offset/16 (128-bit big-endian)
//   XTS   data-unit sequence number + offset/unit (only with data units; one large data unit is split inside, from
//         any block's tweak, by src/engine/xts_split.hpp before this plan is made)
//   ECB   no IV; with padding, the last (partial or padding) block is a separate piece run with padding
//   CBC   decryption only: the IV of a piece is the ciphertext block before it; with padding, the last block is a
//         separate piece (so it alone checks the padding)
// CBC encryption is serial and not split. GCM is split separately (src/engine/gcm_split.hpp): its GHASH needs
// combining, with building blocks the engine provides.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"

namespace cryptaccel::engine {

/// Smallest piece a job is cut into: below this, per-piece set-up (key schedule, dispatch) stops paying off.
inline constexpr std::size_t kMinPieceBytes = 16 * 1024;

/// Pieces per host thread a batch is cut into (at least kMinPieceBytes each): the items are handed out dynamically,
/// so uneven progress balances, and the last piece to finish decides the call's time. Four measured better than
/// eight for AES-CTR of 1 MiB on both cores of the Xeon of bench/results/2026-11-28-xeon-2c-ifma-vaes (27.5-29.9
/// against 24.8-25.6 GB/s, three runs each): more pieces move more of a repeated buffer between the cores' caches.
inline constexpr std::size_t kPiecesPerThread = 4;

/// The pieces of a batch: every pending job becomes one or more pieces, in two groups by the spec they run with.
class SplitPlan {
 public:
  /// Plans `jobs` (validated, pending ones only) for `threads` host threads.
  SplitPlan(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs, std::size_t xts_unit, std::size_t threads);

  /// True when no job was cut: the batch can run as it is.
  bool trivial() const { return !any_split_; }
  /// Pieces run with the batch's spec (whole jobs, CTR/XTS pieces, padded last blocks).
  std::span<CipherJob> with_batch_spec() { return with_spec_; }
  /// Pieces run with the batch's spec minus padding (the bulk of padded ECB/CBC jobs).
  std::span<CipherJob> without_padding() { return without_padding_; }
  /// Writes the pieces' outcomes back into the parent jobs: ok only when every piece is ok; otherwise the first
  /// failing piece's status and reason, and the parent's whole output is wiped (a decryption that failed releases
  /// no plaintext, even where other pieces had already written theirs).
  void merge(std::span<CipherJob> jobs) const;

 private:
  struct Origin {
    std::size_t parent;
    bool unpadded_group;  ///< which vector the piece is in
    std::size_t index;    ///< its index there
    bool has_derived_iv;  ///< the piece's IV is ivs_[its origin index]
  };
  /// Adds the whole job as one piece (IV and spec unchanged).
  void add_whole(std::size_t parent, const CipherJob& job);
  /// Adds a slice of a split job. `iv`: 16 bytes copied as the piece's IV, or nullptr for none (ECB).
  void add_slice(std::size_t parent, const CipherJob& job, std::size_t in_off, std::size_t in_len,
                 std::size_t out_cap, const std::uint8_t* iv, bool unpadded_group);
  void split_job(const CipherSpec& spec, Direction dir, std::size_t parent, const CipherJob& job, std::size_t xts_unit,
                 std::size_t piece_bytes);

  std::vector<CipherJob> with_spec_;
  std::vector<CipherJob> without_padding_;
  std::vector<Origin> origins_;                      // in parent order
  std::vector<std::array<std::uint8_t, 16>> ivs_;    // derived IVs, one per piece (indexed like origins_)
  bool any_split_ = false;
};

}  // namespace cryptaccel::engine

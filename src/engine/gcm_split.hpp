// One large GCM job split over host threads. GCM's counter mode splits like CTR, and GHASH is linear: with the
// ciphertext cut into chunks C_1 .. C_m of n_1 .. n_m blocks and P_k = GHASH_H(0, C_k) computed by chunk k's worker,
//   GHASH_H(Y, C_1 || ... || C_m) = (...((Y * H^n_1 ^ P_1) * H^n_2 ^ P_2) ...) * H^n_m ^ P_m,
// so the workers need nothing from each other and the combination costs a few multiplications per chunk. Each worker
// runs CTR over its chunk from counter inc32^(1 + offset/16)(J0) and hashes the chunk's ciphertext (when decrypting,
// before overwriting it: in-place jobs work). The caller then folds in the AAD's hash first and the length block last,
// and XORs E(J0). A decryption's tag is compared in constant time after every chunk is done; on a mismatch the
// whole output is wiped, so no plaintext is released, and the status and message are those of the unsplit path.
// Engines provide the building blocks through Engine::gcm_split_key.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {

/// GCM jobs shorter than this run whole, on one thread: below it the split's fixed costs (a key set-up per chunk,
/// the powers of H, the combination, waking threads) outweigh what more threads gain. Measured with
/// `cryptaccel speed --threads 2` on the cpu engine: AES-GCM (EVP, ~2.5 GB/s per core) lost when split at 32 and
/// 64 KiB, gained 5% at 128 KiB and 35% at 256 KiB; SM4-GCM (~0.33 GB/s per core) already gained 50% at 32 KiB.
inline constexpr std::size_t gcm_split_min_bytes(BlockCipher cipher) {
  return cipher == BlockCipher::sm4 ? 32 * 1024 : 256 * 1024;
}

/// Smallest chunk a split GCM job is cut into.
inline constexpr std::size_t kGcmMinChunkBytes = 16 * 1024;

/// Runs, split over up to `threads` host threads, every pending job of `jobs` of at least
/// gcm_split_min_bytes(spec.cipher) that is also large within its batch (at least half of 1/threads of the batch's
/// bytes, so that many similar jobs run one per thread instead), when `engine` offers gcm_split_key for spec.cipher;
/// sets those jobs' status. Other jobs are left pending.
void run_split_gcm(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                   std::size_t threads);

/// GCM with one key over a message given in pieces: each piece's counter mode and GHASH split into chunks over host
/// threads as above, the partial hashes folded into one running hash, the tag at the end. run_split_gcm_job is one
/// piece; CipherStream (src/stream/cipher_stream.cpp) feeds many. The state (H, J0, E(J0), the hash) is wiped with it.
class GcmStreamState {
 public:
  /// GCM's counter mode over a whole piece somewhere else (a GPU engine's batches: src/stream/gcm_offload.hpp):
  /// out = in ^ E(c), E(inc32(c)), ... over `len` bytes from counter block `c` (in == out allowed). Throws on failure.
  using BulkCtr = std::function<void(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
                                     std::size_t len)>;

  /// Derives H, J0 and E(J0) from `key` (which must outlive the state) and `iv`, and hashes `aad`. With `bulk_ctr`,
  /// each piece's counter mode runs there in one call and only GHASH (and the few blocks of the set-up) on `key`.
  GcmStreamState(const GcmSplitKey& key, bytes_view iv, bytes_view aad, BulkCtr bulk_ctr = {});
  ~GcmStreamState();
  GcmStreamState(const GcmStreamState&) = delete;
  GcmStreamState& operator=(const GcmStreamState&) = delete;

  /// Encrypts or decrypts the next `len` bytes of the message (in == out allowed), in chunks of about `chunk_bytes`
  /// over up to `threads` threads. Every piece but the message's last must be whole blocks. Throws what the engine's
  /// building blocks throw (out is then wiped).
  void process(Direction dir, const std::uint8_t* in, std::uint8_t* out, std::size_t len, std::size_t threads,
               std::size_t chunk_bytes);
  /// The first `tag_len` bytes of the tag over the AAD and everything processed; call once, at the end.
  void tag(std::uint8_t* out, std::size_t tag_len);

 private:
  struct Secrets;
  const GcmSplitKey& key_;
  BulkCtr bulk_ctr_;
  std::unique_ptr<Secrets> s_;
  std::uint64_t aad_len_ = 0, done_ = 0;  // bytes of AAD, and of message processed so far
};

/// Runs one validated, pending GCM job with `key`, split into chunks of about `chunk_bytes` (rounded up to whole
/// blocks) over up to `threads` threads. Exposed for tests, which choose small chunks.
void run_split_gcm_job(const GcmSplitKey& key, Direction dir, CipherJob& job, std::size_t threads,
                       std::size_t chunk_bytes);

}  // namespace cryptaccel::engine

// The state behind a CipherStream (include/cryptaccel/stream.hpp), shared by its two drivers: update()/finish(),
// which collect the caller's pieces into one batch buffer (src/stream/cipher_stream.cpp), and pipe(), which reads,
// processes and writes whole batches in a pool of buffers on three threads (src/stream/stream_pipeline.cpp). Both hand
// the same two operations a span of input: crypt() for a batch in the middle of the stream, crypt_last() for its end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "common/secret_buffer.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/stream.hpp"
#include "engine/engine.hpp"
#include "engine/gcm_split.hpp"

namespace cryptaccel {

struct CipherStream::State {
  /// Room after a stream's last piece for what it may grow by: PKCS#7 padding or a GCM tag (16 bytes each).
  static constexpr std::size_t kGrowth = 16;
  /// The most input held back at a batch boundary (held_back() rounded up to the next block): a GCM tag, two XTS
  /// blocks, a padded decryption's last block.
  static constexpr std::size_t kMaxCarry = 48;

  CipherSpec spec;          // as given (padding applies to the last chunk only)
  CipherSpec unpadded;      // the spec of every chunk but the last
  Direction dir;
  SecretBuffer key;
  std::uint8_t chain[16] = {};  // CTR: next counter block; CBC: IV of the next chunk; XTS: tweak of the next unit
  std::size_t xts_unit;
  std::string engine;
  std::size_t threads;
  std::size_t chunk;        // bytes per job: whole blocks (XTS: whole data units)
  std::size_t batch;        // bytes per batch: chunk x chunks per batch
  std::size_t pipeline_buffers;
  /// The engine the batches are expected to run on (nullptr: unknown); pipe() pins its buffers for it.
  const engine::Engine* batch_engine = nullptr;
  StreamOptions::FileInput file_input;
  // update()/finish(): the collected input, processed in place (allocated on the first update: pipe() has its own).
  std::unique_ptr<SecretBuffer> in;
  std::size_t in_len = 0;
  std::string engine_used;
  std::uint64_t bytes_in = 0;
  bool finished = false;
  // GCM: the engine's building blocks (counter mode, GHASH) under the key, and the running state over them.
  std::size_t tag_len = 16;
  std::unique_ptr<engine::GcmSplitKey> gcm_key;
  std::unique_ptr<engine::GcmStreamState> gcm;
  // XTS without data units (the whole stream one data unit): the engine's kernel that starts at any block.
  std::unique_ptr<engine::XtsSplitKey> xts_key;
  std::uint64_t xts_block = 0;  // the next block's number in the data unit

  State(const CipherSpec& s, Direction d, const CipherParams& p, const StreamOptions& o, std::size_t host_threads,
        std::size_t chunk_bytes, std::size_t chunks);

  /// Bytes that must stay back until finish: a padded decryption's last block (at least 1 byte of it), a GCM
  /// decryption's tag (the last tag_len bytes of the stream), XTS's last full and partial block.
  std::size_t held_back() const;
  /// What a batch in the middle of the stream must be a multiple of: a data unit (XTS with units), else a block.
  std::size_t granule() const;

  /// Encrypts or decrypts n bytes in the middle of the stream from `src` to `dst` (equal, or not overlapping) and
  /// moves the chaining value on; returns the output length (n). n is a multiple of granule().
  std::size_t crypt(const std::uint8_t* src, std::uint8_t* dst, std::size_t n) { return crypt(src, dst, n, unpadded); }
  /// The stream's last n bytes (held-back ones included): padding added or checked and removed, or the GCM tag
  /// appended or verified. `dst` has room for n + kGrowth bytes. Returns the output length; throws BadDecrypt or
  /// AuthenticationFailed, with nothing of the last piece's output left in `dst` then.
  std::size_t crypt_last(const std::uint8_t* src, std::uint8_t* dst, std::size_t n);

 private:
  std::size_t crypt(const std::uint8_t* src, std::uint8_t* dst, std::size_t n, const CipherSpec& s);
  void crypt_xts_unit(const std::uint8_t* src, std::uint8_t* dst, std::size_t n);
  void chunk_iv(const std::uint8_t* src, std::size_t offset, std::uint8_t iv[16]) const;
  void run(const CipherSpec& s, std::span<CipherJob> jobs);
};

}  // namespace cryptaccel

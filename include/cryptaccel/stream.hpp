// cryptaccel — streaming encryption: a message of any length, fed in pieces, in memory bounded by the options (never
// by the message). The stream collects input into batches of fixed-size chunks and runs each batch through run_batch
// as independent jobs, so the chosen engine spreads the chunks over its cores or GPU threads:
//   - CTR: chunk k starts at counter block IV + (its offset / 16);
//   - ECB: chunks of whole blocks; the padding in the last one;
//   - CBC decryption: chunk k's IV is the ciphertext block before it (known from the input);
//   - CBC encryption is serial by nature: one chunk after the other on one core, chunk k's IV the last ciphertext
//     block of chunk k - 1;
//   - XTS with data units (xts_unit > 0): chunks of whole data units, chunk k's first tweak IV + (its first unit);
//   - GCM: each batch's counter mode and GHASH split into chunks over host threads through the engine's GCM building
//     blocks (engine/gcm_split.hpp: partial hashes folded with powers of H); on a GPU engine, which has none, the
//     batch's counter mode runs there as CTR jobs and GHASH on a host engine's building blocks
//     (src/stream/gcm_offload.hpp); encryption appends the tag at finish; decryption takes the last tag_len bytes of
//     the stream as the tag and verifies it at finish.
//   - XTS without data units (the whole stream one data unit): chunks of whole blocks over host threads through the
//     engine's XTS kernel that starts at any block (engine/xts_split.hpp: the cpu engine), the last full block and a
//     partial one held back to be processed together (ciphertext stealing). On engines without that kernel
//     `streamable` is false, and callers use the one-shot API (modes.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// How a stream cuts and schedules its work.
struct StreamOptions {
  std::string_view engine = "auto";  ///< "auto" or an engine name
  /// Bytes per chunk (one job of a batch); rounded down to whole blocks (XTS: whole data units, at least one).
  std::size_t chunk_bytes = std::size_t{1} << 20;
  /// Chunks per batch; 0: four per host thread. update() keeps one batch (processed in place): about
  /// chunk_bytes x chunks of memory.
  std::size_t chunks_per_batch = 0;
  std::size_t threads = 0;  ///< host threads for engines that run on CPU cores (0: all cores)
  /// pipe(): batch buffers in flight between the reader, the engine and the writer (at least 3). Peak memory is
  /// about pipeline_buffers x chunk_bytes x chunks.
  std::size_t pipeline_buffers = 4;
  /// How pipe_fd() takes a regular file.
  enum class FileInput {
    automatic,  ///< `map` for engines on host threads, `read` for the others (a GPU: read into pinned buffers)
    map,        ///< mapped: processed straight from the page cache, no copy on the way in
    read,       ///< read into the batch buffers by several reads at once
  };
  FileInput file_input = FileInput::automatic;
};

/// Called with output, in order, as it is ready; the view is valid only during the call.
using StreamSink = std::function<void(bytes_view)>;

/// Reads more input into `buffer`, filling it as far as the input goes; returns the bytes read, fewer than
/// buffer.size() only at the end of the input.
using StreamReader = std::function<std::size_t(mutable_bytes buffer)>;

/// Whether `spec` can stream on `engine`: every mode; GCM on an engine with GCM building blocks (cpu, ref) or off the
/// host threads (cuda: counter mode there, GHASH on the host); XTS without data units (xts_unit 0) only on an engine
/// with an XTS kernel that starts at any block (cpu, and `auto` where it picks cpu).
bool streamable(const CipherSpec& spec, std::size_t xts_unit, std::string_view engine = "auto");

/// One encryption or decryption of a stream. Not copyable; one thread at a time.
class CipherStream {
 public:
  /// Checks the key, IV and (GCM) tag length as the one-shot API does; GCM also takes params.aad (hashed now). Throws
  /// InvalidArgument, or EngineUnavailable when the engine cannot run `spec` (see streamable).
  CipherStream(const CipherSpec& spec, Direction dir, const CipherParams& params, const StreamOptions& options = {});
  ~CipherStream();  // wipes the key and buffers
  CipherStream(const CipherStream&) = delete;
  CipherStream& operator=(const CipherStream&) = delete;

  /// Takes more input; hands finished output to `sink` (possibly none yet: input is collected into batches, and a
  /// decryption with padding holds its last block back until finish).
  void update(bytes_view in, const StreamSink& sink);
  /// Ends the stream: the rest of the output, with padding added (encryption) or checked and removed (decryption),
  /// or the GCM tag appended (encryption) or verified (decryption). Throws BadDecrypt (bad padding, or a length the
  /// mode cannot take) or AuthenticationFailed (GCM tag); output already handed to the sink stays handed — a GCM
  /// decryption's plaintext is unverified until finish returns — so callers that must not release a bad stream's
  /// output write it somewhere they can discard (the CLI: a temporary file renamed only after finish).
  void finish(const StreamSink& sink);

  /// Runs the whole stream, from `read` to `write`, and finishes it: the fast way to encrypt a file or a pipe. The
  /// calling thread reads each batch straight into one of pipeline_buffers reused buffers; a second thread processes
  /// it in place on the engine while the next is read; a third writes the processed batches in order. No input byte
  /// is copied in memory on the way. `read` runs on the calling thread, `write` on the writer thread (one call at a
  /// time, in order). The helper threads (and the engine's host threads they start) block asynchronous signals, so
  /// that SIGINT and SIGTERM reach the calling thread and interrupt its read. The first exception from `read`,
  /// `write` or the engine (BadDecrypt, AuthenticationFailed at the end) stops all three and is rethrown here; what
  /// was written before stays written, so callers that must not release a failed stream's output write it where
  /// they can discard it (the CLI: a temporary file). The last batch's output is written only after the padding or
  /// the GCM tag checked. Only for a stream that has had no input yet; the stream is finished afterwards.
  void pipe(const StreamReader& read, const StreamSink& write);
  /// Called on the processing thread after each batch with the number of input bytes processed so far: the bytes
  /// before that offset are not read again (a caller that mapped a file may release their pages).
  using StreamProgress = std::function<void(std::uint64_t processed)>;
  /// pipe() over input already in memory, such as a file the caller mapped: each batch is processed from `input`
  /// straight into a pool buffer (not copied first), its pages populated a batch ahead on the calling thread
  /// (MADV_POPULATE_READ) so that a mapped file's page faults overlap the processing. `input` must stay readable
  /// until pipe returns (pipe_fd does the mapping, and survives a file that shrinks meanwhile).
  void pipe(bytes_view input, const StreamSink& write, const StreamProgress& progress = {});

  /// Called on the calling thread after each batch is read, with the input bytes taken so far, and whenever a read
  /// was interrupted by a signal: it may throw to stop the stream (a Ctrl-C the caller wants to honour).
  using StreamCheck = std::function<void(std::uint64_t bytes_in)>;
  /// pipe() from a file descriptor, the rest of it from its current offset: the way to encrypt a file. A regular
  /// file of at least a chunk is mapped (pipe(bytes_view): no copy on the way in, its pages released once processed,
  /// so memory stays that of the pool), or, for an engine off the host threads (StreamOptions::file_input), read
  /// into the batch buffers by several pread()s at once (the engine pins the buffers: a GPU moves each batch by DMA
  /// with no host copy); anything else (a pipe, a terminal, a small file) is read. While a file is mapped, a SIGBUS
  /// handler turns pages lost to a file that shrinks into zeros (other SIGBUS go to the previous handler); a file
  /// that shrinks fails the stream with Error("cannot read NAME: the file shrank while it was being read") either
  /// way; read errors are std::system_error("cannot read NAME", errno). `name` names the input in those messages.
  void pipe_fd(int fd, std::string_view name, const StreamSink& write, const StreamCheck& check = {});

  /// The engine that ran the batches so far ("" before the first).
  const std::string& engine_used() const;
  /// Input bytes taken so far.
  std::uint64_t bytes_in() const;

  /// The stream's internals (src/stream/cipher_stream_state.hpp); opaque here.
  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace cryptaccel

// Streaming encryption (include/cryptaccel/stream.hpp): input collected into batches of chunks, each batch one
// run_batch call of independent jobs, the chaining values (CTR counter, CBC IV, XTS tweak) carried from batch to batch.
#include "cryptaccel/stream.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "algo/block_modes.hpp"
#include "api/ct.hpp"
#include "api/job_failure.hpp"
#include "api/secret_buffer.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/error.hpp"
#include "engine/engine.hpp"
#include "engine/gcm_split.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel {

namespace {

/// The engine a stream of `spec` runs its GCM or single-unit XTS on (the building blocks of engine/gcm_split.hpp and
/// engine/xts_split.hpp); `auto` keeps such streams on the host.
const engine::Engine& building_block_engine(std::string_view requested, const CipherSpec& spec, Direction dir,
                                            std::size_t chunk_bytes) {
  return engine::select_engine(requested, spec, dir, engine::Work::of(engine::WorkKind::cipher, 1, chunk_bytes));
}

}  // namespace

bool streamable(const CipherSpec& spec, std::size_t xts_unit, std::string_view engine) {
  if (spec.mode != Mode::xts || xts_unit > 0) return true;
  // One data unit as long as the stream: only on an engine whose XTS kernel starts at any block. A 64-byte probe key
  // with distinct halves stands for the real one (the answer depends on the engine and the cipher only).
  std::uint8_t probe[64];
  for (std::size_t i = 0; i < sizeof probe; ++i) probe[i] = static_cast<std::uint8_t>(i);
  try {
    const engine::Engine& e = building_block_engine(engine, spec, Direction::encrypt, 1 << 20);
    return e.xts_split_key(spec.cipher, bytes_view(probe, spec.key_size())) != nullptr;
  } catch (const EngineUnavailable&) {
    return false;
  }
}

struct CipherStream::State {
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
  SecretBuffer in;          // collected input: a batch + 32 bytes (what held_back() keeps, at most a GCM tag or two
                            // XTS blocks)
  std::size_t in_len = 0;
  SecretBuffer out;         // one batch's output, or the last piece's (a batch + 32 bytes, padding included)
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
        std::size_t chunk_bytes, std::size_t chunks)
      : spec(s), unpadded(s), dir(d), key(p.key.size()), xts_unit(p.xts_unit), engine(o.engine), threads(host_threads),
        chunk(chunk_bytes), batch(chunk_bytes * chunks), in(chunk_bytes * chunks + 32), out(chunk_bytes * chunks + 32),
        tag_len(p.tag_len) {
    unpadded.padding = false;
    std::copy(p.key.begin(), p.key.end(), key.data.begin());
    if (s.mode != Mode::gcm) std::copy(p.iv.begin(), p.iv.end(), chain);  // 16 bytes (checked); GCM keeps its own
  }

  /// Bytes that must stay back until finish: a padded decryption's last block (at least 1 byte of it), a GCM
  /// decryption's tag (the last tag_len bytes of the stream).
  std::size_t held_back() const {
    if (xts_key) return 32;  // the last full block and a partial one go together (ciphertext stealing)
    if (dir != Direction::decrypt) return 0;
    return spec.mode == Mode::gcm ? tag_len : spec.pads() ? 1 : 0;
  }

  /// One XTS data unit's next `n` bytes in chunks over host threads; the chunk that ends a partial last block also
  /// takes the full block before it.
  void process_xts_unit(std::size_t n) {
    std::vector<std::pair<std::size_t, std::size_t>> pieces;  // (offset, length)
    for (std::size_t off = 0; off < n; off += chunk) pieces.emplace_back(off, std::min(chunk, n - off));
    if (pieces.size() > 1 && n % 16 != 0 && pieces.back().second < 16) {
      pieces[pieces.size() - 2].second += pieces.back().second;
      pieces.pop_back();
    }
    engine::parallel_for(pieces.size(), threads, [&](std::size_t k) {
      const auto [off, len] = pieces[k];
      xts_key->crypt(dir, chain, xts_block + off / 16, in.data.data() + off, out.data.data() + off, len);
    });
    xts_block += n / 16;
  }

  /// Chunk k's IV, for a batch over in[0, n).
  void chunk_iv(std::size_t offset, std::uint8_t iv[16]) const {
    std::memcpy(iv, chain, 16);
    switch (spec.mode) {
      case Mode::ctr: algo::ctr128_add(iv, offset / 16); break;
      case Mode::xts: algo::le128_add(iv, offset / xts_unit); break;
      case Mode::cbc:
        if (offset > 0) std::memcpy(iv, in.data.data() + offset - 16, 16);  // decryption: the ciphertext before it
        break;
      default: break;
    }
  }

  /// Runs `jobs` on the engine and throws on the first failure.
  void run(const CipherSpec& s, std::span<CipherJob> jobs) {
    const BatchReport report = run_batch(s, dir, jobs, BatchOptions{engine, xts_unit, threads});
    engine_used = report.engine;
    for (const CipherJob& j : jobs) throw_on_failure(j);
  }

  /// Encrypts or decrypts in[0, n) (with `s`: the last piece of a stream may be padded), hands the output to the
  /// sink, moves the chaining value on and drops those bytes from `in`.
  void process(std::size_t n, const CipherSpec& s, const StreamSink& sink) {
    if (n == 0 && !s.pads()) return;  // nothing to do (an empty padded piece still makes a block of padding)
    std::size_t produced = 0;
    if (gcm) {
      gcm->process(dir, in.data.data(), out.data.data(), n, threads, chunk);
      produced = n;
    } else if (xts_key) {
      process_xts_unit(n);
      produced = n;
    } else if (spec.mode == Mode::cbc && dir == Direction::encrypt) {
      // Serial: each chunk's IV is the previous chunk's last ciphertext block.
      for (std::size_t offset = 0; offset < n || (offset == 0 && n == 0); offset += chunk) {
        const std::size_t len = std::min(chunk, n - offset);
        CipherJob job{key.data, bytes_view(chain, 16), bytes_view(in.data.data() + offset, len),
                      mutable_bytes(out.data.data() + produced, out.data.size() - produced)};
        run(offset + len == n ? s : unpadded, {&job, 1});
        produced += job.out_len;
        if (job.out_len >= 16) std::memcpy(chain, out.data.data() + produced - 16, 16);
        if (n == 0) break;
      }
    } else {
      std::vector<CipherJob> jobs;
      std::vector<std::uint8_t> ivs((n / chunk + 1) * 16);
      for (std::size_t offset = 0, k = 0; offset < n || (offset == 0 && n == 0); offset += chunk, ++k) {
        const std::size_t len = std::min(chunk, n - offset);
        chunk_iv(offset, ivs.data() + 16 * k);
        jobs.push_back(CipherJob{key.data, spec.mode == Mode::ecb ? bytes_view{} : bytes_view(ivs.data() + 16 * k, 16),
                                 bytes_view(in.data.data() + offset, len),
                                 mutable_bytes(out.data.data() + offset, len + (offset + len == n ? 16 : 0))});
        if (n == 0) break;
      }
      // Only the last job may carry padding: the others run with the unpadded spec.
      if (s.pads() && jobs.size() > 1) run(unpadded, std::span<CipherJob>(jobs).first(jobs.size() - 1));
      run(s, s.pads() ? std::span<CipherJob>(jobs).last(1) : std::span<CipherJob>(jobs));
      produced = n - jobs.back().in.size() + jobs.back().out_len;
      switch (spec.mode) {
        case Mode::ctr: algo::ctr128_add(chain, n / 16); break;
        case Mode::xts: algo::le128_add(chain, n / xts_unit); break;
        case Mode::cbc:
          if (n >= 16) std::memcpy(chain, in.data.data() + n - 16, 16);
          break;
        default: break;
      }
    }
    if (produced) sink(bytes_view(out.data.data(), produced));
    std::memmove(in.data.data(), in.data.data() + n, in_len - n);
    in_len -= n;
  }
};

namespace {

/// Chunk size for `spec`: whole blocks, and for XTS whole data units (at least one).
std::size_t chunk_for(const CipherSpec& spec, std::size_t xts_unit, std::size_t requested) {
  const std::size_t unit = spec.mode == Mode::xts && xts_unit ? xts_unit : 16;
  return std::max<std::size_t>(requested / unit, 1) * unit;
}

}  // namespace

CipherStream::CipherStream(const CipherSpec& spec, Direction dir, const CipherParams& params,
                           const StreamOptions& options) {
  const bool gcm = spec.mode == Mode::gcm;
  if (gcm ? params.iv.empty() : spec.mode != Mode::ecb && params.iv.size() != 16)
    throw InvalidArgument("invalid IV length " + std::to_string(params.iv.size()) + " for " + spec.name() +
                          (gcm ? " (expected a non-empty nonce)" : " (expected 16 bytes)"));
  if (gcm && (params.tag_len < 4 || params.tag_len > 16))
    throw InvalidArgument("invalid GCM tag length " + std::to_string(params.tag_len) + " (expected 4..16 bytes)");
  if (params.key.size() != spec.key_size())
    throw InvalidArgument("invalid key length " + std::to_string(params.key.size()) + " for " + spec.name() +
                          " (expected " + std::to_string(spec.key_size()) + " bytes)");
  const std::size_t threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t chunks = options.chunks_per_batch ? options.chunks_per_batch : 4 * threads;
  state_ = std::make_unique<State>(spec, dir, params, options, threads,
                                   chunk_for(spec, params.xts_unit, options.chunk_bytes), chunks);
  if (gcm) {
    // GCM streams through the engine's GCM building blocks (engine/gcm_split.hpp), not through batches of jobs.
    const engine::Engine& e = building_block_engine(options.engine, spec, dir, options.chunk_bytes);
    state_->gcm_key = e.gcm_split_key(spec.cipher, params.key);
    if (!state_->gcm_key)
      throw EngineUnavailable("engine '" + std::string(e.name()) + "' does not stream " + spec.name() +
                              " (use cpu or ref)");
    state_->gcm = std::make_unique<engine::GcmStreamState>(*state_->gcm_key, params.iv, params.aad);
    state_->engine_used = std::string(e.name());
  }
  if (spec.mode == Mode::xts && params.xts_unit == 0) {
    // One data unit as long as the stream: through the engine's XTS kernel that starts at any block (the cpu engine).
    const std::size_t half = params.key.size() / 2;
    if (ct::equal(params.key.data(), params.key.data() + half, half))
      throw InvalidArgument("XTS key halves must differ (IEEE 1619)");
    const engine::Engine& e = building_block_engine(options.engine, spec, dir, options.chunk_bytes);
    state_->xts_key = e.xts_split_key(spec.cipher, params.key);
    if (!state_->xts_key)
      throw EngineUnavailable("engine '" + std::string(e.name()) + "' does not stream " + spec.name() +
                              " without data units (use cpu, or xts_unit > 0)");
    state_->engine_used = std::string(e.name());
  }
}

CipherStream::~CipherStream() = default;

void CipherStream::update(bytes_view in, const StreamSink& sink) {
  State& s = *state_;
  if (s.finished) throw InvalidArgument("stream already finished");
  const std::size_t threshold = s.batch + s.held_back();
  while (!in.empty()) {
    const std::size_t take = std::min(in.size(), s.in.data.size() - s.in_len);
    std::memcpy(s.in.data.data() + s.in_len, in.data(), take);
    s.in_len += take;
    s.bytes_in += take;
    in = in.subspan(take);
    while (s.in_len >= threshold) s.process(s.batch, s.unpadded, sink);
  }
}

void CipherStream::finish(const StreamSink& sink) {
  State& s = *state_;
  if (s.finished) throw InvalidArgument("stream already finished");
  s.finished = true;
  if (s.gcm) {
    std::uint8_t tag[16];
    if (s.dir == Direction::encrypt) {
      s.process(s.in_len, s.spec, sink);
      s.gcm->tag(tag, s.tag_len);
      sink(bytes_view(tag, s.tag_len));
      return;
    }
    if (s.in_len < s.tag_len) throw BadDecrypt("ciphertext is shorter than the GCM tag");
    s.process(s.in_len - s.tag_len, s.spec, sink);
    s.gcm->tag(tag, s.tag_len);
    const bool good = ct::equal(tag, s.in.data.data(), s.tag_len);
    secure_wipe(tag, sizeof tag);
    if (!good) throw AuthenticationFailed();
    return;
  }
  if (s.xts_key && s.xts_block == 0 && s.in_len < 16) throw BadDecrypt("XTS needs at least 16 bytes of data");
  if (s.spec.pads()) {
    if (s.dir == Direction::decrypt && (s.in_len == 0 || s.in_len % 16 != 0))
      throw BadDecrypt("the ciphertext length must be a non-zero multiple of 16 bytes");
    // Whole chunks first, then the last piece (1..chunk bytes; 0 when encrypting an empty stream) padded.
    const std::size_t head = s.in_len == 0 ? 0 : (s.in_len - 1) / s.chunk * s.chunk;
    if (head) s.process(head, s.unpadded, sink);
  }
  s.process(s.in_len, s.spec, sink);
}

const std::string& CipherStream::engine_used() const { return state_->engine_used; }
std::uint64_t CipherStream::bytes_in() const { return state_->bytes_in; }

}  // namespace cryptaccel

// Streaming encryption (include/cryptaccel/stream.hpp): the stream's state and update()/finish(). Input is
// collected into batches of chunks, each batch processed in place as one run_batch call of independent jobs (or
// through the GCM and XTS building blocks), the chaining values (CTR counter, CBC IV, XTS tweak) carried from batch
// to batch. pipe() is in stream_pipeline.cpp.
#include "cryptaccel/stream.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "algo/block_modes.hpp"
#include "stream/cipher_stream_state.hpp"
#include "stream/gcm_offload.hpp"
#include "common/ct.hpp"
#include "api/job_failure.hpp"
#include "common/secret_buffer.hpp"
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

/// Whether a GCM stream on `e` runs its counter mode there in batches (gcm_offload.hpp): an engine off the host
/// threads (a GPU) without GCM building blocks, that runs CTR of the same cipher.
bool offloads_gcm_ctr(const engine::Engine& e, const CipherSpec& gcm) {
  CipherSpec ctr = gcm;
  ctr.mode = Mode::ctr;
  return !e.runs_on_host_threads() && e.supports(ctr, Direction::encrypt);
}

/// GCM building blocks under `key` from a host engine (cpu, else ref): GHASH and the few blocks of the set-up for a
/// stream whose counter mode runs on a GPU.
std::unique_ptr<engine::GcmSplitKey> host_gcm_key(const CipherSpec& spec, bytes_view key) {
  for (const char* name : {"cpu", "ref"}) {
    try {
      if (auto k = engine::select_engine(name, spec, Direction::encrypt).gcm_split_key(spec.cipher, key)) return k;
    } catch (const EngineUnavailable&) {
    }
  }
  return nullptr;
}

}  // namespace

bool streamable(const CipherSpec& spec, std::size_t xts_unit, std::string_view engine) {
  // One ChaCha20-Poly1305 message has one tag over all of it: no stream yet (the one-shot API serves it; age's
  // format streams as many independent chunk messages instead, src/age).
  if (spec.mode == Mode::poly1305) return false;
  const bool gcm = spec.mode == Mode::gcm;
  if (!gcm && (spec.mode != Mode::xts || xts_unit > 0)) return true;
  // GCM, and one XTS data unit as long as the stream: only on an engine with the building blocks. A 64-byte probe
  // key with distinct halves stands for the real one (the answer depends on the engine and the cipher only).
  std::uint8_t probe[64];
  for (std::size_t i = 0; i < sizeof probe; ++i) probe[i] = static_cast<std::uint8_t>(i);
  try {
    const engine::Engine& e = building_block_engine(engine, spec, Direction::encrypt, 1 << 20);
    const bytes_view key(probe, spec.key_size());
    if (gcm) return e.gcm_split_key(spec.cipher, key) != nullptr || offloads_gcm_ctr(e, spec);
    return e.xts_split_key(spec.cipher, key) != nullptr;
  } catch (const EngineUnavailable&) {
    return false;
  }
}

CipherStream::State::State(const CipherSpec& s, Direction d, const CipherParams& p, const StreamOptions& o,
                           std::size_t host_threads, std::size_t chunk_bytes, std::size_t chunks)
    : spec(s), unpadded(s), dir(d), key(p.key.size()), xts_unit(p.xts_unit), engine(o.engine), threads(host_threads),
      chunk(chunk_bytes), batch(chunk_bytes * chunks), pipeline_buffers(std::max<std::size_t>(o.pipeline_buffers, 3)),
      file_input(o.file_input),
      tag_len(p.tag_len) {
  unpadded.padding = false;
  std::copy(p.key.begin(), p.key.end(), key.data.begin());
  if (s.mode != Mode::gcm) std::copy(p.iv.begin(), p.iv.end(), chain);  // 16 bytes (checked); GCM keeps its own
}

std::size_t CipherStream::State::held_back() const {
  if (xts_key) return 32;  // the last full block and a partial one go together (ciphertext stealing)
  if (dir != Direction::decrypt) return 0;
  return spec.mode == Mode::gcm ? tag_len : spec.pads() ? 1 : 0;
}

std::size_t CipherStream::State::granule() const { return spec.mode == Mode::xts && xts_unit ? xts_unit : 16; }

/// One XTS data unit's next `n` bytes in chunks over host threads; the chunk that ends a partial last block also
/// takes the full block before it.
void CipherStream::State::crypt_xts_unit(const std::uint8_t* src, std::uint8_t* dst, std::size_t n) {
  std::vector<std::pair<std::size_t, std::size_t>> pieces;  // (offset, length)
  for (std::size_t off = 0; off < n; off += chunk) pieces.emplace_back(off, std::min(chunk, n - off));
  if (pieces.size() > 1 && n % 16 != 0 && pieces.back().second < 16) {
    pieces[pieces.size() - 2].second += pieces.back().second;
    pieces.pop_back();
  }
  engine::parallel_for(pieces.size(), threads, [&](std::size_t k) {
    const auto [off, len] = pieces[k];
    xts_key->crypt(dir, chain, xts_block + off / 16, src + off, dst + off, len);
  });
  xts_block += n / 16;
}

/// The IV of the chunk at `offset` of a batch that starts at `src`.
void CipherStream::State::chunk_iv(const std::uint8_t* src, std::size_t offset, std::uint8_t iv[16]) const {
  std::memcpy(iv, chain, 16);
  switch (spec.mode) {
    case Mode::ctr: algo::ctr128_add(iv, offset / 16); break;
    case Mode::xts: algo::le128_add(iv, offset / xts_unit); break;
    case Mode::cbc:
      if (offset > 0) std::memcpy(iv, src + offset - 16, 16);  // decryption: the ciphertext before it
      break;
    default: break;
  }
}

/// Runs `jobs` on the engine and throws on the first failure.
void CipherStream::State::run(const CipherSpec& s, std::span<CipherJob> jobs) {
  const BatchReport report = run_batch(s, dir, jobs, BatchOptions{engine, xts_unit, threads});
  engine_used = report.engine;
  for (const CipherJob& j : jobs) throw_on_failure(j);
}

std::size_t CipherStream::State::crypt(const std::uint8_t* src, std::uint8_t* dst, std::size_t n,
                                       const CipherSpec& s) {
  if (n == 0 && !s.pads()) return 0;  // nothing to do (an empty padded piece still makes a block of padding)
  if (gcm) {
    gcm->process(dir, src, dst, n, threads, chunk);
    return n;
  }
  if (xts_key) {
    crypt_xts_unit(src, dst, n);
    return n;
  }
  std::size_t produced = 0;
  const std::size_t capacity = n + (s.pads() ? kGrowth : 0);
  if (spec.mode == Mode::cbc && dir == Direction::encrypt) {
    // Serial: each chunk's IV is the previous chunk's last ciphertext block.
    for (std::size_t offset = 0; offset < n || (offset == 0 && n == 0); offset += chunk) {
      const std::size_t len = std::min(chunk, n - offset);
      CipherJob job{key.data, bytes_view(chain, 16), bytes_view(src + offset, len),
                    mutable_bytes(dst + produced, capacity - produced)};
      run(offset + len == n ? s : unpadded, {&job, 1});
      produced += job.out_len;
      if (job.out_len >= 16) std::memcpy(chain, dst + produced - 16, 16);
      if (n == 0) break;
    }
    return produced;
  }
  // Every chunk's IV, and the next batch's chaining value, before any output overwrites the input (in place).
  std::vector<CipherJob> jobs;
  std::vector<std::uint8_t> ivs((n / chunk + 1) * 16);
  std::uint8_t next_chain[16];
  std::memcpy(next_chain, chain, 16);
  switch (spec.mode) {
    case Mode::ctr: algo::ctr128_add(next_chain, n / 16); break;
    case Mode::xts: algo::le128_add(next_chain, n / xts_unit); break;
    case Mode::cbc:
      if (n >= 16) std::memcpy(next_chain, src + n - 16, 16);
      break;
    default: break;
  }
  for (std::size_t offset = 0, k = 0; offset < n || (offset == 0 && n == 0); offset += chunk, ++k) {
    const std::size_t len = std::min(chunk, n - offset);
    chunk_iv(src, offset, ivs.data() + 16 * k);
    jobs.push_back(CipherJob{key.data, spec.mode == Mode::ecb ? bytes_view{} : bytes_view(ivs.data() + 16 * k, 16),
                             bytes_view(src + offset, len),
                             mutable_bytes(dst + offset, offset + len == n ? capacity - offset : len)});
    if (n == 0) break;
  }
  // Only the last job may carry padding: the others run with the unpadded spec.
  if (s.pads() && jobs.size() > 1) run(unpadded, std::span<CipherJob>(jobs).first(jobs.size() - 1));
  run(s, s.pads() ? std::span<CipherJob>(jobs).last(1) : std::span<CipherJob>(jobs));
  std::memcpy(chain, next_chain, 16);
  return n - jobs.back().in.size() + jobs.back().out_len;
}

std::size_t CipherStream::State::crypt_last(const std::uint8_t* src, std::uint8_t* dst, std::size_t n) {
  if (gcm) {
    std::uint8_t tag[16];
    if (dir == Direction::encrypt) {
      crypt(src, dst, n, spec);
      gcm->tag(dst + n, tag_len);
      return n + tag_len;
    }
    if (n < tag_len) throw BadDecrypt("ciphertext is shorter than the GCM tag");
    const std::size_t len = n - tag_len;
    std::memcpy(tag, src + len, tag_len);  // before the output (in place: the same bytes) can reach it
    crypt(src, dst, len, spec);
    std::uint8_t computed[16];
    gcm->tag(computed, tag_len);
    const bool good = ct::equal(computed, tag, tag_len);
    secure_wipe(computed, sizeof computed);
    if (!good) {
      secure_wipe(dst, len);
      throw AuthenticationFailed();
    }
    return len;
  }
  if (xts_key && xts_block == 0 && n < 16) throw BadDecrypt("XTS needs at least 16 bytes of data");
  if (!spec.pads()) return crypt(src, dst, n, spec);
  if (dir == Direction::decrypt && (n == 0 || n % 16 != 0))
    throw BadDecrypt("the ciphertext length must be a non-zero multiple of 16 bytes");
  // Whole chunks first, then the last piece (1..chunk bytes; 0 when encrypting an empty stream) padded.
  const std::size_t head = n == 0 ? 0 : (n - 1) / chunk * chunk;
  const std::size_t produced = crypt(src, dst, head, unpadded);
  try {
    return produced + crypt(src + head, dst + head, n - head, spec);
  } catch (...) {
    secure_wipe(dst, n);  // the head's output and whatever the failed last piece left
    throw;
  }
}

namespace {

/// The least batch a stream gives an engine that does not run on host threads (a GPU), whatever the core count:
/// each batch costs such an engine a pipeline fill and drain (copies in, kernels and copies out overlap only within
/// a batch).
constexpr std::size_t kGpuBatchBytes = std::size_t{64} << 20;

/// Chunk size for `spec`: whole blocks, and for XTS whole data units (at least one).
std::size_t chunk_for(const CipherSpec& spec, std::size_t xts_unit, std::size_t requested) {
  const std::size_t unit = spec.mode == Mode::xts && xts_unit ? xts_unit : 16;
  return std::max<std::size_t>(requested / unit, 1) * unit;
}

}  // namespace

CipherStream::CipherStream(const CipherSpec& spec, Direction dir, const CipherParams& params,
                           const StreamOptions& options) {
  if (spec.mode == Mode::poly1305)
    throw EngineUnavailable("chacha20-poly1305 does not stream as one message (one tag over all of it): use "
                            "encrypt/decrypt, or the age format (seal/open), which streams it in chunks");
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
  const std::size_t chunk = chunk_for(spec, params.xts_unit, options.chunk_bytes);
  std::size_t chunks = options.chunks_per_batch ? options.chunks_per_batch : 4 * threads;
  // The engine the batches will run on (run_batch chooses again per batch; this is for sizing and pinning).
  const engine::Engine* batch_engine = nullptr;
  try {
    batch_engine = &engine::select_engine(options.engine, spec, dir,
                                          engine::Work::of(engine::WorkKind::cipher, chunks, chunk * chunks));
  } catch (const EngineUnavailable&) {  // reported by the first batch
  }
  // An engine off the host threads (a GPU) pays a fixed cost per batch: give it batches of at least kGpuBatchBytes.
  if (!options.chunks_per_batch && batch_engine && !batch_engine->runs_on_host_threads())
    chunks = std::max(chunks, (kGpuBatchBytes + chunk - 1) / chunk);
  state_ = std::make_unique<State>(spec, dir, params, options, threads, chunk, chunks);
  state_->batch_engine = batch_engine;
  if (gcm) {
    // GCM streams through the engine's GCM building blocks (engine/gcm_split.hpp), not through batches of jobs; on a
    // GPU, its batches run the counter mode and a host engine's building blocks GHASH (gcm_offload.hpp).
    const engine::Engine& e = building_block_engine(options.engine, spec, dir, options.chunk_bytes);
    state_->gcm_key = e.gcm_split_key(spec.cipher, params.key);
    engine::GcmStreamState::BulkCtr bulk_ctr;
    if (!state_->gcm_key && offloads_gcm_ctr(e, spec)) {
      state_->gcm_key = host_gcm_key(spec, params.key);
      bulk_ctr = gcm_ctr_through_batches(spec.cipher, state_->key.data, std::string(e.name()), threads);
    }
    if (!state_->gcm_key)
      throw EngineUnavailable("engine '" + std::string(e.name()) + "' does not stream " + spec.name() +
                              " (use cpu or ref)");
    state_->gcm =
        std::make_unique<engine::GcmStreamState>(*state_->gcm_key, params.iv, params.aad, std::move(bulk_ctr));
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
  if (!s.in) s.in = std::make_unique<SecretBuffer>(s.batch + State::kMaxCarry + State::kGrowth);
  std::uint8_t* const buffer = s.in->data.data();
  const std::size_t threshold = s.batch + s.held_back();
  while (!in.empty()) {
    const std::size_t take = std::min(in.size(), s.batch + State::kMaxCarry - s.in_len);
    std::memcpy(buffer + s.in_len, in.data(), take);
    s.in_len += take;
    s.bytes_in += take;
    in = in.subspan(take);
    while (s.in_len >= threshold) {
      sink(bytes_view(buffer, s.crypt(buffer, buffer, s.batch)));
      std::memmove(buffer, buffer + s.batch, s.in_len - s.batch);
      s.in_len -= s.batch;
    }
  }
}

void CipherStream::finish(const StreamSink& sink) {
  State& s = *state_;
  if (s.finished) throw InvalidArgument("stream already finished");
  s.finished = true;
  if (!s.in) s.in = std::make_unique<SecretBuffer>(State::kMaxCarry + State::kGrowth);
  std::uint8_t* const buffer = s.in->data.data();
  const std::size_t produced = s.crypt_last(buffer, buffer, s.in_len);
  s.in_len = 0;
  if (produced) sink(bytes_view(buffer, produced));
}

const std::string& CipherStream::engine_used() const { return state_->engine_used; }
std::uint64_t CipherStream::bytes_in() const { return state_->bytes_in; }

}  // namespace cryptaccel

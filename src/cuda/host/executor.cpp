#include "cuda/host/executor.hpp"

#include "cryptaccel/error.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "common/ct.hpp"
#include "cuda/host/host_pins.hpp"
#include "engine/hash_variant.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr std::uint64_t kCopyPiece = 1u << 20;  // host copies are spread over threads in pieces of this size

std::uint64_t align256(std::uint64_t n) { return (n + 255) / 256 * 256; }

/// Runs `fn(begin, end)` over [0, n) in pieces on up to `threads` host threads.
void parallel_ranges(std::uint64_t n, std::size_t threads, const std::function<void(std::uint64_t, std::uint64_t)>& fn) {
  const std::uint64_t pieces = (n + kCopyPiece - 1) / kCopyPiece;
  if (pieces <= 1) {
    if (n) fn(0, n);
    return;
  }
  engine::parallel_for(pieces, threads, [&](std::size_t p) {
    const std::uint64_t b = p * kCopyPiece;
    fn(b, std::min(n, b + kCopyPiece));
  });
}

void parallel_copy(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t n, std::size_t threads) {
  parallel_ranges(n, threads, [&](std::uint64_t b, std::uint64_t e) { std::memcpy(dst + b, src + b, e - b); });
}

/// Staging and device buffers of the pipeline's slots. The destructor waits for the slots' streams and frees
/// everything, also when a chunk threw; `wipe_staging` bytes of each staging buffer are wiped on release then.
class Slots {
 public:
  Slots(Device& dev, std::size_t slots, std::uint64_t staging_bytes, std::uint64_t device_bytes) : dev_(dev) {
    for (std::size_t s = 0; s < slots; ++s) {
      streams_.push_back(dev.stream(s % dev.stream_count()));
      staging_.push_back(dev.alloc_pinned(std::max<std::uint64_t>(staging_bytes, 256)));
      device_.push_back(dev.alloc(std::max<std::uint64_t>(device_bytes, 256), streams_.back()));
    }
    wipe_ = staging_bytes;
  }
  ~Slots() {
    for (std::size_t s = 0; s < staging_.size(); ++s) {
      try {
        dev_.synchronize(streams_[s]);
      } catch (...) {
      }
      dev_.free(device_[s], streams_[s]);
      // Normal completion wiped the key regions already; after an error everything staged is wiped.
      dev_.release_pinned(staging_[s], streams_[s], 0, failed_ ? wipe_ : 0);
    }
  }
  Slots(const Slots&) = delete;
  Slots& operator=(const Slots&) = delete;
  std::size_t size() const { return staging_.size(); }
  Stream stream(std::size_t s) const { return streams_[s]; }
  std::uint8_t* staging(std::size_t s) const { return staging_[s]; }
  std::uint8_t* device(std::size_t s) const { return device_[s]; }
  void mark_failed() { failed_ = true; }

 private:
  Device& dev_;
  std::vector<Stream> streams_;
  std::vector<std::uint8_t*> staging_, device_;
  std::uint64_t wipe_ = 0;
  bool failed_ = false;
};

/// Drives pipeline_schedule over the slots.
template <class Fill, class Launch, class Retire>
void run_pipeline(Slots& slots, std::size_t chunks, Fill fill, Launch launch, Retire retire) {
  try {
    for (const PipelineStep& step : pipeline_schedule(chunks, slots.size())) {
      switch (step.kind) {
        case PipelineStep::fill: fill(step.chunk, step.slot); break;
        case PipelineStep::launch: launch(step.chunk, step.slot); break;
        case PipelineStep::retire: retire(step.chunk, step.slot); break;
      }
    }
  } catch (...) {
    slots.mark_failed();
    throw;
  }
}

/// Queues a chunk's cipher kernels. `before_finalize` runs just before GCM's finalize (stream waits for a job cut
/// over several chunks); `wipe_failed`: zero the output of GCM messages whose tag did not match (device-resident).
void enqueue_cipher_ops(Device& dev, const CipherSpec& spec, Direction dir, const ChunkImage& img, CipherArgs a,
                        Stream s, bool wipe_failed, const std::function<void()>& before_finalize) {
  dev.cipher(CipherOp::expand_keys, a, img.key_count(), s);
  const std::uint64_t units = img.units();
  switch (spec.mode) {
    case Mode::poly1305: throw InvalidArgument("the cuda engine has no ChaCha20-Poly1305");  // supports() says no
    case Mode::ecb: dev.cipher(CipherOp::ecb, a, units, s); break;
    case Mode::ctr: dev.cipher(CipherOp::ctr, a, units, s); break;
    case Mode::xts: dev.cipher(CipherOp::xts, a, units, s); break;
    case Mode::cbc:
      if (dir == Direction::encrypt) {
        dev.cipher(CipherOp::cbc_encrypt, a, img.jobs(), s);
      } else {
        dev.cipher(CipherOp::cbc_gather, a, units, s);
        dev.cipher(CipherOp::cbc_decrypt, a, units, s);
      }
      break;
    case Mode::gcm:
      dev.cipher(CipherOp::gcm_setup, a, img.parent_count(), s);
      if (dir == Direction::encrypt) dev.cipher(CipherOp::gcm_ctr, a, units, s);  // GHASH reads the ciphertext
      dev.cipher(CipherOp::ghash_segments, a, img.total_slots(), s);
      for (std::uint32_t level = 0; level < img.ghash_levels(); ++level) {
        a.level = level;
        dev.cipher(CipherOp::ghash_combine, a, img.total_slots() >> (level + 1), s);
      }
      dev.cipher(CipherOp::ghash_collect, a, img.jobs(), s);
      if (dir == Direction::decrypt) dev.cipher(CipherOp::gcm_ctr, a, units, s);
      if (img.finalizes()) {
        if (before_finalize) before_finalize();
        dev.cipher(CipherOp::gcm_finalize, a, img.parent_count(), s);
        if (wipe_failed && dir == Direction::decrypt) dev.cipher(CipherOp::gcm_wipe_failed, a, units, s);
      }
      break;
  }
}

/// Wipes the chunk's secrets on the device once its kernels are done: raw keys, key schedules, GCM states.
void wipe_device_secrets(Device& dev, const ChunkImage& img, std::uint8_t* dbase, Stream s) {
  if (img.raw_keys_bytes()) dev.zero(dbase + img.raw_keys_offset(), img.raw_keys_bytes(), s);
  if (img.keys_bytes()) dev.zero(dbase + img.keys_offset(), img.keys_bytes(), s);
  if (img.states_bytes()) dev.zero(dbase + img.states_offset(), img.states_bytes(), s);
}

void fail(CipherJob& job, JobStatus status, const char* why) {
  job.status = status;
  job.out_len = 0;
  job.error = why;
}

}  // namespace

CipherImpl impl_for(BlockCipher cipher, CipherImpl aes_impl) {
  return cipher == BlockCipher::sm4 ? CipherImpl::sm4 : aes_impl;
}

void run_cipher_batch(Device& dev, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                      const ExecOptions& options) {
  const CipherImpl impl = impl_for(spec.cipher, options.impl);
  const std::vector<Chunk> chunks = plan_cipher_chunks(spec, dir, jobs, options.xts_unit, options.limits);
  if (chunks.empty()) return;
  const bool pad_decrypt = spec.pads() && dir == Direction::decrypt;
  const bool gcm = spec.mode == Mode::gcm;

  std::vector<JobView> views;
  views.reserve(jobs.size());
  for (const CipherJob& job : jobs) views.push_back(job_view(job));

  // Jobs cut over several chunks: their slice count, CBC chain blocks (copied before any output is written), and
  // padding blocks held back until the whole job is done.
  std::map<std::uint32_t, std::uint32_t> split_slices;
  for (const Chunk& c : chunks)
    if (c.split) split_slices[c.slices[0].job] = c.slices[0].index + 1;
  std::map<std::uint32_t, std::vector<std::uint8_t>> chain_blocks;
  if (spec.mode == Mode::cbc && dir == Direction::decrypt) {
    for (const Chunk& c : chunks) {
      if (!c.split) continue;
      const Slice& s = c.slices[0];
      auto& blocks = chain_blocks[s.job];
      blocks.resize(16 * (s.index + 1));
      if (s.offset) std::memcpy(blocks.data() + 16 * s.index, jobs[s.job].in.data() + s.offset - 16, 16);
    }
    for (auto& [job, blocks] : chain_blocks) views[job].chain_blocks = blocks.data();
  }
  std::map<std::uint32_t, std::array<std::uint8_t, 16>> held_back;  // padded decryption: the final block

  std::vector<ChunkImage> images;
  images.reserve(chunks.size());
  std::uint64_t staging_bytes = 0, device_bytes = 0;
  for (const Chunk& c : chunks) {
    images.emplace_back(spec, dir, impl, options.xts_unit, views, c);
    staging_bytes = std::max(staging_bytes, images.back().upload_bytes());
    device_bytes = std::max(device_bytes, images.back().device_bytes());
  }

  Slots slots(dev, std::min(std::max<std::size_t>(1, options.slots), chunks.size()), staging_bytes, device_bytes);
  // Partial GHASH records of GCM jobs cut over several chunks, alive for the whole batch; the other streams wait
  // for their allocation.
  std::map<std::uint32_t, PiecePartial*> partials;
  struct PartialsGuard {  // freed only once every slot's stream is idle (after an error too)
    Device& dev;
    Slots& slots;
    std::map<std::uint32_t, PiecePartial*>& p;
    ~PartialsGuard() {
      if (p.empty()) return;
      for (std::size_t s = 0; s < slots.size(); ++s) {
        try {
          dev.synchronize(slots.stream(s));
        } catch (...) {
        }
      }
      for (auto& [job, ptr] : p) dev.free(ptr, slots.stream(0));
    }
  } partials_guard{dev, slots, partials};
  if (gcm) {
    for (auto& [job, count] : split_slices) partials[job] = reinterpret_cast<PiecePartial*>(
        dev.alloc(sizeof(PiecePartial) * count, slots.stream(0)));
    if (!partials.empty())
      for (std::size_t s = 1; s < slots.size(); ++s) dev.wait(slots.stream(s), slots.stream(0));
  }

  // Slices whose input or output lies in page-locked host memory (host_pins.hpp: the streaming pipeline's buffers)
  // are copied between it and the device directly rather than through staging: input of whole blocks with no
  // padding added on the host; output unless it must be held back (a GCM decryption until its tag verified, a padded
  // decryption until its padding checked).
  std::vector<std::vector<bool>> direct_in(chunks.size()), direct_out(chunks.size());
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    for (const Slice& sl : images[c].slices()) {
      const CipherJob& job = jobs[sl.job];
      direct_in[c].push_back(sl.len % 16 == 0 && sl.offset + sl.len <= job.in.size() &&
                             host_pins().covers(job.in.data() + sl.offset, sl.len));
      direct_out[c].push_back(!(gcm && dir == Direction::decrypt) && !pad_decrypt &&
                              sl.offset + sl.len <= job.out.size() &&
                              host_pins().covers(job.out.data() + sl.offset, sl.len));
    }
  }
  auto any = [](const std::vector<bool>& v) { return std::find(v.begin(), v.end(), true) != v.end(); };

  std::vector<CipherArgs> args(slots.size());
  auto fill = [&](std::size_t c, std::size_t s) {
    const ChunkImage& img = images[c];
    PiecePartial* split = chunks[c].split && gcm ? partials.at(chunks[c].slices[0].job) : nullptr;
    args[s] = img.write_metadata(slots.staging(s), slots.device(s), split, dev.xts_alpha_pow());
    const auto& sl = img.slices();
    if (sl.size() == 1) {
      if (!direct_in[c][0])
        parallel_ranges((sl[0].len + 15) / 16 * 16, options.host_threads,
                        [&](std::uint64_t b, std::uint64_t e) { img.copy_in(0, slots.staging(s), b, e); });
    } else {
      engine::parallel_for(sl.size(), options.host_threads, [&](std::size_t i) {
        if (!direct_in[c][i]) img.copy_in(i, slots.staging(s), 0, (sl[i].len + 15) / 16 * 16);
      });
    }
  };
  auto launch = [&](std::size_t c, std::size_t s) {
    const ChunkImage& img = images[c];
    const Stream st = slots.stream(s);
    std::uint8_t* dbase = slots.device(s);
    const auto& sl = img.slices();
    if (!any(direct_in[c])) {
      dev.copy_to_device(dbase, slots.staging(s), img.upload_bytes(), st);
    } else {  // the metadata from staging, each slice's data from its own place
      dev.copy_to_device(dbase + img.data_bytes(), slots.staging(s) + img.data_bytes(),
                         img.upload_bytes() - img.data_bytes(), st);
      for (std::size_t i = 0; i < sl.size(); ++i) {
        const std::uint8_t* from = direct_in[c][i] ? jobs[sl[i].job].in.data() + sl[i].offset
                                                   : slots.staging(s) + img.data_offset(i);
        dev.copy_to_device(dbase + img.data_offset(i), from, (sl[i].len + 15) / 16 * 16, st);
      }
    }
    // The last slice of a cut GCM job combines partials written on the other streams: wait for them first.
    auto wait_others = [&] {
      for (std::size_t t = 0; t < slots.size(); ++t)
        if (slots.stream(t) != st) dev.wait(st, slots.stream(t));
    };
    enqueue_cipher_ops(dev, spec, dir, img, args[s], st, false,
                       chunks[c].split ? std::function<void()>(wait_others) : std::function<void()>());
    wipe_device_secrets(dev, img, dbase, st);
    if (!any(direct_out[c])) {
      if (img.data_bytes()) dev.copy_to_host(slots.staging(s), dbase, img.data_bytes(), st);
    } else {
      for (std::size_t i = 0; i < sl.size(); ++i) {
        if (direct_out[c][i])
          dev.copy_to_host(jobs[sl[i].job].out.data() + sl[i].offset, dbase + img.data_offset(i), sl[i].len, st);
        else
          dev.copy_to_host(slots.staging(s) + img.data_offset(i), dbase + img.data_offset(i),
                           (sl[i].len + 15) / 16 * 16, st);
      }
    }
    if (img.results_bytes())
      dev.copy_to_host(slots.staging(s) + img.results_offset(), dbase + img.results_offset(), img.results_bytes(), st);
  };
  auto retire = [&](std::size_t c, std::size_t s) {
    const ChunkImage& img = images[c];
    dev.synchronize(slots.stream(s));
    secure_wipe(slots.staging(s) + img.raw_keys_offset(), img.raw_keys_bytes());
    const auto& sl = img.slices();
    auto finish_slice = [&](std::size_t i) {
      const Slice& s_ = sl[i];
      CipherJob& job = jobs[s_.job];
      const std::uint8_t* src = slots.staging(s) + img.data_offset(i);
      const std::uint64_t in_len = job.in.size();
      const bool whole = s_.index == 0 && s_.last;
      if (gcm && dir == Direction::decrypt && whole) {
        std::int32_t ok = 0;
        std::memcpy(&ok, slots.staging(s) + img.ok_offset(i), 4);
        if (!ok) return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
      }
      if (pad_decrypt && whole) {
        const std::size_t pad = ct::pkcs7_pad_length(src + in_len - 16);
        if (pad == 0) return fail(job, JobStatus::bad_decrypt, "bad decrypt: invalid padding");
        parallel_copy(job.out.data(), src, in_len - pad, sl.size() == 1 ? options.host_threads : 1);
        job.out_len = in_len - pad;
        job.status = JobStatus::ok;
        return;
      }
      // Data: the slice's bytes, except a padded decryption's final block, held back until it is checked.
      std::uint64_t n = s_.len;
      if (pad_decrypt && s_.last) {
        n -= 16;
        std::memcpy(held_back[s_.job].data(), src + n, 16);
      }
      if (!direct_out[c][i]) parallel_copy(job.out.data() + s_.offset, src, n, sl.size() == 1 ? options.host_threads : 1);
      if (!s_.last) return;
      if (gcm && dir == Direction::encrypt) std::memcpy(job.tag.data(), slots.staging(s) + img.tag_offset(i), job.tag.size());
      if (gcm && dir == Direction::decrypt) {
        std::int32_t ok = 0;
        std::memcpy(&ok, slots.staging(s) + img.ok_offset(i), 4);
        if (!ok) {  // the plaintext of earlier slices is already out: wipe it
          secure_wipe(job.out.data(), in_len);
          return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
        }
      }
      job.out_len = s_.offset + s_.len;
      if (pad_decrypt) {
        auto& block = held_back[s_.job];
        const std::size_t pad = ct::pkcs7_pad_length(block.data());
        if (pad == 0) {
          secure_wipe(job.out.data(), in_len - 16);
          secure_wipe(block.data(), 16);
          return fail(job, JobStatus::bad_decrypt, "bad decrypt: invalid padding");
        }
        std::memcpy(job.out.data() + in_len - 16, block.data(), 16 - pad);
        secure_wipe(block.data(), 16);
        job.out_len = in_len - pad;
      }
      job.status = JobStatus::ok;
      job.error.clear();
    };
    if (sl.size() == 1) finish_slice(0);
    else engine::parallel_for(sl.size(), options.host_threads, finish_slice);
  };
  run_pipeline(slots, chunks.size(), fill, launch, retire);
}

void enqueue_device_cipher(Device& dev, const CipherSpec& spec, Direction dir, std::span<const JobView> jobs,
                           CipherImpl impl, std::uint64_t xts_unit, Stream stream) {
  if (jobs.empty()) return;
  std::vector<JobView> views(jobs.begin(), jobs.end());
  Chunk chunk;
  for (std::size_t j = 0; j < views.size(); ++j) {
    views[j].on_device = true;
    chunk.slices.push_back(Slice{static_cast<std::uint32_t>(j), 0, 0, views[j].in_len, true});
    chunk.bytes += views[j].in_len;
  }
  const ChunkImage img(spec, dir, impl_for(spec.cipher, impl), xts_unit, views, chunk);
  std::uint8_t* staging = dev.alloc_pinned(img.upload_bytes());
  std::uint8_t* dbase = nullptr;
  try {
    dbase = dev.alloc(img.device_bytes(), stream);
    const CipherArgs args = img.write_metadata(staging, dbase, nullptr, dev.xts_alpha_pow());
    dev.copy_to_device(dbase, staging, img.upload_bytes(), stream);
    enqueue_cipher_ops(dev, spec, dir, img, args, stream, true, {});
    wipe_device_secrets(dev, img, dbase, stream);
    dev.free(dbase, stream);
  } catch (...) {
    if (dbase) dev.free(dbase, stream);
    dev.release_pinned(staging, stream, 0, img.upload_bytes());
    throw;
  }
  dev.release_pinned(staging, stream, img.raw_keys_offset(), img.raw_keys_bytes());
}

void run_hash_batch(Device& dev, HashAlgorithm algorithm, std::span<HashJob> jobs, const ExecOptions& options) {
  std::vector<std::size_t> pending;
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].status == JobStatus::pending) {
      pending.push_back(i);
      sizes.push_back(jobs[i].in.size() + jobs[i].digest.size() + 16);
    }
  if (pending.empty()) return;
  const std::vector<std::size_t> bounds = group_items(sizes, options.limits.max_bytes, std::size_t{1} << 20);
  const std::size_t chunks = bounds.size() - 1;

  // Layout of chunk c: data | offsets (n + 1) | digest offsets (n + 1) | digests; all but the digests go up.
  struct HashChunk {
    std::size_t first, count;
    std::uint64_t data, offsets, digest_offsets, upload, digests, total;
  };
  std::vector<HashChunk> layout(chunks);
  std::uint64_t staging_bytes = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    HashChunk& h = layout[c];
    h.first = bounds[c];
    h.count = bounds[c + 1] - bounds[c];
    std::uint64_t data = 0, digests = 0;
    for (std::size_t k = 0; k < h.count; ++k) {
      data += jobs[pending[h.first + k]].in.size();
      digests += jobs[pending[h.first + k]].digest.size();
    }
    h.data = 0;
    h.offsets = align256(data);
    h.digest_offsets = align256(h.offsets + 8 * (h.count + 1));
    h.upload = align256(h.digest_offsets + 8 * (h.count + 1));
    h.digests = h.upload;
    h.total = align256(h.digests + digests);
    staging_bytes = std::max(staging_bytes, h.total);
  }
  Slots slots(dev, std::min(std::max<std::size_t>(1, options.slots), chunks), staging_bytes, staging_bytes);
  auto fill = [&](std::size_t c, std::size_t s) {
    const HashChunk& h = layout[c];
    std::uint8_t* st = slots.staging(s);
    auto* off = reinterpret_cast<std::uint64_t*>(st + h.offsets);
    auto* doff = reinterpret_cast<std::uint64_t*>(st + h.digest_offsets);
    off[0] = doff[0] = 0;
    for (std::size_t k = 0; k < h.count; ++k) {
      const HashJob& job = jobs[pending[h.first + k]];
      off[k + 1] = off[k] + job.in.size();
      doff[k + 1] = doff[k] + job.digest.size();
    }
    engine::parallel_for((h.count + 4095) / 4096, options.host_threads, [&](std::size_t p) {
      for (std::size_t k = p * 4096; k < std::min(h.count, (p + 1) * 4096); ++k) {
        const HashJob& job = jobs[pending[h.first + k]];
        if (!job.in.empty()) std::memcpy(st + off[k], job.in.data(), job.in.size());
      }
    });
  };
  auto launch = [&](std::size_t c, std::size_t s) {
    const HashChunk& h = layout[c];
    const Stream st = slots.stream(s);
    std::uint8_t* d = slots.device(s);
    dev.copy_to_device(d, slots.staging(s), h.upload, st);
    HashArgs a{};
    a.variant = static_cast<std::uint8_t>(engine::to_variant(algorithm));
    a.count = h.count;
    a.data = d + h.data;
    a.offsets = reinterpret_cast<const std::uint64_t*>(d + h.offsets);
    a.digests = d + h.digests;
    a.digest_offsets = reinterpret_cast<const std::uint64_t*>(d + h.digest_offsets);
    dev.hash(a, st);
    dev.copy_to_host(slots.staging(s) + h.digests, d + h.digests, h.total - h.digests, st);
  };
  auto retire = [&](std::size_t c, std::size_t s) {
    const HashChunk& h = layout[c];
    dev.synchronize(slots.stream(s));
    const std::uint8_t* st = slots.staging(s);
    const auto* doff = reinterpret_cast<const std::uint64_t*>(st + h.digest_offsets);
    for (std::size_t k = 0; k < h.count; ++k) {
      HashJob& job = jobs[pending[h.first + k]];
      std::memcpy(job.digest.data(), st + h.digests + doff[k], job.digest.size());
      job.status = JobStatus::ok;
    }
  };
  run_pipeline(slots, chunks, fill, launch, retire);
}

void run_keccak_batch(Device& dev, std::span<KeccakState> states, const ExecOptions& options) {
  if (states.empty()) return;
  const std::size_t per_chunk = std::max<std::size_t>(1, options.limits.max_bytes / sizeof(KeccakState));
  const std::size_t chunks = (states.size() + per_chunk - 1) / per_chunk;
  const std::uint64_t bytes = sizeof(KeccakState) * std::min(per_chunk, states.size());
  Slots slots(dev, std::min(std::max<std::size_t>(1, options.slots), chunks), bytes, bytes);
  auto count_of = [&](std::size_t c) { return std::min(per_chunk, states.size() - c * per_chunk); };
  auto fill = [&](std::size_t c, std::size_t s) {
    std::memcpy(slots.staging(s), states.data() + c * per_chunk, sizeof(KeccakState) * count_of(c));
  };
  auto launch = [&](std::size_t c, std::size_t s) {
    const std::uint64_t n = sizeof(KeccakState) * count_of(c);
    dev.copy_to_device(slots.device(s), slots.staging(s), n, slots.stream(s));
    dev.keccak(reinterpret_cast<std::uint64_t*>(slots.device(s)), count_of(c), slots.stream(s));
    dev.copy_to_host(slots.staging(s), slots.device(s), n, slots.stream(s));
  };
  auto retire = [&](std::size_t c, std::size_t s) {
    dev.synchronize(slots.stream(s));
    std::memcpy(states.data() + c * per_chunk, slots.staging(s), sizeof(KeccakState) * count_of(c));
  };
  run_pipeline(slots, chunks, fill, launch, retire);
}

}  // namespace cryptaccel::cuda

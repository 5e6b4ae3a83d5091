#include "engine/gcm_split.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <vector>

#include "algo/bits.hpp"
#include "algo/block_modes.hpp"
#include "algo/ghash.hpp"
#include "common/ct.hpp"
#include "engine/job_split.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel::engine {

void GcmSplitKey::gf_mul(std::uint8_t x[16], const std::uint8_t y[16]) const {
  algo::gf128_store(algo::gf128_mul(algo::gf128_load(x), algo::gf128_load(y)), x);
}

void GcmSplitKey::encrypt_and_hash(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
                                   std::size_t len, std::uint8_t hash[16]) const {
  std::memset(hash, 0, 16);
  ctr32(counter, in, out, len);
  ghash(hash, out, len);
}

void GcmSplitKey::hash_and_decrypt(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
                                   std::size_t len, std::uint8_t hash[16]) const {
  std::memset(hash, 0, 16);
  ghash(hash, in, len);
  ctr32(counter, in, out, len);
}

namespace {

constexpr std::size_t kBlock = 16;
using Block = std::array<std::uint8_t, kBlock>;

/// Secret blocks on the stack or heap, wiped when they go.
struct WipedBlocks {
  std::vector<Block> v;
  explicit WipedBlocks(std::size_t n) : v(n) {}
  ~WipedBlocks() { secure_wipe(v.data(), v.size() * sizeof(Block)); }
};

/// H^n by square-and-multiply (n is public: a length).
Block h_power(const GcmSplitKey& key, const Block& h, std::size_t n) {
  Block result{}, base = h;
  result[0] = 0x80;  // the field's 1 (coefficient of x^0 is the top bit of byte 0)
  for (; n; n >>= 1) {
    if (n & 1) key.gf_mul(result.data(), base.data());
    if (n > 1) key.gf_mul(base.data(), base.data());
  }
  secure_wipe(base.data(), kBlock);
  return result;
}

void fail(CipherJob& job, JobStatus status, const char* why) {
  job.status = status;
  job.out_len = 0;
  job.error = why;
}

}  // namespace

struct GcmStreamState::Secrets {
  Block h{}, j0{}, ej0{}, acc{};  // H, J0, E(J0), the running hash
  ~Secrets() {
    for (Block* b : {&h, &j0, &ej0, &acc}) secure_wipe(b->data(), kBlock);
  }
};

GcmStreamState::GcmStreamState(const GcmSplitKey& key, bytes_view iv, bytes_view aad, BulkCtr bulk_ctr)
    : key_(key), bulk_ctr_(std::move(bulk_ctr)), s_(std::make_unique<Secrets>()), aad_len_(aad.size()) {
  // H, J0 (SP 800-38D §7.1: IV || 0^31 || 1 for 96-bit IVs, otherwise GHASH of the padded IV and its length).
  key_.encrypt_block(s_->h.data(), s_->h.data());
  if (iv.size() == 12) {
    std::memcpy(s_->j0.data(), iv.data(), 12);
    s_->j0[15] = 1;
  } else {
    key_.ghash(s_->j0.data(), iv.data(), iv.size());
    std::uint8_t lengths[kBlock] = {};
    algo::store_be64(lengths + 8, static_cast<std::uint64_t>(iv.size()) * 8);
    key_.ghash(s_->j0.data(), lengths, kBlock);
  }
  key_.encrypt_block(s_->j0.data(), s_->ej0.data());
  key_.ghash(s_->acc.data(), aad.data(), aad.size());
}

GcmStreamState::~GcmStreamState() = default;

void GcmStreamState::process(Direction dir, const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                             std::size_t threads, std::size_t chunk_bytes) {
  if (len == 0) return;
  const GcmSplitKey& key = key_;
  chunk_bytes = std::max(kBlock, (chunk_bytes + kBlock - 1) / kBlock * kBlock);
  const std::size_t chunks = (len + chunk_bytes - 1) / chunk_bytes;
  const std::uint64_t first_block = done_ / kBlock;
  WipedBlocks partial(chunks);
  try {
    if (bulk_ctr_) {
      // Counter mode for the whole piece in one call elsewhere; the chunks' partial hashes here, over the ciphertext
      // (when decrypting, before the keystream overwrites it).
      Block counter = s_->j0;
      algo::ctr32_add(counter.data(), static_cast<std::uint32_t>(1 + first_block));
      auto hash_chunks = [&](const std::uint8_t* text) {
        parallel_for(chunks, threads, [&](std::size_t c) {
          const std::size_t off = c * chunk_bytes;
          key.ghash(partial.v[c].data(), text + off, std::min(chunk_bytes, len - off));
        });
      };
      if (dir == Direction::decrypt) hash_chunks(in);
      bulk_ctr_(counter.data(), in, out, len);
      if (dir == Direction::encrypt) hash_chunks(out);
      secure_wipe(counter.data(), kBlock);
    } else {
      parallel_for(chunks, threads, [&](std::size_t c) {
        const std::size_t off = c * chunk_bytes, n = std::min(chunk_bytes, len - off);
        Block counter = s_->j0;  // inc32 applied 1 + (its block number) times; GCM's counter wraps mod 2^32
        algo::ctr32_add(counter.data(), static_cast<std::uint32_t>(1 + first_block + off / kBlock));
        if (dir == Direction::encrypt) {
          key.encrypt_and_hash(counter.data(), in + off, out + off, n, partial.v[c].data());
        } else {
          key.hash_and_decrypt(counter.data(), in + off, out + off, n, partial.v[c].data());
        }
        secure_wipe(counter.data(), kBlock);  // J0 of a long IV depends on H
      });
    }
  } catch (...) {  // a backend failure (EVP): nothing is released
    secure_wipe(out, len);
    throw;
  }
  // Chunk by chunk acc = acc * H^n_k ^ P_k (n_k: the chunk's blocks; all the same but the last).
  const std::size_t chunk_blocks = chunk_bytes / kBlock;
  const std::size_t last_blocks = (len - (chunks - 1) * chunk_bytes + kBlock - 1) / kBlock;
  WipedBlocks powers(2);
  powers.v[0] = h_power(key, s_->h, chunk_blocks);
  powers.v[1] = h_power(key, s_->h, last_blocks);
  for (std::size_t c = 0; c < chunks; ++c) {
    key.gf_mul(s_->acc.data(), powers.v[c + 1 == chunks ? 1 : 0].data());
    for (std::size_t i = 0; i < kBlock; ++i) s_->acc[i] ^= partial.v[c][i];
  }
  done_ += len;
}

void GcmStreamState::tag(std::uint8_t* out, std::size_t tag_len) {
  std::uint8_t lengths[kBlock];
  algo::store_be64(lengths, aad_len_ * 8);
  algo::store_be64(lengths + 8, done_ * 8);
  key_.ghash(s_->acc.data(), lengths, kBlock);
  for (std::size_t i = 0; i < kBlock; ++i) s_->acc[i] ^= s_->ej0[i];
  std::memcpy(out, s_->acc.data(), tag_len);
}

void run_split_gcm_job(const GcmSplitKey& key, Direction dir, CipherJob& job, std::size_t threads,
                       std::size_t chunk_bytes) {
  const std::size_t len = job.in.size();
  GcmStreamState state(key, job.iv, job.aad);
  try {
    state.process(dir, job.in.data(), job.out.data(), len, threads, chunk_bytes);
  } catch (const std::exception& e) {  // a backend failure (EVP): nothing is released (process wiped out)
    job.status = JobStatus::invalid_argument, job.out_len = 0, job.error = e.what();
    return;
  }
  Block tag{};
  state.tag(tag.data(), kBlock);
  if (dir == Direction::encrypt) {
    std::memcpy(job.tag.data(), tag.data(), job.tag.size());
  } else if (!ct::equal(tag.data(), job.tag.data(), job.tag.size())) {
    secure_wipe(job.out.data(), len);  // decrypted before the tag was known: wiped, never released
    return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

void run_split_gcm(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                   std::size_t threads) {
  if (spec.mode != Mode::gcm || threads < 2) return;
  // As SplitPlan does for the other modes: kPiecesPerThread (job_split.hpp) over the whole batch. A job is split only
  // when it would make at least two pieces, so a batch of many similar jobs keeps one job per thread (no split cost).
  std::size_t total = 0;
  for (const CipherJob& job : jobs)
    if (job.status == JobStatus::pending) total += job.in.size();
  const std::size_t piece = std::max(kGcmMinChunkBytes, total / (threads * kPiecesPerThread));
  const std::size_t min_bytes = std::max(gcm_split_min_bytes(spec.cipher), 2 * piece);
  for (CipherJob& job : jobs) {
    if (job.status != JobStatus::pending || job.in.size() < min_bytes) continue;
    const auto key = engine.gcm_split_key(spec.cipher, job.key);
    if (!key) return;  // the engine does not split GCM
    // Chunks of this job: kPiecesPerThread per thread, to balance uneven progress.
    run_split_gcm_job(*key, dir, job, threads,
                      std::max(kGcmMinChunkBytes, job.in.size() / (threads * kPiecesPerThread)));
  }
}

}  // namespace cryptaccel::engine

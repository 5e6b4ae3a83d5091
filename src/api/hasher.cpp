// Streaming hashing: buffering into whole blocks for the engine's block function; padding and output from
// src/algo/hash_message.hpp (the same framing the batch kernels use).
#include <algorithm>
#include <cstring>

#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "engine/engine.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel {
namespace {

std::size_t checked_output_length(const HashInfo& info, std::size_t out_len) {
  if (out_len == 0) return info.digest_size;
  if (!info.xof && out_len != info.digest_size)
    throw InvalidArgument(std::string(info.name) + " digests are " + std::to_string(info.digest_size) +
                          " bytes; only SHAKE takes an output length");
  return out_len;
}

}  // namespace

Hasher::Hasher(HashAlgorithm algorithm, std::string_view engine)
    : algorithm_(algorithm), engine_(&engine::select_hash_engine(engine, algorithm, engine::HashUse::streaming)) {
  reset();
}

Hasher::~Hasher() {
  secure_wipe(state_.data(), sizeof state_);
  secure_wipe(buffer_.data(), sizeof buffer_);
}

std::string_view Hasher::engine_name() const { return engine_->name(); }

void Hasher::reset() {
  algo::hash_init(engine::to_variant(algorithm_), state_.data());
  secure_wipe(buffer_.data(), sizeof buffer_);
  buffered_ = 0;
  total_bytes_ = 0;
}

Hasher& Hasher::update(bytes_view data) {
  const std::size_t block = info().block_size;
  const auto absorb = engine_->hash_blocks_function(algorithm_);
  total_bytes_ += data.size();
  const std::uint8_t* p = data.data();
  std::size_t n = data.size();
  if (buffered_) {  // top up the partial block first
    const std::size_t take = std::min(n, block - buffered_);
    std::memcpy(buffer_.data() + buffered_, p, take);
    buffered_ += take, p += take, n -= take;
    if (buffered_ < block) return *this;
    absorb(algorithm_, state_.data(), buffer_.data(), 1);
    buffered_ = 0;
  }
  const std::size_t whole = n / block;
  if (whole) absorb(algorithm_, state_.data(), p, whole);
  p += whole * block, n -= whole * block;
  if (n) std::memcpy(buffer_.data(), p, n);
  buffered_ = n;
  return *this;
}

void Hasher::digest_into(mutable_bytes out) const {
  const HashInfo& hi = info();
  if (out.empty() || (!hi.xof && out.size() != hi.digest_size))
    throw InvalidArgument("a " + std::string(hi.name) + " digest buffer must be " +
                          (hi.xof ? std::string("at least 1 byte") : std::to_string(hi.digest_size) + " bytes"));
  const auto v = engine::to_variant(algorithm_);
  std::array<std::uint64_t, 25> state = state_;
  std::uint8_t last[2 * 168];
  const std::size_t blocks = algo::hash_final_blocks(v, buffer_.data(), buffered_, total_bytes_, last);
  engine_->hash_blocks_function(algorithm_)(algorithm_, state.data(), last, blocks);
  algo::hash_output(v, state.data(), out.data(), out.size());
  secure_wipe(state.data(), sizeof state);
  secure_wipe(last, sizeof last);
}

bytes Hasher::digest(std::size_t out_len) const {
  bytes out(checked_output_length(info(), out_len));
  digest_into(out);
  return out;
}

bytes hash(HashAlgorithm algorithm, bytes_view data, std::size_t out_len, std::string_view engine,
           std::string* engine_used) {
  bytes out(checked_output_length(hash_info(algorithm), out_len));
  HashJob jobs[] = {HashJob{data, out}};
  BatchOptions options;
  options.engine = engine;
  const BatchReport report = hash_batch(algorithm, jobs, options);
  if (engine_used) *engine_used = report.engine;
  if (jobs[0].status != JobStatus::ok) throw InvalidArgument(jobs[0].error);
  return out;
}

}  // namespace cryptaccel

#include "cuda/host/work_plan.hpp"

#include <algorithm>

namespace cryptaccel::cuda {
namespace {

constexpr std::uint64_t kBlockBytes = 16;

std::uint64_t round16(std::uint64_t n) { return (n + 15) / 16 * 16; }

}  // namespace

std::uint64_t processed_length(const CipherSpec& spec, Direction dir, std::uint64_t in_len) {
  if (dir == Direction::encrypt && spec.pads()) return (in_len / kBlockBytes + 1) * kBlockBytes;
  return in_len;
}

std::vector<std::uint64_t> slice_lengths(const CipherSpec& spec, Direction dir, std::uint64_t len,
                                         std::uint64_t xts_unit, std::uint64_t max_bytes) {
  const bool serial = spec.mode == Mode::cbc && dir == Direction::encrypt;
  if (len <= max_bytes || serial) return {len};
  const bool xts_units = spec.mode == Mode::xts && xts_unit != 0;
  const std::uint64_t align = xts_units ? xts_unit : kBlockBytes;
  const std::uint64_t piece = std::max<std::uint64_t>(align, max_bytes / align * align);
  std::vector<std::uint64_t> out;
  for (std::uint64_t off = 0; off < len; off += piece) out.push_back(std::min(piece, len - off));
  // XTS within one data unit: the final whole block must stay with a trailing partial block (ciphertext stealing).
  if (spec.mode == Mode::xts && !xts_units && len % kBlockBytes != 0 && out.back() < 2 * kBlockBytes) {
    out[out.size() - 2] -= kBlockBytes;
    out.back() += kBlockBytes;
  }
  return out;
}

std::vector<Chunk> plan_cipher_chunks(const CipherSpec& spec, Direction dir, std::span<const CipherJob> jobs,
                                      std::uint64_t xts_unit, const ChunkLimits& limits) {
  std::vector<Chunk> chunks;
  Chunk open;
  auto close = [&] {
    if (!open.slices.empty()) chunks.push_back(std::move(open));
    open = Chunk{};
  };
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (jobs[j].status != JobStatus::pending) continue;
    const std::uint64_t len = processed_length(spec, dir, jobs[j].in.size());
    const auto lengths = slice_lengths(spec, dir, len, xts_unit, limits.max_bytes);
    const auto job = static_cast<std::uint32_t>(j);
    if (lengths.size() == 1) {
      if (open.bytes + round16(len) > limits.max_bytes || open.slices.size() >= limits.max_jobs) close();
      open.slices.push_back(Slice{job, 0, 0, len, true});
      open.bytes += round16(len);
      continue;
    }
    close();
    std::uint64_t off = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      Chunk c;
      c.split = true;
      c.slices.push_back(Slice{job, static_cast<std::uint32_t>(i), off, lengths[i], i + 1 == lengths.size()});
      c.bytes = round16(lengths[i]);
      chunks.push_back(std::move(c));
      off += lengths[i];
    }
  }
  close();
  return chunks;
}

std::vector<std::size_t> group_items(std::span<const std::uint64_t> sizes, std::uint64_t max_bytes,
                                     std::size_t max_items) {
  std::vector<std::size_t> bounds{0};
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::size_t in_run = i - bounds.back();
    if (in_run > 0 && (bytes + sizes[i] > max_bytes || in_run >= max_items)) {
      bounds.push_back(i);
      bytes = 0;
    }
    bytes += sizes[i];
  }
  if (!sizes.empty()) bounds.push_back(sizes.size());
  return bounds;
}

std::vector<PipelineStep> pipeline_schedule(std::size_t chunks, std::size_t slots) {
  slots = std::max<std::size_t>(1, slots);
  std::vector<PipelineStep> steps;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t slot = c % slots;
    if (c >= slots) steps.push_back({PipelineStep::retire, c - slots, slot});
    steps.push_back({PipelineStep::fill, c, slot});
    steps.push_back({PipelineStep::launch, c, slot});
  }
  for (std::size_t c = chunks > slots ? chunks - slots : 0; c < chunks; ++c)
    steps.push_back({PipelineStep::retire, c, c % slots});
  return steps;
}

}  // namespace cryptaccel::cuda

#include "engine/job_split.hpp"

#include <algorithm>
#include <cstring>

#include "algo/block_modes.hpp"

namespace cryptaccel::engine {
namespace {

constexpr std::size_t kBlock = 16;

bool splittable(const CipherSpec& spec, Direction dir, std::size_t xts_unit) {
  switch (spec.mode) {
    case Mode::ecb:
    case Mode::ctr: return true;
    case Mode::cbc: return dir == Direction::decrypt;
    case Mode::xts: return xts_unit != 0;
    case Mode::gcm:
    case Mode::poly1305: return false;
  }
  return false;
}

}  // namespace

SplitPlan::SplitPlan(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs, std::size_t xts_unit,
                     std::size_t threads) {
  const bool mode_splits = threads > 1 && splittable(spec, dir, xts_unit);
  std::size_t total = 0;
  for (const CipherJob& job : jobs) total += job.in.size();
  // kPiecesPerThread over the whole batch balances uneven jobs without shredding small ones.
  const std::size_t per_piece = std::max(kMinPieceBytes, total / (threads * kPiecesPerThread));
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const CipherJob& job = jobs[i];
    if (job.status != JobStatus::pending) continue;
    if (mode_splits && job.in.size() >= 2 * kMinPieceBytes) split_job(spec, dir, i, job, xts_unit, per_piece);
    else add_whole(i, job);
  }
  // Views of derived IVs are taken only now that ivs_ no longer grows.
  for (std::size_t p = 0; p < origins_.size(); ++p) {
    const Origin& o = origins_[p];
    if (!o.has_derived_iv) continue;
    CipherJob& piece = o.unpadded_group ? without_padding_[o.index] : with_spec_[o.index];
    piece.iv = bytes_view(ivs_[p].data(), ivs_[p].size());
  }
}

void SplitPlan::add_whole(std::size_t parent, const CipherJob& job) {
  ivs_.push_back({});
  origins_.push_back({parent, false, with_spec_.size(), false});
  with_spec_.push_back(CipherJob{job.key, job.iv, job.in, job.out, job.aad, job.tag});
}

void SplitPlan::add_slice(std::size_t parent, const CipherJob& job, std::size_t in_off, std::size_t in_len,
                          std::size_t out_cap, const std::uint8_t* iv, bool unpadded_group) {
  // Output offsets equal input offsets: every cut is at a block boundary before any padding.
  CipherJob piece{job.key, {}, job.in.subspan(in_off, in_len), job.out.subspan(in_off, out_cap), job.aad, job.tag};
  // The IV is copied now: with in-place jobs, a CBC piece's IV (the previous ciphertext block) is overwritten by the
  // piece before it once the pieces run.
  std::array<std::uint8_t, 16> iv_copy{};
  if (iv) std::memcpy(iv_copy.data(), iv, iv_copy.size());
  ivs_.push_back(iv_copy);
  auto& group = unpadded_group ? without_padding_ : with_spec_;
  origins_.push_back({parent, unpadded_group, group.size(), iv != nullptr});
  group.push_back(std::move(piece));
}

void SplitPlan::split_job(const CipherSpec& spec, Direction dir, std::size_t parent, const CipherJob& job,
                          std::size_t xts_unit, std::size_t piece_bytes) {
  const std::size_t len = job.in.size();
  const std::size_t align = spec.mode == Mode::xts ? xts_unit : kBlock;
  piece_bytes = (piece_bytes + align - 1) / align * align;

  // The bulk is cut into pieces; padded ECB/CBC keep their last block (or partial block) for a padded piece.
  std::size_t bulk = len;
  if (spec.pads()) {
    if (dir == Direction::encrypt) bulk = len / kBlock * kBlock;
    else if (len % kBlock == 0) bulk = len - kBlock;
    else return add_whole(parent, job);  // not whole blocks: the engine reports the error
  }
  any_split_ = true;
  for (std::size_t off = 0; off < bulk; off += piece_bytes) {
    const std::size_t n = std::min(piece_bytes, bulk - off);
    std::uint8_t iv[16] = {};
    const std::uint8_t* piece_iv = iv;
    switch (spec.mode) {
      case Mode::ctr:
        std::memcpy(iv, job.iv.data(), kBlock);
        algo::ctr128_add(iv, off / kBlock);
        break;
      case Mode::xts:
        std::memcpy(iv, job.iv.data(), kBlock);
        algo::le128_add(iv, off / xts_unit);
        break;
      case Mode::cbc:
        piece_iv = off == 0 ? job.iv.data() : job.in.data() + off - kBlock;
        break;
      default:
        piece_iv = nullptr;
    }
    add_slice(parent, job, off, n, n, piece_iv, spec.pads());
  }
  if (spec.pads()) {
    const std::uint8_t* tail_iv =
        spec.mode == Mode::cbc ? (bulk == 0 ? job.iv.data() : job.in.data() + bulk - kBlock) : nullptr;
    add_slice(parent, job, bulk, len - bulk, job.out.size() - bulk, tail_iv, false);
  }
}

void SplitPlan::merge(std::span<CipherJob> jobs) const {
  std::size_t p = 0;
  while (p < origins_.size()) {
    const std::size_t parent_index = origins_[p].parent;
    CipherJob& parent = jobs[parent_index];
    parent.out_len = 0;
    parent.status = JobStatus::ok;
    parent.error.clear();
    std::size_t pieces = 0;
    for (; p < origins_.size() && origins_[p].parent == parent_index; ++p, ++pieces) {
      const Origin& o = origins_[p];
      const CipherJob& piece = o.unpadded_group ? without_padding_[o.index] : with_spec_[o.index];
      parent.out_len += piece.out_len;
      if (piece.status != JobStatus::ok && parent.status == JobStatus::ok) {
        parent.status = piece.status;
        parent.error = piece.error;
      }
    }
    if (parent.status != JobStatus::ok) {
      // A failed whole job wrote nothing; a failed split job may have: it is wiped so no plaintext is released.
      if (pieces > 1) secure_wipe(parent.out.data(), parent.out.size());
      parent.out_len = 0;
    }
  }
}

}  // namespace cryptaccel::engine

#include "cuda/host/chunk_builder.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <utility>

#include "algo/block_modes.hpp"
#include "cuda/kernels/cipher_impl.hpp"
#include "cuda/host/work_units.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr std::uint64_t kAlign = 256;

std::uint64_t align_up(std::uint64_t n, std::uint64_t a = kAlign) { return (n + a - 1) / a * a; }
std::uint64_t round16(std::uint64_t n) { return (n + 15) / 16 * 16; }

/// Reserves `bytes` at the cursor and returns where.
std::uint64_t take(std::uint64_t& cursor, std::uint64_t bytes) {
  const std::uint64_t at = align_up(cursor);
  cursor = at + bytes;
  return at;
}

template <class T>
T* at(std::uint8_t* base, std::uint64_t off) {
  return reinterpret_cast<T*>(base + off);
}

}  // namespace

JobView job_view(const CipherJob& job) {
  JobView v;
  v.key = job.key;
  v.iv = job.iv;
  v.aad = job.aad;
  v.in_len = job.in.size();
  v.host_in = job.in.data();
  v.tag_len = static_cast<std::uint32_t>(job.tag.size());
  v.expected_tag = job.tag.data();
  return v;
}

ChunkImage::ChunkImage(const CipherSpec& spec, Direction dir, CipherImpl impl, std::uint64_t xts_unit,
                       std::span<const JobView> jobs, const Chunk& chunk)
    : spec_(spec), dir_(dir), impl_(impl), xts_unit_(xts_unit), jobs_(jobs), slices_(chunk.slices) {
  const std::size_t n = slices_.size();
  const bool gcm = spec.mode == Mode::gcm, xts = spec.mode == Mode::xts;
  const bool host_data = n > 0 && !jobs[slices_[0].job].on_device;

  // Work units per slice.
  unit_begin_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t len = slices_[i].len;
    std::uint64_t units = 0;
    if (spec.mode == Mode::cbc && dir == Direction::encrypt) units = 1;
    else if (xts) units = xts_units(len, xts_unit);
    else units = block_units(len, lanes_of(impl));
    unit_begin_[i + 1] = unit_begin_[i] + units;
  }

  // Key slots: one per distinct key buffer (XTS: two, data and tweak halves). Keys are told apart by address only,
  // never by comparing their (secret) bytes.
  std::map<std::pair<const std::uint8_t*, std::size_t>, std::uint32_t> seen;
  key_slot_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const JobView& job = jobs[slices_[i].job];
    const auto id = std::make_pair(job.key.data(), job.key.size());
    if (auto it = seen.find(id); it != seen.end()) {
      key_slot_[i] = it->second;
      continue;
    }
    key_slot_[i] = static_cast<std::uint32_t>(raw_.size());
    seen.emplace(id, key_slot_[i]);
    raw_.push_back(&job);
    raw_half_.push_back(xts ? 1 : 0);
    if (xts) {
      raw_.push_back(&job);
      raw_half_.push_back(2);
    }
  }

  // GCM: one parent per slice (a chunk holds whole jobs, or a single slice of a split one); GHASH slots in
  // buddy-aligned blocks: slices sorted by slot count (powers of two), largest first, so each slice's first slot is
  // a multiple of its count and tree level l never mixes slices whose trees are deeper than l.
  if (gcm) {
    parents_count_ = static_cast<std::uint32_t>(n);
    finalizes_ = std::all_of(slices_.begin(), slices_.end(), [](const Slice& s) { return s.last; });
    slots_of_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t aad = slices_[i].index == 0 ? jobs[slices_[i].job].aad.size() : 0;
      slots_of_[i] = ghash_slots(ghash_blocks(aad, slices_[i].len));
    }
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return slots_of_[a] > slots_of_[b]; });
    slot_base_.resize(n);
    slot_begin_.assign(n + 1, 0);
    slot_job_.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      slot_begin_[k] = total_slots_;
      slot_job_[k] = order[k];
      slot_base_[order[k]] = total_slots_;
      total_slots_ += slots_of_[order[k]];
    }
    slot_begin_[n] = total_slots_;
    if (n) {
      while ((std::uint64_t{1} << levels_) < slots_of_[order[0]]) ++levels_;
    }
  }

  // Regions.
  std::uint64_t cur = 0;
  data_off_.resize(n, 0);
  if (host_data)
    for (std::size_t i = 0; i < n; ++i) data_off_[i] = take(cur, round16(slices_[i].len));
  data_bytes_ = cur;
  aad_off_.assign(n, 0);
  iv_off_.assign(n, 0);
  std::uint64_t aad_total = 0, iv_total = 0;
  if (gcm) {
    for (std::size_t i = 0; i < n; ++i) {
      aad_off_[i] = aad_total;
      if (slices_[i].index == 0) aad_total += round16(jobs[slices_[i].job].aad.size());
      iv_off_[i] = iv_total;
      iv_total += round16(jobs[slices_[i].job].iv.size());
    }
  }
  aad_ = take(cur, aad_total);
  ivs_ = take(cur, iv_total);
  tags_ = take(cur, 16 * std::uint64_t{parents_count_});
  oks_ = take(cur, 4 * std::uint64_t{parents_count_});
  jobs_off_ = take(cur, sizeof(DevCipherJob) * n);
  unit_begin_off_ = take(cur, 8 * (n + 1));
  raw_keys_ = take(cur, sizeof(RawKey) * raw_.size());
  parents_ = take(cur, sizeof(DevGcmParent) * parents_count_);
  slot_begin_off_ = take(cur, gcm ? 8 * (n + 1) : 0);
  slot_job_off_ = take(cur, gcm ? 4 * n : 0);
  upload_ = align_up(cur);
  keys_ = take(cur, key_schedule_size(impl) * raw_.size());
  chain_ = take(cur, spec.mode == Mode::cbc && dir == Direction::decrypt ? 16 * units() : 0);
  states_ = take(cur, sizeof(GcmState) * parents_count_);
  slots_ = take(cur, sizeof(algo::Gf128) * total_slots_);
  partials_ = take(cur, sizeof(PiecePartial) * parents_count_);
  total_ = align_up(cur);
}

CipherArgs ChunkImage::write_metadata(std::uint8_t* staging, std::uint8_t* dbase, PiecePartial* split_partials,
                                      const algo::Gf128* alpha_pow) const {
  const std::size_t n = slices_.size();
  const bool gcm = spec_.mode == Mode::gcm, xts = spec_.mode == Mode::xts;
  // Zero the metadata part (padding between regions included) so nothing stale is uploaded.
  std::memset(staging + data_bytes_, 0, upload_ - data_bytes_);

  auto* djobs = at<DevCipherJob>(staging, jobs_off_);
  auto* parents = at<DevGcmParent>(staging, parents_);
  for (std::size_t i = 0; i < n; ++i) {
    const Slice& s = slices_[i];
    const JobView& job = jobs_[s.job];
    DevCipherJob& d = djobs[i];
    if (!job.on_device) {
      d.in = dbase + data_off_[i];
      d.out = dbase + data_off_[i];
    } else {
      d.in = job.dev_in + s.offset;
      d.out = job.dev_out + s.offset;
    }
    d.len = s.len;
    d.key = key_slot_[i];
    d.parent = static_cast<std::uint32_t>(i);
    d.xts_unit = xts ? xts_unit_ : 0;
    switch (spec_.mode) {
      case Mode::ctr:
        std::memcpy(d.iv, job.iv.data(), 16);
        algo::ctr128_add(d.iv, s.offset / 16);
        break;
      case Mode::cbc:
        // A slice after the first chains from the ciphertext block before it (only decryption is ever cut).
        if (s.offset == 0) std::memcpy(d.iv, job.iv.data(), 16);
        else std::memcpy(d.iv, job.chain_blocks ? job.chain_blocks + 16 * s.index : job.host_in + s.offset - 16, 16);
        break;
      case Mode::xts:
        std::memcpy(d.iv, job.iv.data(), 16);
        if (xts_unit_ != 0) algo::le128_add(d.iv, s.offset / xts_unit_);
        else d.block_offset = s.offset / 16;
        break;
      case Mode::poly1305:  // not offered by the cuda engine (supports() says no)
        break;
      case Mode::gcm:
        d.block_offset = s.offset / 16;
        if (s.index == 0) {
          d.aad = dbase + aad_ + aad_off_[i];
          d.aad_len = job.aad.size();
          if (!job.aad.empty()) std::memcpy(staging + aad_ + aad_off_[i], job.aad.data(), job.aad.size());
        }
        d.slot_base = slot_base_[i];
        d.slots = static_cast<std::uint32_t>(slots_of_[i]);
        d.piece = s.index;
        break;
      case Mode::ecb:
        break;
    }
    if (gcm) {
      DevGcmParent& p = parents[i];
      p.key = key_slot_[i];
      p.pieces = s.index + 1;
      p.tag_len = job.tag_len;
      p.iv_len = static_cast<std::uint32_t>(job.iv.size());
      p.iv = dbase + ivs_ + iv_off_[i];
      std::memcpy(staging + ivs_ + iv_off_[i], job.iv.data(), job.iv.size());
      p.aad_len = job.aad.size();
      p.text_len = job.in_len;
      if (job.dev_tag) {
        p.tag = job.dev_tag;
      } else {
        p.tag = dbase + tag_offset(i);
        if (dir_ == Direction::decrypt && job.expected_tag)
          std::memcpy(staging + tag_offset(i), job.expected_tag, job.tag_len);
      }
      p.ok = job.dev_ok ? job.dev_ok : at<std::int32_t>(dbase, ok_offset(i));
      p.state = at<GcmState>(dbase, states_ + sizeof(GcmState) * i);
      p.partials = split_partials ? split_partials : at<PiecePartial>(dbase, partials_ + sizeof(PiecePartial) * i);
    }
  }
  std::memcpy(staging + unit_begin_off_, unit_begin_.data(), 8 * unit_begin_.size());
  auto* raw = at<RawKey>(staging, raw_keys_);
  for (std::size_t k = 0; k < raw_.size(); ++k) {
    bytes_view key = raw_[k]->key;
    if (raw_half_[k] == 1) key = key.first(key.size() / 2);
    if (raw_half_[k] == 2) key = key.subspan(key.size() / 2);
    std::memcpy(raw[k].bytes, key.data(), key.size());
    raw[k].len = static_cast<std::uint32_t>(key.size());
  }
  if (gcm) {
    std::memcpy(staging + slot_begin_off_, slot_begin_.data(), 8 * slot_begin_.size());
    std::memcpy(staging + slot_job_off_, slot_job_.data(), 4 * slot_job_.size());
  }

  CipherArgs a{};
  a.impl = impl_;
  a.decrypt = dir_ == Direction::decrypt;
  a.njobs = static_cast<std::uint32_t>(n);
  a.nparents = parents_count_;
  a.jobs = at<DevCipherJob>(dbase, jobs_off_);
  a.unit_begin = at<std::uint64_t>(dbase, unit_begin_off_);
  a.units = units();
  a.raw_keys = at<RawKey>(dbase, raw_keys_);
  a.nkeys = key_count();
  a.keys = dbase + keys_;
  a.chain = dbase + chain_;
  a.xts_alpha_pow = alpha_pow;
  a.parents = at<DevGcmParent>(dbase, parents_);
  a.slots = at<algo::Gf128>(dbase, slots_);
  a.slot_begin = at<std::uint64_t>(dbase, slot_begin_off_);
  a.slot_job = at<std::uint32_t>(dbase, slot_job_off_);
  a.total_slots = total_slots_;
  return a;
}

void ChunkImage::copy_in(std::size_t i, std::uint8_t* staging, std::uint64_t from, std::uint64_t to) const {
  const Slice& s = slices_[i];
  const JobView& job = jobs_[s.job];
  std::uint8_t* dst = staging + data_off_[i];
  // Three parts of the slice's (rounded) range: input bytes, PKCS#7 bytes (up to the processed length, each holding
  // the pad length), zeros (rounding to 16 of a CTR/GCM partial block, so no stale staging bytes are uploaded).
  const std::uint64_t input_end = std::min<std::uint64_t>(s.len, job.in_len - std::min(job.in_len, s.offset));
  const std::uint64_t a = std::min(from, input_end), b = std::min(to, input_end);
  if (b > a) std::memcpy(dst + a, job.host_in + s.offset + a, b - a);
  const std::uint64_t pa = std::max(from, input_end), pb = std::min(to, s.len);
  if (pb > pa) std::memset(dst + pa, static_cast<int>(s.offset + s.len - job.in_len), pb - pa);
  const std::uint64_t za = std::max(from, s.len);
  if (to > za) std::memset(dst + za, 0, to - za);
}

}  // namespace cryptaccel::cuda

// The cuda engine's host-side planning, without a GPU: processed lengths, cutting jobs into slices, grouping into
// chunks, the pipeline's step order, and the device-buffer image of a chunk (regions, unit prefix sums, key
// de-duplication, GHASH slot layout, IVs of slices).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "algo/block_modes.hpp"
#include "cryptaccel/batch.hpp"
#include "cuda/host/chunk_builder.hpp"
#include "cuda/host/work_plan.hpp"
#include "cuda/host/work_units.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using namespace cuda;

constexpr std::uint64_t kKiB = 1024;

TEST(CudaPlan, ProcessedLengthAddsPaddingOnlyWhenEncryptingPaddedModes) {
  const CipherSpec cbc = CipherSpec::parse("aes-128-cbc"), ctr = CipherSpec::parse("aes-128-ctr");
  EXPECT_EQ(processed_length(cbc, Direction::encrypt, 0), 16u);
  EXPECT_EQ(processed_length(cbc, Direction::encrypt, 16), 32u);
  EXPECT_EQ(processed_length(cbc, Direction::encrypt, 17), 32u);
  EXPECT_EQ(processed_length(cbc, Direction::decrypt, 32), 32u);
  EXPECT_EQ(processed_length(ctr, Direction::encrypt, 17), 17u);
  CipherSpec nopad = cbc;
  nopad.padding = false;
  EXPECT_EQ(processed_length(nopad, Direction::encrypt, 32), 32u);
}

TEST(CudaPlan, SliceLengthsCoverTheJobAtLegalCuts) {
  std::mt19937_64 rng(1);
  for (const char* name : {"aes-128-ecb", "aes-128-cbc", "aes-256-ctr", "aes-256-gcm", "aes-128-xts", "sm4-ctr"}) {
    const CipherSpec spec = CipherSpec::parse(name);
    for (Direction dir : {Direction::encrypt, Direction::decrypt}) {
      for (std::uint64_t xts_unit : {std::uint64_t{0}, std::uint64_t{4096}}) {
        for (int t = 0; t < 50; ++t) {
          const std::uint64_t max = 64 * kKiB + 16 * (rng() % 1000);
          std::uint64_t len = 16 + rng() % (5 * max);
          if (spec.mode == Mode::ecb || spec.mode == Mode::cbc) len = len / 16 * 16;
          const auto pieces = slice_lengths(spec, dir, len, xts_unit, max);
          std::uint64_t sum = 0;
          for (auto p : pieces) sum += p;
          ASSERT_EQ(sum, len) << name;
          if (spec.mode == Mode::cbc && dir == Direction::encrypt) {
            EXPECT_EQ(pieces.size(), 1u) << "CBC encryption is never cut";
            continue;
          }
          if (len <= max) {
            EXPECT_EQ(pieces.size(), 1u);
          }
          const std::uint64_t align = spec.mode == Mode::xts && xts_unit ? xts_unit : 16;
          for (std::size_t i = 0; i + 1 < pieces.size(); ++i) {
            EXPECT_EQ(pieces[i] % align, 0u) << name;
            EXPECT_LE(pieces[i], std::max(max, align)) << name;
          }
          if (spec.mode == Mode::xts && !xts_unit && len % 16) {
            EXPECT_GE(pieces.back(), 32u) << "stealing pair split";
          }
        }
      }
    }
  }
}

TEST(CudaPlan, XtsSliceKeepsTheStealingPairTogether) {
  const CipherSpec spec = CipherSpec::parse("aes-128-xts");
  const auto pieces = slice_lengths(spec, Direction::encrypt, 2 * 64 * kKiB + 5, 0, 64 * kKiB);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0], 64 * kKiB);
  EXPECT_EQ(pieces[1], 64 * kKiB - 16);
  EXPECT_EQ(pieces[2], 21u);
}

std::vector<CipherJob> jobs_of(const std::vector<std::size_t>& lengths, std::vector<bytes>& storage) {
  storage.clear();
  for (auto len : lengths) storage.emplace_back(len + 16, 0);
  std::vector<CipherJob> jobs;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    jobs.push_back(CipherJob{{}, {}, bytes_view(storage[i].data(), lengths[i]), storage[i]});
  return jobs;
}

TEST(CudaPlan, ChunksCoverEveryPendingJobOnceWithinLimits) {
  std::mt19937_64 rng(2);
  const CipherSpec spec = CipherSpec::parse("aes-128-ctr");
  std::vector<std::size_t> lengths;
  for (int i = 0; i < 300; ++i) lengths.push_back(rng() % 5 == 0 ? rng() % (400 * kKiB) : rng() % 3000);
  std::vector<bytes> storage;
  auto jobs = jobs_of(lengths, storage);
  jobs[7].status = JobStatus::invalid_argument;  // not pending: skipped
  ChunkLimits limits;
  limits.max_bytes = 100 * kKiB;
  limits.max_jobs = 20;
  const auto chunks = plan_cipher_chunks(spec, Direction::encrypt, jobs, 0, limits);
  std::map<std::uint32_t, std::uint64_t> covered;
  for (const Chunk& c : chunks) {
    ASSERT_FALSE(c.slices.empty());
    EXPECT_LE(c.slices.size(), limits.max_jobs);
    EXPECT_LE(c.bytes, limits.max_bytes);
    if (c.split) {
      EXPECT_EQ(c.slices.size(), 1u);
    }
    std::set<std::uint32_t> in_chunk;
    for (const Slice& s : c.slices) {
      EXPECT_TRUE(in_chunk.insert(s.job).second) << "a job appears twice in one chunk";
      EXPECT_EQ(s.offset, covered[s.job]) << "slices in order, contiguous";
      covered[s.job] += s.len;
      EXPECT_EQ(s.last, covered[s.job] == lengths[s.job]);
    }
  }
  for (std::size_t j = 0; j < lengths.size(); ++j) {
    if (j == 7) {
      EXPECT_EQ(covered.count(7), 0u);
      continue;
    }
    EXPECT_EQ(covered[static_cast<std::uint32_t>(j)], lengths[j]) << j;
  }
}

TEST(CudaPlan, GroupItems) {
  EXPECT_EQ(group_items({}, 10, 10), (std::vector<std::size_t>{0}));
  const std::vector<std::uint64_t> sizes = {4, 4, 4, 20, 1, 1, 1, 1};
  EXPECT_EQ(group_items(sizes, 10, 100), (std::vector<std::size_t>{0, 2, 3, 4, 8}));
  EXPECT_EQ(group_items(sizes, 100, 3), (std::vector<std::size_t>{0, 3, 6, 8}));
}

TEST(CudaPlan, PipelineScheduleOverlapsAndNeverReusesABusySlot) {
  for (std::size_t chunks : {0, 1, 2, 3, 4, 10}) {
    for (std::size_t slots : {1, 2, 3, 4}) {
      const auto steps = pipeline_schedule(chunks, slots);
      EXPECT_EQ(steps.size(), 3 * chunks);
      std::vector<int> stage(chunks, 0);        // 0 none, 1 filled, 2 launched, 3 retired
      std::vector<long> slot_owner(slots, -1);  // chunk holding the slot, -1 free
      std::size_t in_flight = 0, max_in_flight = 0;
      for (const PipelineStep& s : steps) {
        ASSERT_LT(s.chunk, chunks);
        EXPECT_EQ(s.slot, s.chunk % slots);
        switch (s.kind) {
          case PipelineStep::fill:
            EXPECT_EQ(stage[s.chunk], 0);
            EXPECT_EQ(slot_owner[s.slot], -1) << "slot refilled before its chunk was retired";
            slot_owner[s.slot] = static_cast<long>(s.chunk);
            stage[s.chunk] = 1;
            max_in_flight = std::max(max_in_flight, ++in_flight);
            break;
          case PipelineStep::launch:
            EXPECT_EQ(stage[s.chunk], 1);
            stage[s.chunk] = 2;
            break;
          case PipelineStep::retire:
            EXPECT_EQ(stage[s.chunk], 2);
            EXPECT_EQ(slot_owner[s.slot], static_cast<long>(s.chunk));
            slot_owner[s.slot] = -1;
            stage[s.chunk] = 3;
            --in_flight;
            break;
        }
      }
      for (int st : stage) EXPECT_EQ(st, 3);
      EXPECT_EQ(max_in_flight, std::min(chunks, slots)) << "chunks in flight at once";
    }
  }
}

TEST(CudaPlan, UnitCounts) {
  EXPECT_EQ(block_units(0, 2), 0u);
  EXPECT_EQ(block_units(1, 2), 1u);
  EXPECT_EQ(block_units(32, 2), 1u);
  EXPECT_EQ(block_units(33, 2), 2u);
  EXPECT_EQ(xts_runs(16), 1u);
  EXPECT_EQ(xts_runs(17), 1u);  // only the stealing pair
  EXPECT_EQ(xts_runs(16 * kXtsRunBlocks), 1u);
  EXPECT_EQ(xts_runs(16 * kXtsRunBlocks + 1), 2u);
  EXPECT_EQ(xts_runs(16 * kXtsRunBlocks + 16), 2u);
  EXPECT_EQ(xts_units(1000, 512), xts_runs(512) + xts_runs(488));
  EXPECT_EQ(xts_units(1024, 512), 2 * xts_runs(512));
  EXPECT_EQ(ghash_blocks(0, 0), 0u);
  EXPECT_EQ(ghash_blocks(1, 17), 3u);
  EXPECT_EQ(ghash_slots(0), 1u);
  EXPECT_EQ(ghash_slots(kGhashSegmentBlocks), 1u);
  EXPECT_EQ(ghash_slots(kGhashSegmentBlocks + 1), 2u);
  EXPECT_EQ(ghash_slots(5 * kGhashSegmentBlocks), 8u);
}

/// A chunk image over host buffers, with the metadata written for a "device" buffer that is host memory.
struct Built {
  std::vector<JobView> views;
  std::vector<std::uint8_t> staging, device;
  CipherArgs args;
};

TEST(CudaPlan, ChunkImageRegionsAndGhashSlotsAreLaidOutSoundly) {
  std::mt19937_64 rng(3);
  const CipherSpec spec = CipherSpec::parse("aes-128-gcm");
  std::vector<bytes> keys, ivs, ins, aads, tags;
  const std::vector<std::size_t> lengths = {0, 1, 100, 5000, 33, 2048, 70000, 16};
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    keys.push_back(test::random_bytes(rng, 16));
    ivs.push_back(test::random_bytes(rng, i == 3 ? 40 : 12));
    ins.push_back(test::random_bytes(rng, lengths[i]));
    aads.push_back(test::random_bytes(rng, i * 7));
    tags.push_back(bytes(16));
  }
  std::vector<JobView> views;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    JobView v;
    v.key = i % 2 ? bytes_view(keys[1]) : bytes_view(keys[i]);  // odd jobs share one key buffer
    v.iv = ivs[i], v.aad = aads[i], v.in_len = lengths[i], v.host_in = ins[i].data(), v.tag_len = 16;
    views.push_back(v);
  }
  Chunk chunk;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    chunk.slices.push_back(Slice{static_cast<std::uint32_t>(i), 0, 0, lengths[i], true});
  const ChunkImage img(spec, Direction::encrypt, CipherImpl::aes_bitsliced, 0, views, chunk);
  EXPECT_TRUE(img.finalizes());
  EXPECT_EQ(img.parent_count(), lengths.size());
  EXPECT_EQ(img.key_count(), 1u + 4u);  // jobs 0, 2, 4, 6 own keys; 1, 3, 5, 7 share keys[1]
  EXPECT_LE(img.upload_bytes(), img.device_bytes());
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    EXPECT_EQ(img.data_offset(i) % 256, 0u);
    if (i + 1 < lengths.size()) {
      EXPECT_LE(img.data_offset(i) + lengths[i], img.data_offset(i + 1));
    }
  }
  EXPECT_LE(img.data_offset(lengths.size() - 1) + 16, img.data_bytes());

  std::vector<std::uint8_t> staging(img.upload_bytes(), 0xCD), device(img.device_bytes());
  const CipherArgs a = img.write_metadata(staging.data(), device.data(), nullptr, nullptr);
  EXPECT_EQ(a.njobs, lengths.size());
  EXPECT_EQ(a.units, img.units());
  const auto* djobs = reinterpret_cast<const DevCipherJob*>(staging.data() + (reinterpret_cast<const std::uint8_t*>(a.jobs) - device.data()));
  const auto* ub = reinterpret_cast<const std::uint64_t*>(staging.data() + (reinterpret_cast<const std::uint8_t*>(a.unit_begin) - device.data()));
  // Unit prefix sums and GHASH slots: buddy-aligned, disjoint, each slice's count a power of two.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    EXPECT_EQ(ub[i + 1] - ub[i], block_units(lengths[i], 2)) << i;
    const DevCipherJob& d = djobs[i];
    EXPECT_EQ(d.in, device.data() + img.data_offset(i));
    EXPECT_EQ(d.len, lengths[i]);
    EXPECT_EQ(d.aad_len, aads[i].size());
    EXPECT_EQ(d.slots, ghash_slots(ghash_blocks(aads[i].size(), lengths[i])));
    EXPECT_EQ(d.slots & (d.slots - 1), 0u);
    EXPECT_EQ(d.slot_base % d.slots, 0u) << "slot block not aligned to its size";
    ranges.push_back({d.slot_base, d.slot_base + d.slots});
  }
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 0; i + 1 < ranges.size(); ++i) EXPECT_LE(ranges[i].second, ranges[i + 1].first);
  EXPECT_EQ(ranges.back().second, img.total_slots());
  EXPECT_EQ(1u << img.ghash_levels(), ranges.front().second - ranges.front().first);  // the largest slice first
}

TEST(CudaPlan, SliceIvsFollowTheMode) {
  std::mt19937_64 rng(4);
  const bytes key = test::random_bytes(rng, 32), iv = test::random_bytes(rng, 16), in = test::random_bytes(rng, 4096);
  for (const char* name : {"aes-128-ctr", "aes-128-xts", "aes-128-cbc"}) {
    const CipherSpec spec = CipherSpec::parse(name);
    for (std::uint64_t xts_unit : {std::uint64_t{0}, std::uint64_t{512}}) {
      JobView v;
      v.key = bytes_view(key).first(spec.key_size());
      v.iv = iv, v.in_len = in.size(), v.host_in = in.data();
      Chunk chunk;
      chunk.split = true;
      chunk.slices.push_back(Slice{0, 3, 1024, 2048, false});
      const ChunkImage img(spec, Direction::decrypt, CipherImpl::aes_bitsliced, xts_unit, std::span<const JobView>(&v, 1), chunk);
      std::vector<std::uint8_t> staging(img.upload_bytes()), device(img.device_bytes());
      const CipherArgs a = img.write_metadata(staging.data(), device.data(), nullptr, nullptr);
      const auto* d = reinterpret_cast<const DevCipherJob*>(staging.data() + (reinterpret_cast<const std::uint8_t*>(a.jobs) - device.data()));
      std::uint8_t want[16];
      std::memcpy(want, iv.data(), 16);
      std::uint64_t want_offset = 0;
      if (spec.mode == Mode::ctr) algo::ctr128_add(want, 1024 / 16);
      if (spec.mode == Mode::cbc) std::memcpy(want, in.data() + 1024 - 16, 16);
      if (spec.mode == Mode::xts && xts_unit) algo::le128_add(want, 1024 / xts_unit);
      if (spec.mode == Mode::xts && !xts_unit) want_offset = 1024 / 16;
      EXPECT_EQ(0, std::memcmp(d->iv, want, 16)) << name << " unit " << xts_unit;
      EXPECT_EQ(d->block_offset, want_offset) << name;
      EXPECT_EQ(d->xts_unit, spec.mode == Mode::xts ? xts_unit : 0u);
      if (spec.mode != Mode::xts) break;
    }
  }
}

}  // namespace
}  // namespace cryptaccel

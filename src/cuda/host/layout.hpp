// What the cuda engine's kernels read and write: plain structs of device addresses and sizes, shared by the host code
// that builds them (src/cuda/host/chunk_builder.cpp), the kernels (src/cuda/kernels/kernels.cu) and the host emulation of the
// kernels used by the tests. No CUDA headers here, so host-only code (and CUDA-off builds) can use it.
//
// Work decomposition: a kernel runs one *work unit* per thread (grid-stride). The jobs of a launch are numbered in
// order and job j owns the units [unit_begin[j], unit_begin[j + 1]) (a prefix sum built on the host); a thread finds
// its job by binary search. What a unit is depends on the operation (see src/cuda/host/work_units.hpp).
#pragma once
#include <cstdint>

#include "algo/ghash.hpp"

namespace cryptaccel::cuda {

inline constexpr unsigned kBlock = 16;
/// XTS: blocks per work unit within a data unit (a tweak is derived once per unit, then doubled block by block).
inline constexpr unsigned kXtsRunBlocks = 16;
/// GHASH: blocks per segment (per thread, Horner's rule with H); segments are then combined in a binary tree.
inline constexpr unsigned kGhashSegmentBlocks = 32;
inline constexpr unsigned kGhashSegmentLog2 = 5;
/// GCM: the key state keeps H^(2^i) for i < kGcmPowers (enough for 2^39 blocks per job).
inline constexpr unsigned kGcmPowers = 40;

/// The block-cipher implementation a launch uses.
enum class CipherImpl : std::uint8_t {
  aes_bitsliced,  ///< constant-time bitsliced AES (src/algo/aes_bitsliced.hpp): the default
  aes_ttable,     ///< shared-memory T-table AES (src/cuda/kernels/aes_ttable.hpp): faster, NOT constant time
  sm4,            ///< constant-time SM4 (src/algo/sm4.hpp)
};

/// A raw key as uploaded: the kernels expand it into the implementation's key schedule (one thread per key).
struct RawKey {
  std::uint8_t bytes[32];
  std::uint32_t len;  ///< 16, 24 or 32
};

/// One piece of work for the cipher kernels: a whole job, or a slice of a large one (src/cuda/host/work_plan.hpp).
struct DevCipherJob {
  const std::uint8_t* in;     ///< device address
  std::uint8_t* out;          ///< device address; may equal `in`
  std::uint64_t len;          ///< bytes (ECB/CBC: whole blocks, padding already applied when encrypting)
  std::uint32_t key;          ///< key-schedule index (XTS: data key; the tweak key is key + 1)
  std::uint32_t parent;       ///< GCM: index into the launch's GCM parents
  std::uint8_t iv[16];        ///< CTR: first counter block; CBC: IV (or the ciphertext block before a slice);
                              ///< XTS: data-unit sequence number (little-endian)
  std::uint64_t xts_unit;     ///< XTS: data-unit bytes; 0: the piece is (a slice of) one data unit
  std::uint64_t block_offset; ///< XTS with xts_unit 0: blocks of the data unit before this slice;
                              ///< GCM: blocks of the parent's text before this slice (counter offset)
  // GCM only
  const std::uint8_t* aad;    ///< the parent's AAD (device), on the parent's first slice only
  std::uint64_t aad_len;
  std::uint64_t slot_base;    ///< first GHASH segment slot of this slice
  std::uint32_t slots;        ///< GHASH segment slots (a power of two)
  std::uint32_t piece;        ///< this slice's index among its parent's slices (its partial GHASH record)
};

/// GCM per-key state, computed on the device from the key and IV (wiped after use).
struct GcmState {
  algo::Gf128 hpow[kGcmPowers];  ///< H^(2^i)
  std::uint8_t j0[16];           ///< pre-counter block J0
};

/// A slice's GHASH over its own blocks (AAD then text, from a zero state), and how many blocks that was.
struct PiecePartial {
  algo::Gf128 y;
  std::uint64_t blocks;
};

/// One GCM message: its key and IV, the slices its text was cut into, and where its tag goes.
struct DevGcmParent {
  std::uint32_t key;
  std::uint32_t pieces;        ///< slices (partials) of this message
  std::uint32_t tag_len;       ///< 4..16
  std::uint32_t iv_len;
  const std::uint8_t* iv;      ///< device
  std::uint64_t aad_len;
  std::uint64_t text_len;
  std::uint8_t* tag;           ///< device, 16 bytes: written when encrypting, the expected tag when decrypting
  std::int32_t* ok;            ///< device: decryption result (1: tag matched)
  GcmState* state;             ///< device scratch
  PiecePartial* partials;      ///< device, `pieces` records in slice order
};

/// Arguments of every cipher kernel (device addresses), passed by value.
struct CipherArgs {
  CipherImpl impl;
  bool decrypt;
  std::uint32_t njobs;
  std::uint32_t nparents;
  const DevCipherJob* jobs;
  const std::uint64_t* unit_begin;  ///< njobs + 1 entries
  std::uint64_t units;              ///< unit_begin[njobs]
  const RawKey* raw_keys;
  std::uint32_t nkeys;
  void* keys;                       ///< key schedules of the implementation's type
  std::uint8_t* chain;              ///< CBC decryption: one saved ciphertext block per unit
  const algo::Gf128* xts_alpha_pow; ///< XTS: α^(2^i), i < 64, in GCM bit order (see xts_math.hpp)
  const DevGcmParent* parents;
  algo::Gf128* slots;               ///< GHASH segment results
  const std::uint64_t* slot_begin;  ///< slot-ordered: first slot of each GHASH slice (njobs + 1 entries)
  const std::uint32_t* slot_job;    ///< slot-ordered: the job (slice) owning those slots
  std::uint64_t total_slots;
  std::uint32_t level;              ///< GHASH combine: tree level
};

/// Arguments of the hash kernel: message i is data[offsets[i], offsets[i + 1]). Its digest is
/// digests[digest_offsets[i], digest_offsets[i + 1]) when digest_offsets is set (SHAKE lengths may differ per
/// message), else digest_len bytes at digests + i * digest_len.
struct HashArgs {
  std::uint8_t variant;                 ///< algo::HashVariant
  std::uint64_t count;
  const std::uint8_t* data;
  const std::uint64_t* offsets;         ///< count + 1 entries
  std::uint8_t* digests;
  const std::uint64_t* digest_offsets;  ///< count + 1 entries, or nullptr
  std::uint64_t digest_len;
};

}  // namespace cryptaccel::cuda

// SHA-crypt on the GPU, hashcat's split: an init kernel (per candidate: the start-up hashes A, DP, DS and the eight
// round templates of src/algo/shacrypt.hpp, in the candidate's own slice of device memory), a loop kernel launched
// once per chunk of rounds (so no launch outlasts a display watchdog, whatever `rounds=` says), and a finish kernel
// that copies the digest out and wipes the templates. These are the per-thread bodies, shared by the kernels
// (src/cuda/shacrypt/shacrypt_kernels.cu) and the host emulation the CPU tests run (src/cuda/shacrypt/shacrypt_plan.cpp).
#pragma once
#include <cstdint>

#include "algo/shacrypt.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::cuda {

/// One batch on the device: candidates of one variant and one rounds count, packed by shacrypt_plan.
struct ShaCryptArgs {
  std::uint8_t variant;             ///< algo::HashVariant (sha256 or sha512)
  std::uint32_t rounds;
  std::uint64_t count;              ///< candidates
  const std::uint8_t* input;        ///< passwords and salts, packed
  const std::uint64_t* pw_offset;   ///< count + 1 entries into `input`: candidate i's password
  const std::uint64_t* salt_offset; ///< count entries into `input`; the salt length is in salt_len
  const std::uint8_t* salt_len;     ///< count entries (0..16)
  std::uint8_t* templates;          ///< the eight templates of every candidate
  const std::uint64_t* tmpl_offset; ///< count entries into `templates`
  std::uint8_t* digests;            ///< count * digest size bytes (finish)
};

namespace detail {
CA_HD algo::HashVariant variant_of(const ShaCryptArgs& a) { return static_cast<algo::HashVariant>(a.variant); }
CA_HD std::size_t pw_len(const ShaCryptArgs& a, std::uint64_t i) { return a.pw_offset[i + 1] - a.pw_offset[i]; }
/// Start of template k of candidate i.
CA_HD std::uint8_t* template_at(const ShaCryptArgs& a, std::uint64_t i, int k) {
  const algo::HashVariant v = variant_of(a);
  std::uint8_t* p = a.templates + a.tmpl_offset[i];
  for (int j = 0; j < k; ++j)
    p += algo::shacrypt_pattern_blocks(v, j, pw_len(a, i), a.salt_len[i]) * algo::hash_block_size(v);
  return p;
}
}  // namespace detail

/// Template bytes of a candidate (all eight layouts).
CA_HD std::uint64_t shacrypt_template_bytes(algo::HashVariant v, std::size_t pw_len, std::size_t salt_len) {
  std::uint64_t n = 0;
  for (int k = 0; k < algo::kShaCryptPatterns; ++k)
    n += algo::shacrypt_pattern_blocks(v, k, pw_len, salt_len) * algo::hash_block_size(v);
  return n;
}

// The bodies are templates on the variant (a.variant must equal V), so that the compiler drops the other hash
// families from the switch in algo::hash_blocks: one SHA-2 per kernel, smaller code and fewer registers.

/// Init kernel body: candidate i's A, DP, DS; its eight templates, with A in round 0's hole.
template <algo::HashVariant V>
CA_HD void shacrypt_op_init(const ShaCryptArgs& a, std::uint64_t i) {
  constexpr algo::HashVariant v = V;
  const std::size_t pw_len = detail::pw_len(a, i), salt_len = a.salt_len[i];
  std::uint8_t c[64], dp[64], ds[64];
  algo::shacrypt_prepare(v, a.input + a.pw_offset[i], pw_len, a.input + a.salt_offset[i], salt_len, c, dp, ds);
  std::uint8_t* p = a.templates + a.tmpl_offset[i];
  for (int k = 0; k < algo::kShaCryptPatterns; ++k) {
    algo::shacrypt_build_pattern(v, k, dp, pw_len, ds, salt_len, p);
    p += algo::shacrypt_pattern_blocks(v, k, pw_len, salt_len) * algo::hash_block_size(v);
  }
  std::uint8_t* hole = detail::template_at(a, i, 0) + algo::shacrypt_pattern_c_offset(v, 0, pw_len, salt_len);
  for (std::size_t j = 0; j < algo::shacrypt_digest_size(v); ++j) hole[j] = c[j];
  for (int j = 0; j < 64; ++j) c[j] = dp[j] = ds[j] = 0;
}

/// Loop kernel body: rounds [begin, end) of candidate i. Round r hashes template pattern(r), whose hole holds C, and
/// writes the new C into the hole of template pattern(r + 1) (round `rounds` is the finish kernel's to read).
template <algo::HashVariant V>
CA_HD void shacrypt_op_rounds(const ShaCryptArgs& a, std::uint64_t i, std::uint32_t begin, std::uint32_t end) {
  constexpr algo::HashVariant v = V;
  const std::size_t pw_len = detail::pw_len(a, i), salt_len = a.salt_len[i];
  const std::size_t block = algo::hash_block_size(v), dlen = algo::shacrypt_digest_size(v);
  std::uint8_t* tmpl[algo::kShaCryptPatterns];
  std::size_t blocks[algo::kShaCryptPatterns], hole[algo::kShaCryptPatterns];
  std::uint8_t* p = a.templates + a.tmpl_offset[i];
  for (int k = 0; k < algo::kShaCryptPatterns; ++k) {
    tmpl[k] = p;
    blocks[k] = algo::shacrypt_pattern_blocks(v, k, pw_len, salt_len);
    hole[k] = algo::shacrypt_pattern_c_offset(v, k, pw_len, salt_len);
    p += blocks[k] * block;
  }
  std::uint64_t state[25];
  for (std::uint32_t r = begin; r < end; ++r) {
    const int k = algo::shacrypt_pattern(r);
    algo::hash_init(v, state);
    algo::hash_blocks(v, state, tmpl[k], blocks[k]);
    const int next = algo::shacrypt_pattern(r + 1);
    algo::hash_output(v, state, tmpl[next] + hole[next], dlen);
  }
}

/// Finish kernel body: candidate i's digest (C after the last round) to `digests`, then its templates wiped.
template <algo::HashVariant V>
CA_HD void shacrypt_op_finish(const ShaCryptArgs& a, std::uint64_t i) {
  constexpr algo::HashVariant v = V;
  const std::size_t pw_len = detail::pw_len(a, i), salt_len = a.salt_len[i];
  const std::size_t dlen = algo::shacrypt_digest_size(v);
  const int k = algo::shacrypt_pattern(a.rounds);
  const std::uint8_t* c = detail::template_at(a, i, k) + algo::shacrypt_pattern_c_offset(v, k, pw_len, salt_len);
  for (std::size_t j = 0; j < dlen; ++j) a.digests[i * dlen + j] = c[j];
  const std::uint64_t n = shacrypt_template_bytes(v, pw_len, salt_len);
  std::uint8_t* t = a.templates + a.tmpl_offset[i];
  for (std::uint64_t j = 0; j < n; ++j) t[j] = 0;
}

}  // namespace cryptaccel::cuda

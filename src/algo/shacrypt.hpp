// SHA-crypt (Drepper's "Unix crypt using SHA-256 and SHA-512", the "$5$" / "$6$" password hashes), shared by host
// and device, over the SHA-256/SHA-512 block functions and framing of hash_message.hpp.
//
// Two forms of the same algorithm:
//  - shacrypt_digest: the specification step by step over a streaming context (the `ref` engine; the oracle);
//  - the round templates: the 5000 (or `rounds`) rounds after the start-up hashes read only eight message layouts,
//    chosen by (i odd, i mod 3 != 0, i mod 7 != 0). Each layout is fixed but for the 32/64-byte digest C of the
//    previous round, so it is built once per candidate, padded, with a hole where C goes; a round copies C into the
//    hole and hashes 1-3 blocks from the initial value (multi-buffer CPU lanes, GPU threads).
// Lengths (password, salt, rounds) decide the control flow; byte values never do.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/hash_message.hpp"
#include "algo/hd.hpp"

// The streaming context's functions are called from many places in the start-up hashes; on the device they stay
// calls (one inlined copy of the unrolled block function each) instead of being inlined everywhere, which would
// multiply the code and the compile time. On the host they are plain inline functions.
#if defined(__CUDACC__)
#define CA_HD_CALL inline __host__ __device__ __noinline__
#else
#define CA_HD_CALL inline
#endif

namespace cryptaccel::algo {

/// Most salt bytes SHA-crypt uses.
inline constexpr std::size_t kShaCryptSaltMax = 16;

/// Digest bytes of the SHA-2 a SHA-crypt variant uses (v is HashVariant::sha256 or sha512).
CA_HD std::size_t shacrypt_digest_size(HashVariant v) { return v == HashVariant::sha512 ? 64 : 32; }

/// An incremental SHA-256/SHA-512 (whole-message framing of hash_message.hpp, any number of add calls).
struct Sha2Stream {
  std::uint64_t state[25];
  std::uint8_t buf[128];
  std::uint64_t total;
  std::uint32_t used;
  HashVariant variant;
};

CA_HD void sha2_stream_init(Sha2Stream& s, HashVariant v) {
  s.variant = v;
  hash_init(v, s.state);
  s.total = 0;
  s.used = 0;
}

CA_HD_CALL void sha2_stream_add(Sha2Stream& s, const std::uint8_t* in, std::size_t len) {
  const std::size_t block = hash_block_size(s.variant);
  s.total += len;
  if (s.used) {
    while (len && s.used < block) s.buf[s.used++] = *in++, --len;
    if (s.used < block) return;
    hash_blocks(s.variant, s.state, s.buf, 1);
    s.used = 0;
  }
  const std::size_t whole = len / block;
  if (whole) hash_blocks(s.variant, s.state, in, whole);
  in += whole * block;
  len -= whole * block;
  for (std::size_t i = 0; i < len; ++i) s.buf[i] = in[i];
  s.used = static_cast<std::uint32_t>(len);
}

/// Adds `len` bytes of `unit` repeated (unit, unit, ..., a prefix of unit): the spec's "sequence P / S" built from a
/// digest without storing it.
CA_HD void sha2_stream_add_repeated(Sha2Stream& s, const std::uint8_t* unit, std::size_t unit_len, std::size_t len) {
  for (; len >= unit_len; len -= unit_len) sha2_stream_add(s, unit, unit_len);
  sha2_stream_add(s, unit, len);
}

/// Pads, absorbs the last block(s) and writes the digest (32 or 64 bytes).
CA_HD_CALL void sha2_stream_finish(Sha2Stream& s, std::uint8_t* out) {
  std::uint8_t last[256];
  const std::size_t n = hash_final_blocks(s.variant, s.buf, s.used, s.total, last);
  hash_blocks(s.variant, s.state, last, n);
  hash_output(s.variant, s.state, out, shacrypt_digest_size(s.variant));
}

/// The start-up of SHA-crypt (spec steps 1-20): A, the first C (`a`); DP, whose repetition is the sequence P
/// (`dp`); DS, whose repetition is the sequence S (`ds`). Each output holds the variant's digest size.
CA_HD_CALL void shacrypt_prepare(HashVariant v, const std::uint8_t* pw, std::size_t pw_len, const std::uint8_t* salt,
                            std::size_t salt_len, std::uint8_t* a, std::uint8_t* dp, std::uint8_t* ds) {
  const std::size_t dlen = shacrypt_digest_size(v);
  Sha2Stream ctx;
  // B = H(P S P)
  std::uint8_t b[64];
  sha2_stream_init(ctx, v);
  sha2_stream_add(ctx, pw, pw_len);
  sha2_stream_add(ctx, salt, salt_len);
  sha2_stream_add(ctx, pw, pw_len);
  sha2_stream_finish(ctx, b);
  // A = H(P S B-repeated-to-|P| then, for each bit of |P| from the lowest, B if it is 1 else P)
  sha2_stream_init(ctx, v);
  sha2_stream_add(ctx, pw, pw_len);
  sha2_stream_add(ctx, salt, salt_len);
  sha2_stream_add_repeated(ctx, b, dlen, pw_len);
  for (std::size_t n = pw_len; n; n >>= 1) {
    if (n & 1) sha2_stream_add(ctx, b, dlen);
    else sha2_stream_add(ctx, pw, pw_len);
  }
  sha2_stream_finish(ctx, a);
  // DP = H(P repeated |P| times)
  sha2_stream_init(ctx, v);
  for (std::size_t i = 0; i < pw_len; ++i) sha2_stream_add(ctx, pw, pw_len);
  sha2_stream_finish(ctx, dp);
  // DS = H(S repeated 16 + A[0] times)
  sha2_stream_init(ctx, v);
  for (std::size_t i = 0; i < 16u + a[0]; ++i) sha2_stream_add(ctx, salt, salt_len);
  sha2_stream_finish(ctx, ds);
  for (std::size_t i = 0; i < sizeof b; ++i) b[i] = 0;
}

/// SHA-crypt's raw digest (before the base-64 shuffle), straight from the specification: the `ref` engine's
/// implementation and the oracle for the round templates. `salt_len` <= 16; `rounds` already clamped.
CA_HD void shacrypt_digest(HashVariant v, const std::uint8_t* pw, std::size_t pw_len, const std::uint8_t* salt,
                           std::size_t salt_len, std::uint32_t rounds, std::uint8_t* out) {
  const std::size_t dlen = shacrypt_digest_size(v);
  std::uint8_t c[64], dp[64], ds[64];
  shacrypt_prepare(v, pw, pw_len, salt, salt_len, c, dp, ds);
  Sha2Stream ctx;
  for (std::uint32_t i = 0; i < rounds; ++i) {
    sha2_stream_init(ctx, v);
    if (i & 1) sha2_stream_add_repeated(ctx, dp, dlen, pw_len);
    else sha2_stream_add(ctx, c, dlen);
    if (i % 3) sha2_stream_add_repeated(ctx, ds, dlen, salt_len);
    if (i % 7) sha2_stream_add_repeated(ctx, dp, dlen, pw_len);
    if (i & 1) sha2_stream_add(ctx, c, dlen);
    else sha2_stream_add_repeated(ctx, dp, dlen, pw_len);
    sha2_stream_finish(ctx, c);
  }
  for (std::size_t i = 0; i < dlen; ++i) out[i] = c[i];
  for (std::size_t i = 0; i < 64; ++i) c[i] = dp[i] = ds[i] = 0;
  for (std::size_t i = 0; i < sizeof ctx.buf; ++i) ctx.buf[i] = 0;
}

// --- the eight round templates ---

/// Number of distinct round layouts.
inline constexpr int kShaCryptPatterns = 8;

/// The layout round i uses: bit 0 = i odd, bit 1 = i mod 3 != 0, bit 2 = i mod 7 != 0.
CA_HD int shacrypt_pattern(std::uint32_t i) {
  return static_cast<int>((i & 1) | ((i % 3 != 0) << 1) | ((i % 7 != 0) << 2));
}

/// The message length of layout `pattern` (before padding): C, P once or twice, S or not.
CA_HD std::size_t shacrypt_pattern_length(HashVariant v, int pattern, std::size_t pw_len, std::size_t salt_len) {
  return shacrypt_digest_size(v) + pw_len + ((pattern & 2) ? salt_len : 0) + ((pattern & 4) ? pw_len : 0);
}

/// Where C goes in layout `pattern`: first on even rounds, last on odd ones.
CA_HD std::size_t shacrypt_pattern_c_offset(HashVariant v, int pattern, std::size_t pw_len, std::size_t salt_len) {
  return (pattern & 1) ? shacrypt_pattern_length(v, pattern, pw_len, salt_len) - shacrypt_digest_size(v) : 0;
}

/// Blocks (64 or 128 bytes) of the padded message of layout `pattern`.
CA_HD std::size_t shacrypt_pattern_blocks(HashVariant v, int pattern, std::size_t pw_len, std::size_t salt_len) {
  const std::size_t block = hash_block_size(v);
  const std::size_t length_bytes = v == HashVariant::sha512 ? 16 : 8;
  return (shacrypt_pattern_length(v, pattern, pw_len, salt_len) + 1 + length_bytes + block - 1) / block;
}

/// Writes layout `pattern`'s padded message (shacrypt_pattern_blocks blocks) to `out`, the C hole zero; `dp`/`ds`
/// from shacrypt_prepare.
CA_HD void shacrypt_build_pattern(HashVariant v, int pattern, const std::uint8_t* dp, std::size_t pw_len,
                                  const std::uint8_t* ds, std::size_t salt_len, std::uint8_t* out) {
  const std::size_t dlen = shacrypt_digest_size(v);
  const std::size_t len = shacrypt_pattern_length(v, pattern, pw_len, salt_len);
  std::size_t at = 0;
  auto put_repeated = [&](const std::uint8_t* unit, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[at++] = unit[i % dlen];
  };
  auto put_hole = [&]() {
    for (std::size_t i = 0; i < dlen; ++i) out[at++] = 0;
  };
  if (pattern & 1) put_repeated(dp, pw_len);
  else put_hole();
  if (pattern & 2) put_repeated(ds, salt_len);
  if (pattern & 4) put_repeated(dp, pw_len);
  if (pattern & 1) put_hole();
  else put_repeated(dp, pw_len);
  // The framing of hash_final_blocks, for a message whose whole blocks are here too.
  const std::size_t block = hash_block_size(v);
  const std::size_t end = shacrypt_pattern_blocks(v, pattern, pw_len, salt_len) * block;
  out[at++] = 0x80;
  for (; at < end; ++at) out[at] = 0;
  store_be64(out + end - 8, static_cast<std::uint64_t>(len) << 3);
}

/// The crypt base-64 alphabet ("./0-9A-Za-z"), 6 bits per character, least significant first.
CA_DEFINE_TABLE(char, kCryptB64, 64, '.', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D',
                'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X',
                'Y', 'Z', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r',
                's', 't', 'u', 'v', 'w', 'x', 'y', 'z')

/// The spec's output order: group g (g = 0..n-1) packs digest bytes (first, second, third) into 24 bits, first
/// byte most significant, written as 4 characters. SHA-512: 21 groups over bytes (g, g+21, g+42) rotated by g mod
/// 3, then byte 63 alone (2 characters). SHA-256: 10 groups over (g, g+10, g+20) rotated the other way, then bytes
/// 31 and 30 (3 characters). Returns the digest byte that is byte k (0..2) of group g; -1 stands for a zero byte.
CA_HD int shacrypt_b64_index(HashVariant v, int g, int k) {
  if (v == HashVariant::sha512) {
    if (g == 21) return k == 2 ? 63 : -1;
    const int base[3] = {g, g + 21, g + 42};
    return base[(k + g) % 3];
  }
  if (g == 10) return k == 0 ? -1 : (k == 1 ? 31 : 30);
  const int base[3] = {g, g + 10, g + 20};
  return base[(k + 3 - g % 3) % 3];
}

}  // namespace cryptaccel::algo

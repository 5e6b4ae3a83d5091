// Whole-message hashing on one thread (host or device): the variants' parameters, initial states, padding and
// output, on top of the block functions in sha256.hpp, sha512.hpp, keccak.hpp and sm3.hpp. The streaming Hasher
// (src/api/hasher.cpp) uses the same padding and output functions, so framing exists once.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bits.hpp"
#include "algo/hd.hpp"
#include "algo/keccak.hpp"
#include "algo/sha256.hpp"
#include "algo/sha512.hpp"
#include "algo/sm3.hpp"

namespace cryptaccel::algo {

/// The hash variants, in the order of cryptaccel::HashAlgorithm (include/cryptaccel/hash.hpp, which device code
/// cannot include; src/api checks the two agree).
enum class HashVariant : std::uint8_t {
  sha224, sha256, sha384, sha512, sha512_224, sha512_256,
  sha3_224, sha3_256, sha3_384, sha3_512, shake128, shake256,
  sm3,
};

/// The block function family a variant uses.
enum class HashFamily : std::uint8_t { sha256, sha512, keccak, sm3 };

CA_HD HashFamily hash_family(HashVariant v) {
  switch (v) {
    case HashVariant::sha224: case HashVariant::sha256: return HashFamily::sha256;
    case HashVariant::sha384: case HashVariant::sha512: case HashVariant::sha512_224: case HashVariant::sha512_256:
      return HashFamily::sha512;
    case HashVariant::sm3: return HashFamily::sm3;
    default: return HashFamily::keccak;
  }
}

/// Bytes per block (SHA-3/SHAKE: the rate, 200 - 2 * security strength).
CA_HD std::size_t hash_block_size(HashVariant v) {
  switch (v) {
    case HashVariant::sha384: case HashVariant::sha512: case HashVariant::sha512_224: case HashVariant::sha512_256:
      return 128;
    case HashVariant::sha3_224: return 144;
    case HashVariant::sha3_256: return 136;
    case HashVariant::sha3_384: return 104;
    case HashVariant::sha3_512: return 72;
    case HashVariant::shake128: return 168;
    case HashVariant::shake256: return 136;
    default: return 64;
  }
}

/// Digest bytes (SHAKE: the default output length, 16 / 32 bytes as OpenSSL).
CA_HD std::size_t hash_digest_size(HashVariant v) {
  switch (v) {
    case HashVariant::sha224: case HashVariant::sha512_224: case HashVariant::sha3_224: return 28;
    case HashVariant::sha384: case HashVariant::sha3_384: return 48;
    case HashVariant::sha512: case HashVariant::sha3_512: return 64;
    case HashVariant::shake128: return 16;
    default: return 32;
  }
}

// State layout (25 64-bit words): Keccak uses all 25 lanes; SHA-384/512 the first 8 words; SHA-224/256 and SM3 keep
// their eight 32-bit words one per 64-bit slot (no type punning between word sizes).

/// Sets the initial state (the chaining value, or the all-zero sponge state).
CA_HD void hash_init(HashVariant v, std::uint64_t state[25]) {
  for (int i = 0; i < 25; ++i) state[i] = 0;
  switch (v) {
    case HashVariant::sha224: for (int i = 0; i < 8; ++i) state[i] = CA_TABLE(kSha224Init)[i]; break;
    case HashVariant::sha256: for (int i = 0; i < 8; ++i) state[i] = CA_TABLE(kSha256Init)[i]; break;
    case HashVariant::sm3: for (int i = 0; i < 8; ++i) state[i] = CA_TABLE(kSm3Init)[i]; break;
    case HashVariant::sha384: for (int i = 0; i < 8; ++i) state[i] = CA_TABLE(kSha384Init)[i]; break;
    case HashVariant::sha512: for (int i = 0; i < 8; ++i) state[i] = CA_TABLE(kSha512Init)[i]; break;
    case HashVariant::sha512_224: for (int i = 0; i < 8; ++i) state[i] = CA_TABLE(kSha512_224Init)[i]; break;
    case HashVariant::sha512_256: for (int i = 0; i < 8; ++i) state[i] = CA_TABLE(kSha512_256Init)[i]; break;
    default: break;
  }
}

/// Processes `n` whole blocks with the portable block function of the variant's family.
CA_HD void hash_blocks(HashVariant v, std::uint64_t state[25], const std::uint8_t* blocks, std::size_t n) {
  const HashFamily family = hash_family(v);
  if (family == HashFamily::sha256 || family == HashFamily::sm3) {
    std::uint32_t h[8];
    for (int i = 0; i < 8; ++i) h[i] = static_cast<std::uint32_t>(state[i]);
    if (family == HashFamily::sha256) sha256_blocks(h, blocks, n);
    else sm3_blocks(h, blocks, n);
    for (int i = 0; i < 8; ++i) state[i] = h[i];
    return;
  }
  switch (family) {
    case HashFamily::sha512: sha512_blocks(state, blocks, n); break;
    case HashFamily::keccak: keccak_absorb_blocks(state, hash_block_size(v), blocks, n); break;
    default: break;
  }
}

/// Builds the padded final block(s) from the `tail_len` (< block size) bytes left over after whole blocks:
///  - SHA-2 / SM3: tail || 0x80 || zeros || message length in bits, big-endian (8 bytes; 16 for SHA-384/512);
///  - SHA-3: tail || 0x06 || zeros || 0x80 (last byte); SHAKE: domain 0x1F instead of 0x06 (FIPS 202 §B.2).
/// Writes 1 or 2 blocks to `out` (room for 2 blocks of up to 168 bytes) and returns how many.
CA_HD std::size_t hash_final_blocks(HashVariant v, const std::uint8_t* tail, std::size_t tail_len,
                                    std::uint64_t total_bytes, std::uint8_t* out) {
  const std::size_t block = hash_block_size(v);
  std::size_t i = 0;
  for (; i < tail_len; ++i) out[i] = tail[i];
  if (hash_family(v) == HashFamily::keccak) {
    for (std::size_t j = i; j < block; ++j) out[j] = 0;
    out[i] = (v == HashVariant::shake128 || v == HashVariant::shake256) ? 0x1f : 0x06;
    out[block - 1] |= 0x80;
    return 1;
  }
  const std::size_t length_bytes = hash_family(v) == HashFamily::sha512 ? 16 : 8;
  const std::size_t blocks = tail_len + 1 + length_bytes <= block ? 1 : 2;
  const std::size_t end = blocks * block;
  out[i++] = 0x80;
  for (; i < end - 8; ++i) out[i] = 0;
  // Bit length = total_bytes * 8: its top 3 bits spill into the 16-byte field's upper half (already zero above).
  if (length_bytes == 16) out[end - 9] = static_cast<std::uint8_t>(total_bytes >> 61);
  store_be64(out + end - 8, total_bytes << 3);
  return blocks;
}

/// Writes `out_len` output bytes from a state that has absorbed its final block(s). SHAKE may ask for any length
/// (the sponge is squeezed, permuting `state` as it goes); the others take up to their digest size.
CA_HD void hash_output(HashVariant v, std::uint64_t state[25], std::uint8_t* out, std::size_t out_len) {
  switch (hash_family(v)) {
    case HashFamily::sha256:
    case HashFamily::sm3: {
      std::uint8_t word[4];
      for (std::size_t i = 0; i < out_len; ++i) {
        if (i % 4 == 0) store_be32(word, static_cast<std::uint32_t>(state[i / 4]));
        out[i] = word[i % 4];
      }
      break;
    }
    case HashFamily::sha512: {
      std::uint8_t word[8];
      for (std::size_t i = 0; i < out_len; ++i) {
        if (i % 8 == 0) store_be64(word, state[i / 8]);
        out[i] = word[i % 8];
      }
      break;
    }
    case HashFamily::keccak: {
      const std::size_t rate = hash_block_size(v);
      std::uint8_t lane[8];
      for (std::size_t done = 0; done < out_len;) {
        for (std::size_t i = 0; i < rate && done < out_len; ++i, ++done) {
          if (i % 8 == 0) store_le64(lane, state[i / 8]);
          out[done] = lane[i % 8];
        }
        if (done < out_len) keccak_f1600(state);
      }
      break;
    }
  }
}

/// Byte `pos` of a message's padded final block(s), `end` bytes in all, after its whole blocks: the `tail_len` bytes
/// at `tail`, then `pad` (0x80, or Keccak's domain byte), zeros, and for SHA-2/SM3 the bit length big-endian in the
/// last `length_bytes` (16 for SHA-384/512: the bit count's top 3 bits go into the byte before the low 8); for
/// Keccak, 0x80 ORed into the last byte. What hash_final_blocks writes, one byte at a time, so that hash_message can
/// build the final words in registers (a buffer filled up to a run-time length lives in the GPU's local memory).
CA_HD unsigned final_byte(const std::uint8_t* tail, std::size_t tail_len, std::size_t pos, std::size_t end,
                          unsigned pad, std::size_t length_bytes, std::uint64_t total_bytes) {
  unsigned v = pos < tail_len ? tail[pos] : 0u;
  if (pos == tail_len) v = pad;
  if (length_bytes == 0) return pos + 1 == end ? v | 0x80u : v;  // Keccak
  if (pos + 8 >= end) return static_cast<unsigned>(((total_bytes << 3) >> (8 * (end - 1 - pos))) & 0xFFu);
  if (length_bytes == 16 && pos + 9 == end) return static_cast<unsigned>(total_bytes >> 61);
  return pos + length_bytes >= end ? 0u : v;
}

/// The 16 big-endian message words of the SHA-2/SM3 final block starting at byte `b` of the padded final blocks.
template <class Word>
CA_HD void final_words(Word w[16], const std::uint8_t* tail, std::size_t tail_len, std::size_t b, std::size_t end,
                       std::size_t length_bytes, std::uint64_t total_bytes) {
  CA_UNROLL_ALL
  for (int i = 0; i < 16; ++i) {
    Word word = 0;
    for (std::size_t k = 0; k < sizeof(Word); ++k)
      word = static_cast<Word>(word << 8 | final_byte(tail, tail_len, b + sizeof(Word) * i + k, end, 0x80u,
                                                      length_bytes, total_bytes));
    w[i] = word;
  }
}

/// Absorbs the padded final block(s) of a message (its last `tail_len` < block-size bytes at `tail`, `total_bytes`
/// long) into `state`, as hash_blocks over hash_final_blocks' output would, with the words built in registers.
CA_HD void hash_final(HashVariant v, std::uint64_t state[25], const std::uint8_t* tail, std::size_t tail_len,
                      std::uint64_t total_bytes) {
  switch (hash_family(v)) {
    case HashFamily::sha256:
    case HashFamily::sm3: {
      std::uint32_t h[8];
      for (int i = 0; i < 8; ++i) h[i] = static_cast<std::uint32_t>(state[i]);
      const std::size_t end = tail_len + 9 <= 64 ? 64 : 128;
      for (std::size_t b = 0; b < end; b += 64) {
        std::uint32_t w[16];
        final_words(w, tail, tail_len, b, end, 8, total_bytes);
        if (hash_family(v) == HashFamily::sha256) sha256_compress(h, w);
        else sm3_compress(h, w);
      }
      for (int i = 0; i < 8; ++i) state[i] = h[i];
      return;
    }
    case HashFamily::sha512: {
      const std::size_t end = tail_len + 17 <= 128 ? 128 : 256;
      for (std::size_t b = 0; b < end; b += 128) {
        std::uint64_t w[16];
        final_words(w, tail, tail_len, b, end, 16, total_bytes);
        sha512_compress(state, w);
      }
      return;
    }
    case HashFamily::keccak: {
      const std::size_t rate = hash_block_size(v);
      const unsigned domain = v == HashVariant::shake128 || v == HashVariant::shake256 ? 0x1Fu : 0x06u;
      for (std::size_t i = 0; i < rate / 8; ++i) {
        std::uint64_t lane = 0;
        for (int k = 7; k >= 0; --k)
          lane = lane << 8 | final_byte(tail, tail_len, 8 * i + static_cast<std::size_t>(k), rate, domain, 0, 0);
        state[i] ^= lane;
      }
      keccak_f1600(state);
      return;
    }
  }
}

/// Hashes one whole message: `out_len` bytes of digest (SHAKE: any length) into `out`. The final blocks: on the GPU
/// built word by word in registers (hash_final), on the host through a buffer (hash_final_blocks; byte by byte costs
/// the host up to a third of a short message's time). tests/cpp/test_hash_final.cpp checks that the two agree for
/// every variant and tail length.
CA_HD void hash_message(HashVariant v, const std::uint8_t* in, std::size_t len, std::uint8_t* out, std::size_t out_len) {
  std::uint64_t state[25];
  hash_init(v, state);
  const std::size_t block = hash_block_size(v);
  const std::size_t whole = len / block;
  hash_blocks(v, state, in, whole);
#if defined(__CUDA_ARCH__)
  hash_final(v, state, in + whole * block, len - whole * block, len);
#else
  std::uint8_t last[2 * 168];
  const std::size_t n = hash_final_blocks(v, in + whole * block, len - whole * block, len, last);
  hash_blocks(v, state, last, n);
#endif
  hash_output(v, state, out, out_len);
}

}  // namespace cryptaccel::algo

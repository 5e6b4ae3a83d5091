// The cpu engine's SM4 (src/cpu/sm4_*): the AES-NI S-box against the reference S-box for all 256 inputs, each SIMD
// kernel against the portable SM4 (src/algo/sm4.hpp), and the modes against the ref engine and OpenSSL (SM4-ECB, CBC
// and CTR through EVP; OpenSSL 3.0 has no SM4-GCM, so SM4-GCM is compared with ref). Kernels this CPU cannot run skip
// with the reason; CRYPTACCEL_CPU_MASK=avx2 makes the engine use the SSE kernel (ctest runs this file so too).
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "algo/bits.hpp"
#include "algo/sm4.hpp"
#include "common/cpu_features.hpp"
#include "cpu/sm4_aesni.hpp"
#include "cpu/sm4_modes.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "test_util.hpp"
#include "common/copy_bytes.hpp"

namespace cryptaccel {
namespace {

using test::random_bytes;
using test::to_hex;

constexpr std::size_t kBlock = 16;

// ---- the SIMD kernels, each one directly ------------------------------------------------------------------------

/// The kernels by name, or the reason this CPU cannot run them.
const cpu::Sm4Simd* kernel(const std::string& name, std::string& why) {
  const cryptaccel::CpuFeatures& f = cryptaccel::cpu_features();
  if (!f.aesni || !f.ssse3) {
    why = "this CPU lacks AES-NI or SSSE3 (features: " + f.names() + ")";
    return nullptr;
  }
  if (name == "sse") return &cpu::sm4_simd_sse();
  if (name.rfind("gfni", 0) == 0) {
    const bool runs = f.gfni && (name == "gfni_sse" || (name == "gfni_avx512" && f.avx512f && f.avx512bw) ||
                                 (name == "gfni_avx512vl" && f.avx512vl));
    if (!runs) {
      why = "this CPU lacks GFNI or the AVX-512 parts of " + name + " (features: " + f.names() + "): not tested";
      return nullptr;
    }
    if (name == "gfni_sse") return &cpu::sm4_simd_gfni_sse();
    return name == "gfni_avx512" ? &cpu::sm4_simd_gfni_avx512() : &cpu::sm4_simd_gfni_avx512vl();
  }
  if (!f.avx2) {
    why = "this CPU lacks AVX2 (features: " + f.names() + "): the AVX2 kernel is not tested";
    return nullptr;
  }
  return &cpu::sm4_simd_avx2();
}

class Sm4Kernels : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    simd_ = kernel(GetParam(), why);
    if (!simd_) GTEST_SKIP() << why;
  }
  const cpu::Sm4Simd* simd_ = nullptr;
  std::mt19937_64 rng_{0x5a4c0de};
};

TEST_P(Sm4Kernels, SboxMatchesReferenceForAll256Inputs) {
  // The reference: sm4_tau_words (bitsliced inversion in SM4's own field), itself checked against the standard's
  // table in test_block_ciphers.cpp.
  std::uint8_t want[256];
  for (int w = 0; w < 64; ++w) {
    std::uint32_t word = (std::uint32_t(4 * w) << 24) | (std::uint32_t(4 * w + 1) << 16) |
                         (std::uint32_t(4 * w + 2) << 8) | std::uint32_t(4 * w + 3);
    algo::sm4_tau_words<1>(&word);
    algo::store_be32(want + 4 * w, word);
  }
  ASSERT_EQ(want[0x00], 0xd6);  // GB/T 32907 table, first and last entries
  ASSERT_EQ(want[0xff], 0x48);
  // Each input at every byte position of the register (ShiftRows must be undone everywhere).
  const std::size_t n = simd_->tau_bytes;
  std::vector<std::uint8_t> in(n), out(n);
  for (std::size_t shift = 0; shift < n; ++shift) {
    for (int base = 0; base < 256; base += static_cast<int>(n)) {
      for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint8_t>(base + (i + shift) % n);
      simd_->tau(in.data(), out.data());
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], want[in[i]]) << "input " << int(in[i]) << " at byte " << i << " (" << simd_->name << ")";
    }
  }
}

TEST_P(Sm4Kernels, KeyScheduleAndBlocksMatchPortable) {
  for (int trial = 0; trial < 20; ++trial) {
    const bytes key = random_bytes(rng_, 16);
    algo::Sm4RoundKeys ref_keys;
    algo::sm4_expand_key(key.data(), ref_keys);
    std::uint32_t rk[32], dec[32];
    simd_->expand_key(key.data(), rk);  // this kernel's S-box
    for (int i = 0; i < 32; ++i) ASSERT_EQ(rk[i], ref_keys.rk[i]) << "round key " << i << " key=" << to_hex(key);
    std::uint32_t engine_rk[32];  // the engine's choice (ctest cpu_sm4_without_gfni: AES-NI's)
    cpu::sm4_aesni_expand_key(key.data(), engine_rk);
    for (int i = 0; i < 32; ++i) ASSERT_EQ(engine_rk[i], ref_keys.rk[i]) << "engine round key " << i;
    for (int i = 0; i < 32; ++i) dec[i] = rk[31 - i];
    // Block counts around the register-group sizes (SSE: 4 and 8, AVX2: 8 and 16) and a few larger ones.
    for (std::size_t nblocks :
         {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 12u, 15u, 16u, 17u, 20u, 24u, 31u, 32u, 33u, 40u, 100u, 257u}) {
      const bytes pt = random_bytes(rng_, nblocks * kBlock);
      bytes want(pt.size()), got(pt.size());
      for (std::size_t b = 0; b < nblocks; b += algo::kSm4Lanes) {
        const int n = static_cast<int>(std::min<std::size_t>(algo::kSm4Lanes, nblocks - b));
        algo::sm4_crypt_blocks(ref_keys, false, pt.data() + b * kBlock, want.data() + b * kBlock, n);
      }
      simd_->crypt(rk, pt.data(), got.data(), nblocks);
      ASSERT_EQ(to_hex(got), to_hex(want)) << nblocks << " blocks, key=" << to_hex(key);
      simd_->crypt(dec, got.data(), got.data(), nblocks);  // in place
      ASSERT_EQ(to_hex(got), to_hex(pt)) << "decrypt " << nblocks << " blocks";
    }
  }
}

/// `n` counter blocks from `start`: inc32 (low 32 bits only) or one 128-bit big-endian integer.
bytes counter_blocks(const std::uint8_t start[16], std::size_t n, bool inc32) {
  bytes out;
  std::uint8_t c[16];
  std::memcpy(c, start, 16);
  for (std::size_t i = 0; i < n; ++i) {
    out.insert(out.end(), c, c + 16);
    for (int b = 15; b >= (inc32 ? 12 : 0) && ++c[b] == 0; --b) {
    }
  }
  return out;
}

TEST_P(Sm4Kernels, CounterModeMatchesEcbOfCounterBlocks) {
  const bytes key = random_bytes(rng_, 16);
  std::uint32_t rk[32];
  cpu::sm4_aesni_expand_key(key.data(), rk);
  for (bool inc32 : {false, true}) {
    for (int trial = 0; trial < 40; ++trial) {
      bytes start = random_bytes(rng_, 16);
      // Low words a few blocks before a wrap (32, 64 and 128 bits), so that groups cross it at every position.
      const int kind = trial % 4;
      if (kind > 0) {
        std::fill(start.end() - (kind == 1 ? 4 : kind == 2 ? 8 : 16), start.end(), 0xFF);
        start[15] = static_cast<std::uint8_t>(0xFF - rng_() % 40);
      }
      const std::size_t len = trial < 20 ? rng_() % 700 : rng_() % 5000;
      const std::size_t nblocks = (len + 15) / 16;
      const bytes blocks = counter_blocks(start.data(), nblocks + 1, inc32);
      bytes keystream(blocks.size());
      cpu::sm4_simd_sse().crypt(rk, blocks.data(), keystream.data(), nblocks + 1);
      const bytes pt = random_bytes(rng_, len);
      bytes want(len), got = pt;
      for (std::size_t i = 0; i < len; ++i) want[i] = pt[i] ^ keystream[i];
      std::uint8_t counter[16];
      std::memcpy(counter, start.data(), 16);
      simd_->ctr(rk, counter, inc32, got.data(), got.data(), len);  // in place
      SCOPED_TRACE("inc32=" + std::to_string(inc32) + " len=" + std::to_string(len) + " start=" + to_hex(start));
      ASSERT_EQ(to_hex(got), to_hex(want));
      // The counter moved past exactly the blocks used.
      EXPECT_EQ(to_hex(bytes_view(counter, 16)), to_hex(bytes_view(blocks).subspan(nblocks * 16, 16)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, Sm4Kernels, ::testing::Values("sse", "avx2", "gfni_sse", "gfni_avx512", "gfni_avx512vl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// ---- modes through the public API: cpu vs ref vs OpenSSL ---------------------------------------------------------

/// OpenSSL EVP for SM4-ECB/CBC/CTR; nullopt-like empty result with ok = false on a padding error.
struct EvpResult {
  bool ok = false;
  bytes out;
};
EvpResult evp(const CipherSpec& spec, Direction dir, bytes_view key, bytes_view iv, bytes_view in) {
  EvpResult r;
  std::string name = spec.name();
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(nullptr, name.c_str(), nullptr);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  if (!cipher || !ctx) throw std::runtime_error("OpenSSL has no " + name);
  const int enc = dir == Direction::encrypt;
  EVP_CipherInit_ex2(ctx, cipher, key.data(), spec.mode == Mode::ecb ? nullptr : iv.data(), enc, nullptr);
  EVP_CIPHER_CTX_set_padding(ctx, spec.pads() ? 1 : 0);
  r.out.resize(in.size() + 32);
  int n = 0, tail = 0;
  EVP_CipherUpdate(ctx, r.out.data(), &n, in.data(), static_cast<int>(in.size()));
  r.ok = EVP_CipherFinal_ex(ctx, r.out.data() + n, &tail) == 1;
  ERR_clear_error();
  r.out.resize(r.ok ? static_cast<std::size_t>(n + tail) : 0);
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(cipher);
  return r;
}

bool openssl_has(const char* name) {
  EVP_CIPHER* c = EVP_CIPHER_fetch(nullptr, name, nullptr);
  ERR_clear_error();
  EVP_CIPHER_free(c);
  return c != nullptr;
}

class Sm4CpuModes : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"sm4-ecb", "sm4-cbc", "sm4-ctr", "sm4-gcm"}) {
      try {
        resolve_engine("cpu", CipherSpec::parse(name), Direction::encrypt);
      } catch (const EngineUnavailable& e) {
        GTEST_SKIP() << e.what();
      }
    }
  }

  /// One job through run_batch on `engine`, in place or with input and output at the given misalignments.
  bytes run(const CipherSpec& spec, Direction dir, bytes_view key, bytes_view iv, bytes_view in,
            std::string_view engine, bool in_place, std::size_t in_shift, std::size_t out_shift,
            JobStatus* status = nullptr) {
    const std::size_t cap = in.size() + 32;
    std::vector<std::uint8_t> src(in.size() + 16), dst(cap + 16, 0xA5);
    copy_bytes(src.data() + in_shift, in.data(), in.size());
    CipherJob job;
    job.key = key;
    job.iv = iv;
    if (in_place) {
      copy_bytes(dst.data() + out_shift, in.data(), in.size());
      job.in = bytes_view(dst.data() + out_shift, in.size());
    } else {
      job.in = bytes_view(src.data() + in_shift, in.size());
    }
    job.out = mutable_bytes(dst.data() + out_shift, cap);
    BatchOptions options;
    options.engine = engine;
    options.threads = 1;
    run_batch(spec, dir, std::span<CipherJob>(&job, 1), options);
    if (status) *status = job.status;
    if (job.status != JobStatus::ok) return {};
    return bytes(dst.begin() + static_cast<std::ptrdiff_t>(out_shift),
                 dst.begin() + static_cast<std::ptrdiff_t>(out_shift + job.out_len));
  }

  std::size_t random_length(std::size_t i) {
    constexpr std::size_t kEdges[] = {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513};
    if (i < std::size(kEdges)) return kEdges[i];
    return i % 3 == 0 ? rng_() % 100001 : rng_() % 5000;
  }

  std::mt19937_64 rng_{20240612};
};

TEST_F(Sm4CpuModes, EcbCbcCtrMatchRefAndOpenSSL) {
  if (!openssl_has("SM4-CTR")) GTEST_SKIP() << "this OpenSSL has no SM4";
  for (const char* name : {"sm4-ecb", "sm4-cbc", "sm4-ctr"}) {
    for (bool padding : {true, false}) {
      CipherSpec spec = CipherSpec::parse(name);
      spec.padding = padding;
      if (spec.mode == Mode::ctr && !padding) continue;
      for (std::size_t i = 0; i < 40; ++i) {
        std::size_t len = random_length(i);
        if (!spec.pads() && spec.mode != Mode::ctr) len -= len % kBlock;
        const bytes key = random_bytes(rng_, 16), iv = random_bytes(rng_, 16), pt = random_bytes(rng_, len);
        const bool in_place = i % 2 == 1;
        const std::size_t in_shift = rng_() % 16, out_shift = i % 3 == 0 ? 0 : rng_() % 16;
        SCOPED_TRACE(spec.name() + (padding ? " pkcs7" : " nopad") + " len=" + std::to_string(len) +
                     " in_place=" + std::to_string(in_place) + " shifts=" + std::to_string(in_shift) + "," +
                     std::to_string(out_shift) + " key=" + to_hex(key) + " iv=" + to_hex(iv));
        const EvpResult want = evp(spec, Direction::encrypt, key, iv, pt);
        ASSERT_TRUE(want.ok);
        const bytes got = run(spec, Direction::encrypt, key, iv, pt, "cpu", in_place, in_shift, out_shift);
        ASSERT_EQ(to_hex(got), to_hex(want.out));
        ASSERT_EQ(to_hex(run(spec, Direction::encrypt, key, iv, pt, "ref", false, 0, 0)), to_hex(want.out));
        const bytes back = run(spec, Direction::decrypt, key, iv, want.out, "cpu", !in_place, out_shift, in_shift);
        ASSERT_EQ(to_hex(back), to_hex(pt));
      }
    }
  }
}

TEST_F(Sm4CpuModes, BadPaddingIsBadDecryptAndWipesOutput) {
  for (const char* name : {"sm4-ecb", "sm4-cbc"}) {
    const CipherSpec spec = CipherSpec::parse(name);
    for (int trial = 0; trial < 20; ++trial) {
      const bytes key = random_bytes(rng_, 16), iv = random_bytes(rng_, 16);
      const bytes pt = random_bytes(rng_, rng_() % 3000);
      bytes ct = encrypt(spec, CipherParams{key, iv}, pt, "cpu");
      ct[ct.size() - 1 - rng_() % 16] ^= 0x5A;  // the last block decrypts to random bytes: padding almost surely bad
      JobStatus cpu_status, ref_status;
      run(spec, Direction::decrypt, key, iv, ct, "ref", false, 0, 0, &ref_status);
      run(spec, Direction::decrypt, key, iv, ct, "cpu", false, 0, 0, &cpu_status);
      EXPECT_EQ(int(cpu_status), int(ref_status));
      if (ref_status != JobStatus::ok) {
        EXPECT_EQ(int(cpu_status), int(JobStatus::bad_decrypt));
        try {
          decrypt(spec, CipherParams{key, iv}, ct, "cpu");
          ADD_FAILURE() << "no BadDecrypt";
        } catch (const BadDecrypt& e) {
          EXPECT_STREQ(e.what(), "bad decrypt: invalid padding");
        }
        // The output buffer holds zeros, not the plaintext.
        bytes buffer = ct;
        CipherJob job{key, iv, buffer, buffer};
        BatchOptions options;
        options.engine = "cpu";
        run_batch(spec, Direction::decrypt, std::span<CipherJob>(&job, 1), options);
        EXPECT_EQ(int(job.status), int(JobStatus::bad_decrypt));
        EXPECT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](std::uint8_t b) { return b == 0; }));
      }
    }
  }
}

TEST_F(Sm4CpuModes, GcmMatchesRefWithAnyIvAadAndTagLength) {
  const CipherSpec spec = CipherSpec::parse("sm4-gcm");
  for (std::size_t i = 0; i < 60; ++i) {
    const std::size_t len = random_length(i);
    const std::size_t iv_len = i % 4 == 0 ? 12 : 1 + rng_() % 64;
    const bytes key = random_bytes(rng_, 16), iv = random_bytes(rng_, iv_len), aad = random_bytes(rng_, rng_() % 101);
    const std::size_t tag_len = 4 + rng_() % 13;
    const bytes pt = random_bytes(rng_, len);
    const CipherParams params{key, iv, aad, tag_len};
    SCOPED_TRACE("len=" + std::to_string(len) + " iv=" + to_hex(iv) + " aad_len=" + std::to_string(aad.size()) +
                 " tag_len=" + std::to_string(tag_len) + " key=" + to_hex(key));
    const bytes want = encrypt(spec, params, pt, "ref");
    const bytes got = encrypt(spec, params, pt, "cpu");
    ASSERT_EQ(to_hex(got), to_hex(want));
    ASSERT_EQ(to_hex(decrypt(spec, params, want, "cpu")), to_hex(pt));
    bytes forged = want;
    forged[rng_() % forged.size()] ^= static_cast<std::uint8_t>(1u << (rng_() % 8));
    try {
      decrypt(spec, params, forged, "cpu");
      ADD_FAILURE() << "tampered message accepted";
    } catch (const AuthenticationFailed& e) {
      EXPECT_STREQ(e.what(), "authentication failed: tag mismatch");
    }
  }
}

}  // namespace
}  // namespace cryptaccel

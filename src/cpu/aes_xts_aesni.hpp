// AES-XTS (IEEE 1619 / SP 800-38E, AES-128 and AES-256) with AES-NI, from any block index of a data unit: block j
// is enciphered under the tweak T_j = E_K2(iv)·α^j (α^j from algo/xts_tweak.hpp), so several threads can each take a
// run of blocks of one data unit (src/engine/xts_split.cpp). Eight blocks are in flight at a time, tweaks are doubled
// in SSE registers, and a partial last block is handled with ciphertext stealing. Constant time: no branch or memory
// index depends on the key, the tweak or the data. Compiled for AES-NI by a target pragma; callers check CPUID.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::cpu {

/// Both XTS keys expanded once: K1's encryption and decryption schedules, K2's encryption schedule. Wiped when it
/// goes. Not copyable (one copy of the schedules to wipe).
struct AesXtsAesniKey {
  alignas(16) std::uint8_t k1_enc[15][16];
  alignas(16) std::uint8_t k1_dec[15][16];  ///< the equivalent inverse cipher's round keys (AESIMC), in use order;
                                            ///< unset when aes_xts_aesni_init was told encryption only
  alignas(16) std::uint8_t k2_enc[15][16];
  int rounds = 0;  ///< 10 (AES-128-XTS) or 14 (AES-256-XTS)

  AesXtsAesniKey() = default;
  AesXtsAesniKey(const AesXtsAesniKey&) = delete;
  AesXtsAesniKey& operator=(const AesXtsAesniKey&) = delete;
  ~AesXtsAesniKey();
};

/// Whether this CPU runs the kernel (AES-NI, after CRYPTACCEL_CPU_MASK).
bool aes_xts_aesni_available();

/// Expands `key` = K1 || K2 (32 bytes: AES-128-XTS, 64 bytes: AES-256-XTS; callers validate the length); the
/// decryption schedule (k1_dec) only when `for_decryption` (one call that only encrypts need not pay for it).
void aes_xts_aesni_init(AesXtsAesniKey& key, const std::uint8_t* key_bytes, std::size_t key_len,
                        bool for_decryption = true);

/// XTS over `len` bytes of a data unit whose tweak is `iv`, starting at its block `first_block`: in[0..16) is block
/// first_block of the unit. When len % 16 != 0 the run ends the data unit and its last full block and the partial
/// block after it are processed together with ciphertext stealing (len must then be at least 16). in == out allowed.
void aes_xts_aesni_crypt(const AesXtsAesniKey& key, Direction dir, const std::uint8_t iv[16],
                         std::uint64_t first_block, const std::uint8_t* in, std::uint8_t* out, std::size_t len);

/// Runs one validated, pending AES-128/256-XTS job with the kernel: data units of `xts_unit` bytes (0: the whole job
/// is one), unit i with tweak (iv + i) mod 2^128 as the IV read little-endian; sets status and out_len.
void aes_xts_aesni_run(const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t xts_unit);

/// Whether CRYPTACCEL_CPU_XTS=aesni (read once; for tests and measurements) makes the kernel serve every XTS data
/// unit on one thread, large ones included, and the CPU has AES-NI.
bool aes_xts_aesni_forced();

/// Largest XTS data unit that the cpu engine gives to this kernel on one thread by default; larger units go to
/// OpenSSL's fused XTS (and, from 256 KiB, are split over threads with this kernel: engine/xts_split.hpp). Measured
/// on an idle Zen 1 (bench/results/2026-11-23-amd-epyc-2c/idle-xts-rsa/), kernel vs OpenSSL EVP per call: 64 B
/// 1.46x / 1.54x, 1 KiB 1.34x / 1.36x, 16 KiB 0.99x / 1.03x, 1 MiB 0.95x / 1.00x (AES-128 / AES-256): the kernel
/// expands its key schedules once per call where EVP sets up both XTS keys, which dominates small units, and
/// OpenSSL's bulk loop is a little faster on large ones (and uses VAES where the CPU has it). The saving of ~0.4 us
/// per call against the bulk loss of ~2e-11 s/byte (AES-128) crosses over near 19 KiB; 16 KiB keeps disk-sector
/// and page-sized units (512 B, 4 KiB) on the kernel.
inline constexpr std::size_t kXtsKernelMaxUnit = 16 * 1024;

/// Whether the kernel's bulk runs sixteen blocks at a time on VAES here (VAES, VPCLMULQDQ, AVX-512 F/BW; none hidden
/// by CRYPTACCEL_CPU_MASK). It then outruns OpenSSL's XTS at every size and serves data units of any size.
bool aes_xts_aesni_vaes();

/// Whether the cpu engine runs XTS data units of `unit_bytes` on one thread with this kernel: forced, or the CPU has
/// AES-NI and the unit is at most kXtsKernelMaxUnit (any size when aes_xts_aesni_vaes()).
bool aes_xts_aesni_serves(std::size_t unit_bytes);

/// The kernel as the cpu engine's XTS building block for splitting one data unit over threads (the key expanded once
/// per job and wiped with it); nullptr for other ciphers (AES-192 and SM4 have no XTS here) or without AES-NI.
std::unique_ptr<engine::XtsSplitKey> aes_xts_aesni_split_key(BlockCipher cipher, bytes_view key);

}  // namespace cryptaccel::cpu

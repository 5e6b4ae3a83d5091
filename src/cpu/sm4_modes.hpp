// The cpu engine's SM4 modes (ECB, CBC, CTR, GCM) on the SIMD kernels of sm4_aesni.hpp (AES-NI or GFNI S-box), with GCM's GHASH on
// PCLMULQDQ (ghash_pclmul.hpp). Same semantics, checks and messages as the AES path (openssl_aes.cpp): constant-time
// PKCS#7 and tag checks, and output wiped when either fails.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::cpu {

struct Sm4Simd;

/// An expanded SM4 key for the SIMD kernels (wiped on destruction).
class Sm4CpuKey {
 public:
  /// `key`: 16 bytes. `simd`: the kernels to use (default: the best this CPU runs; it must run one).
  explicit Sm4CpuKey(const std::uint8_t key[16], const Sm4Simd* simd = nullptr);
  ~Sm4CpuKey();
  Sm4CpuKey(const Sm4CpuKey&) = delete;
  Sm4CpuKey& operator=(const Sm4CpuKey&) = delete;

  void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const;
  void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const;
  /// CBC encryption of `nblocks` whole blocks; `chain` (the IV, then the last ciphertext block) is advanced. On the
  /// GFNI chain kernel (sm4_cbc_gfni.hpp) where the CPU has it.
  void cbc_encrypt(std::uint8_t chain[16], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) const;
  /// Counter mode (see Sm4Simd::ctr); `counter` is advanced.
  void ctr(std::uint8_t counter[16], bool inc32, const std::uint8_t* in, std::uint8_t* out, std::size_t len) const;

 private:
  const Sm4Simd* simd_;   // many blocks
  const Sm4Simd* small_;  // up to four blocks (sm4_simd_small)
  /// One block through the chain kernel (needs cbc_gfni_).
  static void one_block(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out);

  bool cbc_gfni_;           // CBC encryption and single blocks on sm4_cbc_encrypt_gfni
  std::uint32_t enc_[32], dec_[32];
};

/// Whether the cpu engine runs SM4 in `spec`'s mode here: ECB, CBC, CTR, GCM with SSSE3, AES-NI and PCLMULQDQ.
bool sm4_cpu_supports(const CipherSpec& spec);

/// Runs one validated, pending SM4 job; sets status, out_len and error like the AES path.
void sm4_cpu_run(const CipherSpec& spec, Direction dir, CipherJob& job);

/// SM4-GCM building blocks for jobs split over threads (src/engine/gcm_split.hpp).
std::unique_ptr<engine::GcmSplitKey> sm4_cpu_gcm_split_key(bytes_view key);

}  // namespace cryptaccel::cpu

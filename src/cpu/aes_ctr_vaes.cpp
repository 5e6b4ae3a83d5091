// See aes_ctr_vaes.hpp.
#include "cpu/aes_ctr_vaes.hpp"

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -W(maybe-)uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "algo/bits.hpp"
#include "cpu/aes_key_schedule.hpp"
#include "cpu/aes_vaes_rounds.hpp"
#include "common/cpu_features.hpp"
#include "cryptaccel/types.hpp"
#include "common/target_region.hpp"

namespace cryptaccel::cpu {

bool aes_ctr_vaes_available() { return has_vaes_avx512(cpu_features()); }

bool aes_ctr_vaes_serves(const CipherSpec& spec) {
  static const bool available = aes_ctr_vaes_available();
  return available && spec.mode == Mode::ctr && spec.is_aes();
}

}  // namespace cryptaccel::cpu

CA_TARGET_BEGIN("avx512f,avx512bw,vaes,aes,sse4.1")

namespace cryptaccel::cpu {
namespace {

/// CTR over `len` bytes from counter (hi, lo), whose low half does not wrap before the last block.
template <int Rounds>
void ctr_stretch(const __m512i* rk, std::uint64_t hi, std::uint64_t lo, const std::uint8_t* in, std::uint8_t* out,
                 std::size_t len) {
  vaes::CounterLanes ctr(hi, lo);
  // Sixteen blocks at a time: four independent registers through each round key.
  for (; len >= 256; len -= 256, in += 256, out += 256) {
    __m512i b[4];
    for (int k = 0; k < 4; ++k) b[k] = ctr.blocks(k);
    vaes::rounds<Rounds, true, 4>(b, rk);
    for (int k = 0; k < 4; ++k)
      _mm512_storeu_si512(out + 64 * k, _mm512_xor_si512(b[k], _mm512_loadu_si512(in + 64 * k)));
    ctr.advance16();
  }
  // The rest (under 256 bytes), four blocks at a time, the last piece through masked loads and stores (no read or
  // write past len).
  for (int k = 0; len > 0; ++k) {
    const std::size_t n = std::min<std::size_t>(len, 64);
    const __mmask64 bytes = n == 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
    __m512i keystream = ctr.blocks(k);
    vaes::rounds<Rounds, true, 1>(&keystream, rk);
    _mm512_mask_storeu_epi8(out, bytes, _mm512_xor_si512(keystream, _mm512_maskz_loadu_epi8(bytes, in)));
    len -= n, in += n, out += n;
  }
}

template <int Rounds>
void ctr(const std::uint8_t round_keys[15][16], const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
         std::size_t len) {
  __m512i rk[15];
  vaes::broadcast_schedule<Rounds>(round_keys, rk);
  std::uint64_t hi = algo::load_be64(iv), lo = algo::load_be64(iv + 8);
  while (len > 0) {
    // Blocks until the low half wraps (2^64 - lo; lo == 0: more than any length).
    const std::uint64_t until_wrap = 0 - lo;
    const std::size_t blocks = (len + 15) / 16;
    const std::size_t take = until_wrap != 0 && until_wrap < blocks ? static_cast<std::size_t>(until_wrap) : blocks;
    const std::size_t bytes = std::min(len, 16 * take);
    ctr_stretch<Rounds>(rk, hi, lo, in, out, bytes);
    lo += take;
    hi += lo == 0 ? 1 : 0;  // the counter is public: a branch on it is fine
    len -= bytes, in += bytes, out += bytes;
  }
  vaes::wipe_schedule(rk);
}

}  // namespace

void aes_ctr_vaes_run(const CipherSpec&, CipherJob& job) {
  alignas(16) std::uint8_t rk[15][16];
  const std::size_t len = job.in.size();
  aes_schedule::with_rounds(aes_schedule::expand(job.key.data(), job.key.size(), rk), [&](auto rounds) {
    ctr<decltype(rounds)::value>(rk, job.iv.data(), job.in.data(), job.out.data(), len);
  });
  secure_wipe(rk, sizeof rk);
  job.out_len = len;
  job.status = JobStatus::ok;
}

}  // namespace cryptaccel::cpu

CA_TARGET_END

#include "common/cpu_features.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#define CRYPTACCEL_X86 1
#endif

namespace cryptaccel {
namespace {

#if CRYPTACCEL_X86
std::uint64_t xgetbv0() {
  std::uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (std::uint64_t{hi} << 32) | lo;
}
#endif

CpuFeatures detect() {
  CpuFeatures f;
#if CRYPTACCEL_X86
  unsigned a, b, c, d;
  if (__get_cpuid(0, &a, &b, &c, &d)) f.intel = b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;  // "GenuineIntel"
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  f.ssse3 = c & (1u << 9);
  f.pclmulqdq = c & (1u << 1);
  f.aesni = c & (1u << 25);
  const bool osxsave = c & (1u << 27);
  const bool avx_cpu = c & (1u << 28);
  const std::uint64_t xcr0 = osxsave ? xgetbv0() : 0;
  const bool ymm_state = (xcr0 & 0x6) == 0x6;            // XMM and YMM
  const bool zmm_state = (xcr0 & 0xe6) == 0xe6;          // + opmask, ZMM_Hi256, Hi16_ZMM
  f.avx = avx_cpu && ymm_state;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    f.avx2 = f.avx && (b & (1u << 5));
    f.avx512f = zmm_state && (b & (1u << 16));
    f.avx512bw = f.avx512f && (b & (1u << 30));
    f.avx512vl = f.avx512f && (b & (1u << 31));
    f.avx512ifma = f.avx512f && (b & (1u << 21));
    f.sha_ni = b & (1u << 29);
    f.bmi1 = b & (1u << 3);
    f.bmi2 = b & (1u << 8);
    f.adx = b & (1u << 19);
    f.gfni = c & (1u << 8);
    f.vaes = f.avx && (c & (1u << 9));
    f.vpclmulqdq = f.avx && (c & (1u << 10));
  }
#endif
  return f;
}

/// Applies CRYPTACCEL_CPU_MASK.
void mask(CpuFeatures& f) {
  const char* env = std::getenv("CRYPTACCEL_CPU_MASK");
  if (!env) return;
  std::string_view list(env);
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    if (name == "aesni") f.aesni = false;
    if (name == "pclmulqdq") f.pclmulqdq = false;
    if (name == "avx2") f.avx2 = false;
    if (name == "avx512f") f.avx512f = f.avx512bw = f.avx512vl = f.avx512ifma = false;
    if (name == "avx512ifma") f.avx512ifma = false;
    if (name == "vaes") f.vaes = false;
    if (name == "vpclmulqdq") f.vpclmulqdq = false;
    if (name == "sha_ni") f.sha_ni = false;
    if (name == "gfni") f.gfni = false;
    if (name == "bmi1") f.bmi1 = false;
    if (name == "bmi2") f.bmi2 = false;
    if (name == "adx") f.adx = false;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
}

}  // namespace

std::string CpuFeatures::names() const {
  std::string s;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ' ';
    s += name;
  };
  add(aesni, "aesni"), add(pclmulqdq, "pclmulqdq"), add(ssse3, "ssse3"), add(avx, "avx"), add(avx2, "avx2");
  add(avx512f, "avx512f"), add(avx512bw, "avx512bw"), add(avx512vl, "avx512vl"), add(avx512ifma, "avx512ifma");
  add(vaes, "vaes");
  add(vpclmulqdq, "vpclmulqdq"), add(sha_ni, "sha_ni"), add(gfni, "gfni");
  add(bmi1, "bmi1"), add(bmi2, "bmi2"), add(adx, "adx");
  return s;
}

const CpuFeatures& cpu_features() {
  static const CpuFeatures features = [] {
    CpuFeatures f = detect();
    mask(f);
    return f;
  }();
  return features;
}

}  // namespace cryptaccel

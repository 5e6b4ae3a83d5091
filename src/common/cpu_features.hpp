// x86-64 CPU features relevant to cryptography, read once from CPUID (and XGETBV for the OS-enabled register state).
// The cpu engine's backends and the host RSA arithmetic are chosen from these at run time; nothing is compiled with
// -march=native.
#pragma once
#include <string>

namespace cryptaccel {

struct CpuFeatures {
  bool aesni = false;       ///< AES-NI (CPUID.1:ECX.AES)
  bool pclmulqdq = false;   ///< carry-less multiply (CPUID.1:ECX.PCLMULQDQ)
  bool ssse3 = false;
  bool avx = false;         ///< AVX with YMM state enabled by the OS
  bool avx2 = false;
  bool avx512f = false;     ///< AVX-512 Foundation with ZMM/opmask state enabled by the OS
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512ifma = false;  ///< 52-bit integer multiply-add (VPMADD52LUQ/HUQ; CPUID.7:EBX.AVX512_IFMA), with AVX-512 F
  bool vaes = false;        ///< vector AES (VEX/EVEX encoded, 256/512-bit)
  bool vpclmulqdq = false;  ///< vector carry-less multiply
  bool sha_ni = false;      ///< SHA-1/SHA-256 extensions
  bool gfni = false;        ///< Galois-field affine instructions
  bool bmi1 = false;        ///< ANDN among others (CPUID.7:EBX.BMI1)
  bool bmi2 = false;        ///< MULX among others (CPUID.7:EBX.BMI2)
  bool adx = false;         ///< ADCX/ADOX: add with carry through CF or OF only (CPUID.7:EBX.ADX)
  /// An Intel CPU (CPUID.0 vendor "GenuineIntel"): where AVX-512 has run 512 bits wide since Skylake-SP. AMD's Zen 4
  /// splits 512-bit operations into two 256-bit halves, so a choice between a 16-lane AVX-512 kernel and a faster
  /// scalar unit (SHA-NI) measured on Intel does not carry over. Not a feature: CRYPTACCEL_CPU_MASK leaves it.
  bool intel = false;

  /// Space-separated names of the features present, e.g. "aesni pclmulqdq avx2 sha_ni".
  std::string names() const;
};

/// What the cpu engine's VAES kernels need: AES-NI, AVX-512 F/BW (masked loads and stores) and VAES.
inline bool has_vaes_avx512(const CpuFeatures& f) { return f.aesni && f.avx512f && f.avx512bw && f.vaes; }

/// The features of the machine this process runs on (detected once). CRYPTACCEL_CPU_MASK="avx512f,vaes" (a
/// comma-separated list of feature names, as names() prints them) hides features, so that tests can force the slower
/// backends ("avx512f" hides every AVX-512 feature, "avx512ifma" only IFMA).
const CpuFeatures& cpu_features();

}  // namespace cryptaccel

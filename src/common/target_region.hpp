// A region of code compiled for extra instruction-set features (AES-NI, AVX-512, GFNI, ...), for the cpu engine's
// kernels that run only after a CPUID check; the rest of the library stays baseline x86-64. GCC spells it
// `#pragma GCC push_options` + `#pragma GCC target(...)`, which clang ignores; clang applies a target attribute to
// every function declared in the region (templates and lambdas included). Include the intrinsics headers before
// the region.
//
//   CA_TARGET_BEGIN("ssse3,aes")
//   ... functions ...
//   CA_TARGET_END
#pragma once

#define CA_TARGET_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define CA_TARGET_BEGIN(features) \
  CA_TARGET_PRAGMA(clang attribute push(__attribute__((target(features))), apply_to = function))
#define CA_TARGET_END CA_TARGET_PRAGMA(clang attribute pop)
#else
#define CA_TARGET_BEGIN(features) CA_TARGET_PRAGMA(GCC push_options) CA_TARGET_PRAGMA(GCC target(features))
#define CA_TARGET_END CA_TARGET_PRAGMA(GCC pop_options)
#endif

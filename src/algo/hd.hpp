// CA_HD marks functions compiled for both host and CUDA device. Round functions in src/algo/ use it so
// the CPU test suite exercises the exact arithmetic the GPU kernels run.
#pragma once

#if defined(__CUDACC__)
#define CA_HD __host__ __device__ __forceinline__
#else
#define CA_HD inline
#endif

// CA_LIMB_LOOP(N), before a loop of exactly N iterations over the limbs of a number: in device code it unrolls the
// loop fully up to 64 limbs (what nvcc does there anyway: the numbers stay in registers) and by 8 beyond, where they
// are in local memory regardless and full unrolling of 96..256-limb loops only multiplies nvcc's time (the 256-limb
// RSA kernels took minutes). No effect on host code.
#define CA_PRAGMA(x) _Pragma(#x)
// CA_UNROLL_ALL, before a short loop of constant trip count: unrolls it fully on host and device, so that indices
// into small arrays (a hash's message ring) become constants and the arrays live in registers.
#if defined(__CUDACC__)
#define CA_UNROLL_ALL CA_PRAGMA(unroll)
#else
#define CA_UNROLL_ALL CA_PRAGMA(GCC unroll 64)
#endif
#if defined(__CUDA_ARCH__)
#define CA_LIMB_LOOP(N) CA_PRAGMA(unroll((N) <= 64 ? (N) : 8))
#else
#define CA_LIMB_LOOP(N)
#endif

// Constant tables shared by host and device code. CA_DEFINE_TABLE(type, name, n, values...) defines the host table
// (constexpr) and, in CUDA compilations, a __constant__ copy; CA_TABLE(name) names whichever the current compilation
// pass reads. Round functions index these with uniform (warp-wide equal) indices, which constant memory broadcasts.
#if defined(__CUDACC__)
#define CA_DEFINE_TABLE(type, name, n, ...)                   \
  static __constant__ const type name##_device[n] = {__VA_ARGS__}; \
  inline constexpr type name##_host[n] = {__VA_ARGS__};
#else
#define CA_DEFINE_TABLE(type, name, n, ...) inline constexpr type name##_host[n] = {__VA_ARGS__};
#endif
#if defined(__CUDA_ARCH__)
#define CA_TABLE(name) name##_device
#else
#define CA_TABLE(name) name##_host
#endif

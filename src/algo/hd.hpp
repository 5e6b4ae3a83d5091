// CA_HD marks functions compiled for both host and CUDA device. Round functions in src/algo/ use it so
// the CPU test suite exercises the exact arithmetic the GPU kernels run.
#pragma once

#if defined(__CUDACC__)
#define CA_HD __host__ __device__ __forceinline__
#else
#define CA_HD inline
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

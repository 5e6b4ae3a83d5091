// CA_HD marks functions compiled for both host and CUDA device. Round functions in src/algo/ use it so
// the CPU test suite exercises the exact arithmetic the GPU kernels run.
#pragma once

#if defined(__CUDACC__)
#define CA_HD __host__ __device__ __forceinline__
#else
#define CA_HD inline
#endif

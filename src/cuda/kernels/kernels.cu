// The cuda engine's kernels: one template per (cipher implementation, operation), each a grid-stride loop over work
// units that calls the per-thread body from thread_ops.hpp (the same code the host emulation runs in the tests).
// T-table kernels first copy the tables into shared memory, 32 copies interleaved so that lane l of a warp reads
// entry x at word x * 32 + l: every lane hits its own bank whatever the (secret) indices.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/kernels/aes_ttable.hpp"
#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/thread_ops.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kCopies = 32;                // one table copy per lane of a warp
constexpr unsigned kTableWords = 256 * kCopies;  // 32 KiB per table in shared memory

__device__ std::uint32_t g_te[256];
__device__ std::uint32_t g_td[256];
__device__ std::uint32_t g_inv_sbox[256];

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

/// Operations that run the block cipher (the others only move or hash data).
__host__ __device__ constexpr bool uses_cipher(CipherOp op) {
  return op == CipherOp::ecb || op == CipherOp::ctr || op == CipherOp::cbc_decrypt || op == CipherOp::cbc_encrypt ||
         op == CipherOp::xts || op == CipherOp::gcm_setup || op == CipherOp::gcm_ctr || op == CipherOp::gcm_finalize;
}

/// Operations that run the inverse cipher when decrypting (they need the T-table kernel's decryption tables).
__host__ __device__ constexpr bool uses_inverse(CipherOp op, bool decrypt) {
  return decrypt && (op == CipherOp::ecb || op == CipherOp::cbc_decrypt || op == CipherOp::xts);
}

template <CipherImpl I, CipherOp Op>
__device__ __forceinline__ void run_one(const CipherArgs& a, const TtableView& t, std::uint64_t i) {
  if constexpr (Op == CipherOp::expand_keys) op_expand_keys<I>(a, i);
  else if constexpr (Op == CipherOp::ecb) op_ecb<I>(a, t, i);
  else if constexpr (Op == CipherOp::ctr) op_ctr<I>(a, t, i);
  else if constexpr (Op == CipherOp::cbc_gather) op_cbc_gather<I>(a, i);
  else if constexpr (Op == CipherOp::cbc_decrypt) op_cbc_decrypt<I>(a, t, i);
  else if constexpr (Op == CipherOp::cbc_encrypt) op_cbc_encrypt<I>(a, t, i);
  else if constexpr (Op == CipherOp::xts) op_xts<I>(a, t, i);
  else if constexpr (Op == CipherOp::gcm_setup) op_gcm_setup<I>(a, t, i);
  else if constexpr (Op == CipherOp::gcm_ctr) op_gcm_ctr<I>(a, t, i);
  else if constexpr (Op == CipherOp::ghash_segments) op_ghash_segments(a, i);
  else if constexpr (Op == CipherOp::ghash_combine) op_ghash_combine(a, i);
  else if constexpr (Op == CipherOp::ghash_collect) op_ghash_collect(a, i);
  else if constexpr (Op == CipherOp::gcm_finalize) op_gcm_finalize<I>(a, t, i);
  else if constexpr (Op == CipherOp::gcm_wipe_failed) op_gcm_wipe_failed<I>(a, i);
}

template <CipherImpl I, CipherOp Op>
__global__ void __launch_bounds__(kThreads) cipher_kernel(const CipherArgs a, std::uint64_t items) {
  TtableView t{nullptr, nullptr, nullptr, kCopies, threadIdx.x & 31u};
  if constexpr (I == CipherImpl::aes_ttable && uses_cipher(Op)) {
    extern __shared__ std::uint32_t tables[];
    for (unsigned k = threadIdx.x; k < kTableWords; k += blockDim.x) tables[k] = g_te[k / kCopies];
    if (uses_inverse(Op, a.decrypt)) {
      for (unsigned k = threadIdx.x; k < kTableWords; k += blockDim.x) {
        tables[kTableWords + k] = g_td[k / kCopies];
        tables[2 * kTableWords + k] = g_inv_sbox[k / kCopies];
      }
    }
    __syncthreads();
    t.te = tables;
    t.td = tables + kTableWords;
    t.inv_sbox = tables + 2 * kTableWords;
  }
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < items; i += stride)
    run_one<I, Op>(a, t, i);
}

template <CipherImpl I, CipherOp Op>
void launch_one(const CipherArgs& a, std::uint64_t items, cudaStream_t s, int sm_count) {
  std::size_t smem = 0;
  std::uint64_t max_blocks = static_cast<std::uint64_t>(sm_count) * 16;
  if constexpr (I == CipherImpl::aes_ttable && uses_cipher(Op)) {
    smem = (uses_inverse(Op, a.decrypt) ? 3 : 1) * kTableWords * sizeof(std::uint32_t);
    check(cudaFuncSetAttribute(cipher_kernel<I, Op>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(3 * kTableWords * sizeof(std::uint32_t))),
          "cudaFuncSetAttribute");
    // Tables load once per block: few long-lived blocks, as many as fit (registers cap 256-thread blocks at about
    // four per SM; 96 KiB of decryption tables at two).
    max_blocks = static_cast<std::uint64_t>(sm_count) * (uses_inverse(Op, a.decrypt) ? 2 : 4);
  }
  const std::uint64_t blocks = std::min<std::uint64_t>((items + kThreads - 1) / kThreads, std::max<std::uint64_t>(1, max_blocks));
  cipher_kernel<I, Op><<<static_cast<unsigned>(blocks), kThreads, smem, s>>>(a, items);
  check(cudaGetLastError(), "cipher kernel launch");
}

template <CipherImpl I>
void launch_impl(CipherOp op, const CipherArgs& a, std::uint64_t items, cudaStream_t s, int sm) {
  switch (op) {
    case CipherOp::expand_keys: return launch_one<I, CipherOp::expand_keys>(a, items, s, sm);
    case CipherOp::ecb: return launch_one<I, CipherOp::ecb>(a, items, s, sm);
    case CipherOp::ctr: return launch_one<I, CipherOp::ctr>(a, items, s, sm);
    case CipherOp::cbc_gather: return launch_one<I, CipherOp::cbc_gather>(a, items, s, sm);
    case CipherOp::cbc_decrypt: return launch_one<I, CipherOp::cbc_decrypt>(a, items, s, sm);
    case CipherOp::cbc_encrypt: return launch_one<I, CipherOp::cbc_encrypt>(a, items, s, sm);
    case CipherOp::xts:
      if constexpr (I == CipherImpl::sm4) throw Error("XTS is defined for AES only");  // no SM4-XTS kernel is built
      else return launch_one<I, CipherOp::xts>(a, items, s, sm);
    case CipherOp::gcm_setup: return launch_one<I, CipherOp::gcm_setup>(a, items, s, sm);
    case CipherOp::gcm_ctr: return launch_one<I, CipherOp::gcm_ctr>(a, items, s, sm);
    case CipherOp::ghash_segments: return launch_one<I, CipherOp::ghash_segments>(a, items, s, sm);
    case CipherOp::ghash_combine: return launch_one<I, CipherOp::ghash_combine>(a, items, s, sm);
    case CipherOp::ghash_collect: return launch_one<I, CipherOp::ghash_collect>(a, items, s, sm);
    case CipherOp::gcm_finalize: return launch_one<I, CipherOp::gcm_finalize>(a, items, s, sm);
    case CipherOp::gcm_wipe_failed: return launch_one<I, CipherOp::gcm_wipe_failed>(a, items, s, sm);
  }
}

__global__ void __launch_bounds__(kThreads) hash_kernel(const HashArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride) op_hash(a, i);
}

__global__ void __launch_bounds__(kThreads) keccak_kernel(std::uint64_t* states, std::uint64_t count) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride)
    op_keccak(states, i);
}

unsigned grid_for(std::uint64_t items, int sm_count) {
  return static_cast<unsigned>(std::min<std::uint64_t>((items + kThreads - 1) / kThreads,
                                                       std::max<std::uint64_t>(1, std::uint64_t(sm_count) * 16)));
}

}  // namespace

void upload_kernel_tables() {
  const TtableTables& t = ttable_tables();
  check(cudaMemcpyToSymbol(g_te, t.te, sizeof t.te), "cudaMemcpyToSymbol");
  check(cudaMemcpyToSymbol(g_td, t.td, sizeof t.td), "cudaMemcpyToSymbol");
  check(cudaMemcpyToSymbol(g_inv_sbox, t.inv_sbox, sizeof t.inv_sbox), "cudaMemcpyToSymbol");
}

void launch_cipher(CipherOp op, const CipherArgs& args, std::uint64_t items, void* stream, int sm_count) {
  if (items == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  switch (args.impl) {
    case CipherImpl::aes_bitsliced: return launch_impl<CipherImpl::aes_bitsliced>(op, args, items, s, sm_count);
    case CipherImpl::aes_ttable: return launch_impl<CipherImpl::aes_ttable>(op, args, items, s, sm_count);
    case CipherImpl::sm4: return launch_impl<CipherImpl::sm4>(op, args, items, s, sm_count);
  }
}

void launch_hash(const HashArgs& args, void* stream, int sm_count) {
  if (args.count == 0) return;
  hash_kernel<<<grid_for(args.count, sm_count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(args);
  check(cudaGetLastError(), "hash kernel launch");
}

void launch_keccak(std::uint64_t* states, std::uint64_t count, void* stream, int sm_count) {
  if (count == 0) return;
  keccak_kernel<<<grid_for(count, sm_count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(states, count);
  check(cudaGetLastError(), "keccak kernel launch");
}

}  // namespace cryptaccel::cuda

// A cooperative group of T consecutive lanes of a warp (T = 8, 16 or 32) as one value type, so that the group RSA
// kernels (rsa_group_ops.hpp) are one source for the GPU and for their host emulation:
//
//   on the device   LaneWord<T> is this lane's 32-bit word; shfl / ballot are __shfl_*_sync / __ballot_sync over
//                   the mask of the T lanes of this thread's group (lanes [base, base + T) of the warp,
//                   base = lane - lane % T)
//   on the host     LaneWord<T> holds all T lanes' words; every arithmetic operation is elementwise, a shuffle is a
//                   permutation of the array with CUDA's semantics (a lane whose source lies outside the group keeps
//                   its own value), a ballot a fold into a bit mask
//
// Group code is then straight-line code over LaneWords, identical on both sides. Values that every lane of a group
// holds alike (a broadcast, a ballot, a loop counter) are "uniform"; control flow may depend on uniform values only,
// never on per-lane ones (the host runs all lanes in lock step). The sync masks name the group's own lanes, so groups
// of one warp need not run in step with each other (a group past the end of a launch simply does not run; groups
// whose public exponents differ may take different branches).
//
// Device requirement: 1-D blocks whose size is a multiple of 32, so that a warp is 32 consecutive threadIdx.x and a
// group (T consecutive threads, T dividing 32) never straddles two warps.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bignum.hpp"
#include "algo/hd.hpp"

// Loop unrolling hints for device code only (GCC would warn about the unknown pragma).
#if defined(__CUDA_ARCH__)
#define CA_DEVICE_UNROLL _Pragma("unroll")
#define CA_DEVICE_NO_UNROLL _Pragma("unroll 1")
#else
#define CA_DEVICE_UNROLL
#define CA_DEVICE_NO_UNROLL
#endif

namespace cryptaccel::cuda {

/// One 32-bit word per lane of a group of T lanes (see the file comment).
template <unsigned T>
struct LaneWord {
  static_assert(T == 8 || T == 16 || T == 32, "a group is 8, 16 or 32 lanes of a warp");
#if defined(__CUDA_ARCH__)
  static constexpr unsigned kHeld = 1;  ///< words this object holds: this lane's
#else
  static constexpr unsigned kHeld = T;  ///< words this object holds: every lane's, lane i in v[i]
#endif
  std::uint32_t v[kHeld];

  /// x in every lane.
  CA_HD static LaneWord all(std::uint32_t x) {
    LaneWord r;
    for (unsigned i = 0; i < kHeld; ++i) r.v[i] = x;
    return r;
  }
  /// The lane's index in its group, 0..T-1.
  CA_HD static LaneWord index() {
    LaneWord r;
#if defined(__CUDA_ARCH__)
    r.v[0] = threadIdx.x % T;
#else
    for (unsigned i = 0; i < T; ++i) r.v[i] = i;
#endif
    return r;
  }
  /// f(lane) in each lane (on the device this lane's only): loads of the lane's own slice of a number.
  template <class F>
  CA_HD static LaneWord generate(F&& f) {
    LaneWord r;
#if defined(__CUDA_ARCH__)
    r.v[0] = f(static_cast<unsigned>(threadIdx.x % T));
#else
    for (unsigned i = 0; i < T; ++i) r.v[i] = f(i);
#endif
    return r;
  }
  /// f(lane, word) for each lane (on the device this lane's only): stores.
  template <class F>
  CA_HD void each(F&& f) const {
#if defined(__CUDA_ARCH__)
    f(static_cast<unsigned>(threadIdx.x % T), v[0]);
#else
    for (unsigned i = 0; i < T; ++i) f(i, v[i]);
#endif
  }
};

// Elementwise arithmetic (mod 2^32 unless named).
#define CA_LANE_BINARY(op)                                                      \
  template <unsigned T>                                                         \
  CA_HD LaneWord<T> operator op(const LaneWord<T>& a, const LaneWord<T>& b) {   \
    LaneWord<T> r;                                                              \
    for (unsigned i = 0; i < LaneWord<T>::kHeld; ++i) r.v[i] = a.v[i] op b.v[i]; \
    return r;                                                                   \
  }
CA_LANE_BINARY(+)
CA_LANE_BINARY(-)
CA_LANE_BINARY(*)
CA_LANE_BINARY(&)
CA_LANE_BINARY(|)
CA_LANE_BINARY(^)
CA_LANE_BINARY(>>)
#undef CA_LANE_BINARY

template <unsigned T>
CA_HD LaneWord<T> operator~(const LaneWord<T>& a) {
  LaneWord<T> r;
  for (unsigned i = 0; i < LaneWord<T>::kHeld; ++i) r.v[i] = ~a.v[i];
  return r;
}

/// All ones in the lanes where a == b, else 0 (no branch).
template <unsigned T>
CA_HD LaneWord<T> eq_mask(const LaneWord<T>& a, const LaneWord<T>& b) {
  LaneWord<T> r;
  for (unsigned i = 0; i < LaneWord<T>::kHeld; ++i) r.v[i] = algo::bn::eq_mask<std::uint32_t>(a.v[i], b.v[i]);
  return r;
}

/// a * b + c + carry per lane: the low word; carry becomes the high word (algo::bn::mac).
template <unsigned T>
CA_HD LaneWord<T> mac(const LaneWord<T>& a, const LaneWord<T>& b, const LaneWord<T>& c, LaneWord<T>& carry) {
  LaneWord<T> r;
  for (unsigned i = 0; i < LaneWord<T>::kHeld; ++i) r.v[i] = algo::bn::mac(a.v[i], b.v[i], c.v[i], carry.v[i]);
  return r;
}

/// a + b + carry per lane, carry 0 or 1 in and out (algo::bn::addc; b may be any word when carry is 0).
template <unsigned T>
CA_HD LaneWord<T> addc(const LaneWord<T>& a, const LaneWord<T>& b, LaneWord<T>& carry) {
  LaneWord<T> r;
  for (unsigned i = 0; i < LaneWord<T>::kHeld; ++i) r.v[i] = algo::bn::addc(a.v[i], b.v[i], carry.v[i]);
  return r;
}

/// a - b - borrow per lane, borrow 0 or 1 in and out (algo::bn::subb).
template <unsigned T>
CA_HD LaneWord<T> subb(const LaneWord<T>& a, const LaneWord<T>& b, LaneWord<T>& borrow) {
  LaneWord<T> r;
  for (unsigned i = 0; i < LaneWord<T>::kHeld; ++i) r.v[i] = algo::bn::subb(a.v[i], b.v[i], borrow.v[i]);
  return r;
}

#if defined(__CUDA_ARCH__)
/// The sync mask of this thread's group: T consecutive lanes of its warp.
template <unsigned T>
__device__ __forceinline__ unsigned lane_group_mask() {
  if constexpr (T == 32) return 0xffffffffu;
  else return ((1u << T) - 1) << ((threadIdx.x & 31) & ~(T - 1));
}
#endif

/// Every lane gets lane `src`'s word (src uniform, 0..T-1): a broadcast.
template <unsigned T>
CA_HD LaneWord<T> shfl(const LaneWord<T>& x, unsigned src) {
  LaneWord<T> r;
#if defined(__CUDA_ARCH__)
  r.v[0] = __shfl_sync(lane_group_mask<T>(), x.v[0], static_cast<int>(src), T);
#else
  for (unsigned i = 0; i < T; ++i) r.v[i] = x.v[src];
#endif
  return r;
}

/// Lane i gets lane i + d's word; lanes i + d >= T keep their own (CUDA's __shfl_down_sync within the group).
template <unsigned T>
CA_HD LaneWord<T> shfl_down(const LaneWord<T>& x, unsigned d) {
  LaneWord<T> r;
#if defined(__CUDA_ARCH__)
  r.v[0] = __shfl_down_sync(lane_group_mask<T>(), x.v[0], d, T);
#else
  for (unsigned i = 0; i < T; ++i) r.v[i] = i + d < T ? x.v[i + d] : x.v[i];
#endif
  return r;
}

/// Lane i gets lane i - d's word; lanes i < d keep their own (CUDA's __shfl_up_sync within the group).
template <unsigned T>
CA_HD LaneWord<T> shfl_up(const LaneWord<T>& x, unsigned d) {
  LaneWord<T> r;
#if defined(__CUDA_ARCH__)
  r.v[0] = __shfl_up_sync(lane_group_mask<T>(), x.v[0], d, T);
#else
  for (unsigned i = 0; i < T; ++i) r.v[i] = i >= d ? x.v[i - d] : x.v[i];
#endif
  return r;
}

/// Bit i set when lane i's word is nonzero (uniform: every lane gets the same mask).
template <unsigned T>
CA_HD std::uint32_t ballot(const LaneWord<T>& pred) {
#if defined(__CUDA_ARCH__)
  const std::uint32_t all = __ballot_sync(lane_group_mask<T>(), pred.v[0] != 0);
  if constexpr (T == 32) return all;
  else return (all >> ((threadIdx.x & 31) & ~(T - 1))) & ((1u << T) - 1);
#else
  std::uint32_t r = 0;
  for (unsigned i = 0; i < T; ++i) r |= static_cast<std::uint32_t>(pred.v[i] != 0) << i;
  return r;
#endif
}

/// Bit `lane` of the uniform mask m in each lane (0 or 1).
template <unsigned T>
CA_HD LaneWord<T> lane_bit(std::uint32_t m) {
  return (LaneWord<T>::all(m) >> LaneWord<T>::index()) & LaneWord<T>::all(1);
}

}  // namespace cryptaccel::cuda

#include "cuda_bindings.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_arg.hpp"
#include "cryptaccel/cuda.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;

namespace pyca {
namespace {

/// An array argument's device memory: where it starts and how many bytes it spans.
struct DeviceBytes {
  void* data = nullptr;
  std::size_t bytes = 0;
  std::size_t items = 0;
};

/// Checks that `a` lives in CUDA memory (device or managed), is C-contiguous and has whole-byte items.
DeviceBytes device_bytes(const nb::ndarray<>& a, const std::string& what) {
  const int type = a.device_type();
  if (type != nb::device::cuda::value && type != nb::device::cuda_managed::value)
    throw ca::InvalidArgument(what + " must be an array in CUDA device memory (it is in " +
                              (type == nb::device::cpu::value ? std::string("host") : "DLPack device type " + std::to_string(type)) +
                              " memory; cryptaccel.encrypt / hash_many take host data)");
  if (a.dtype().bits % 8 != 0 || a.dtype().lanes != 1)
    throw ca::InvalidArgument(what + " must have whole-byte items");
  // C-contiguous: strides (in items) are the products of the later extents. An empty array is, whatever its strides
  // say (CuPy exports (0, n) arrays with strides that are not).
  std::int64_t expected = 1;
  for (std::size_t i = a.size() ? a.ndim() : 0; i-- > 0;) {
    if (a.shape(i) != 1 && a.stride_ptr() && a.stride(i) != expected)
      throw ca::InvalidArgument(what + " must be C-contiguous (use .contiguous() / cupy.ascontiguousarray)");
    expected *= static_cast<std::int64_t>(a.shape(i));
  }
  return {a.data(), a.nbytes(), a.size()};
}

/// A 64-bit integer array (int64 or uint64), as DeviceBytes.
DeviceBytes device_u64(const nb::ndarray<>& a, const std::string& what) {
  const auto dt = a.dtype();
  const bool ok = dt.bits == 64 && (dt.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int) ||
                                    dt.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt));
  if (!ok) throw ca::InvalidArgument(what + " must be an int64 or uint64 array");
  return device_bytes(a, what);
}

ca::Direction direction_of(const std::string& d) {
  if (d == "encrypt") return ca::Direction::encrypt;
  if (d == "decrypt") return ca::Direction::decrypt;
  throw ca::InvalidArgument("direction must be 'encrypt' or 'decrypt', not '" + d + "'");
}

ca::cuda::AesKernel kernel_of(const std::string& v) {
  if (v == "bitsliced") return ca::cuda::AesKernel::bitsliced;
  if (v == "ttable") return ca::cuda::AesKernel::ttable;
  throw ca::InvalidArgument("variant must be 'bitsliced' (constant time) or 'ttable', not '" + v + "'");
}

void* stream_of(std::uintptr_t handle) { return reinterpret_cast<void*>(handle); }

/// One device-resident message: data -> out (may be the same array), GCM tag / result flag arrays when given.
void crypt(const std::string& cipher, const std::string& direction, nb::handle key, nb::handle iv,
           const nb::ndarray<>& data, const nb::ndarray<>& out, nb::handle aad, std::optional<nb::ndarray<>> tag,
           std::size_t tag_len, std::optional<nb::ndarray<>> ok, std::size_t xts_unit, const std::string& variant,
           std::uintptr_t stream) {
  ca::CipherSpec spec = ca::CipherSpec::parse(cipher);
  spec.padding = false;
  const ca::Direction dir = direction_of(direction);
  const DeviceBytes in = device_bytes(data, "data"), dst = device_bytes(out, "out");
  if (dst.bytes != in.bytes)
    throw ca::InvalidArgument("out has " + std::to_string(dst.bytes) + " bytes but data has " + std::to_string(in.bytes));
  ByteArg k(key, "key"), v(iv, "iv"), a(aad, "aad");
  ca::cuda::DeviceCipherJob job;
  job.key = k.view(), job.iv = v.view(), job.aad = a.view();
  job.in = in.data, job.out = dst.data, job.len = in.bytes, job.tag_len = tag_len;
  if (tag) {
    const DeviceBytes t = device_bytes(*tag, "tag");
    if (t.bytes != tag_len)
      throw ca::InvalidArgument("tag has " + std::to_string(t.bytes) + " bytes but tag_len is " + std::to_string(tag_len));
    job.tag = t.data;
  }
  if (ok) {
    const DeviceBytes f = device_bytes(*ok, "ok");
    if (f.bytes != sizeof(int)) throw ca::InvalidArgument("ok must be one int32 item");
    job.ok = static_cast<int*>(f.data);
  }
  ca::cuda::DeviceOptions options;
  options.aes_kernel = kernel_of(variant);
  options.xts_unit = xts_unit;
  nb::gil_scoped_release release;
  ca::cuda::crypt_async(spec, dir, std::span<const ca::cuda::DeviceCipherJob>(&job, 1), stream_of(stream), options);
}

/// Packed messages data[offsets[i], offsets[i+1]) -> digests (count x digest_len bytes).
void hash(const std::string& name, const nb::ndarray<>& data, const nb::ndarray<>& offsets,
          const nb::ndarray<>& digests, std::size_t digest_len, std::uintptr_t stream) {
  const ca::HashAlgorithm algorithm = ca::parse_hash(name);
  const DeviceBytes d = device_bytes(data, "data"), o = device_u64(offsets, "offsets"),
                    out = device_bytes(digests, "out");
  if (o.items == 0) throw ca::InvalidArgument("offsets needs count + 1 entries (at least 1)");
  const std::size_t count = o.items - 1;
  if (out.bytes != count * digest_len)
    throw ca::InvalidArgument("out has " + std::to_string(out.bytes) + " bytes; " + std::to_string(count) +
                              " digests of " + std::to_string(digest_len) + " bytes need " +
                              std::to_string(count * digest_len));
  nb::gil_scoped_release release;
  ca::cuda::hash_async(algorithm, d.bytes ? d.data : nullptr, static_cast<const std::uint64_t*>(o.data), count,
                       out.data, digest_len, stream_of(stream));
}

/// Keccak-f[1600] in place on n states of 25 lanes.
void keccak(const nb::ndarray<>& states, std::uintptr_t stream) {
  const DeviceBytes s = device_u64(states, "states");
  if (s.items % 25 != 0) throw ca::InvalidArgument("states must hold a multiple of 25 lanes, not " + std::to_string(s.items));
  nb::gil_scoped_release release;
  ca::cuda::keccak_f1600_async(static_cast<std::uint64_t*>(s.data), s.items / 25, stream_of(stream));
}

/// Waits for `stream` and returns the int32 items of device array `flags` (GCM result flags).
std::vector<int> read_flags(const nb::ndarray<>& flags, std::uintptr_t stream) {
  const DeviceBytes f = device_bytes(flags, "ok");
  if (f.bytes % sizeof(int) != 0) throw ca::InvalidArgument("ok must be an int32 array");
  std::vector<int> out(f.bytes / sizeof(int));
  nb::gil_scoped_release release;
  ca::cuda::copy_to_host(out.data(), f.data, f.bytes, stream_of(stream));
  return out;
}

}  // namespace

void register_cuda_bindings(nb::module_& m) {
  m.def("_cuda_available", &ca::cuda::available);
  m.def("_cuda_unavailable_reason", &ca::cuda::unavailable_reason);
  m.def("_cuda_crypt", &crypt, nb::arg("cipher"), nb::arg("direction"), nb::arg("key").none(), nb::arg("iv").none(),
        nb::arg("data"), nb::arg("out"), nb::arg("aad").none(), nb::arg("tag").none(), nb::arg("tag_len"), nb::arg("ok").none(),
        nb::arg("xts_unit"), nb::arg("variant"), nb::arg("stream"));
  m.def("_cuda_hash", &hash, nb::arg("name"), nb::arg("data"), nb::arg("offsets"), nb::arg("out"),
        nb::arg("digest_len"), nb::arg("stream"));
  m.def("_cuda_keccak", &keccak, nb::arg("states"), nb::arg("stream"));
  m.def("_cuda_read_flags", &read_flags, nb::arg("ok"), nb::arg("stream"));
}

}  // namespace pyca

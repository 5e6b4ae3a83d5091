// cryptaccel — device-resident GPU API: encrypt, decrypt and hash data that already lives in CUDA device memory, in
// place and with no copy through the host, queued on the caller's CUDA stream. Streams are passed as `void*` (a
// cudaStream_t; nullptr is the legacy default stream), so this header needs no CUDA headers. A call runs on the
// device that holds its buffers (all on one device, else InvalidArgument; host memory is InvalidArgument too) and
// leaves the calling thread's current device as it was. In a build without CUDA, or on a machine without a CUDA
// device, available() is false and the other functions throw EngineUnavailable.
//
// Host-resident data needs none of this: run_batch / hash_batch with engine "cuda" copy it to the GPU and back,
// pipelined over several streams.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cuda {

/// True when this build has the cuda engine and a CUDA device is usable.
bool available();
/// Empty when available(); otherwise a one-line reason ("no NVIDIA GPU found (cudaGetDeviceCount: ...)", or "cryptaccel
/// was built without CUDA").
std::string unavailable_reason();

/// Which AES kernel a device-resident call uses.
enum class AesKernel {
  bitsliced,  ///< constant time (the default)
  ttable,     ///< shared-memory T-tables: faster, NOT constant time (key- and data-dependent lookups)
};

/// Options of device-resident cipher calls.
struct DeviceOptions {
  AesKernel aes_kernel = AesKernel::bitsliced;
  std::size_t xts_unit = 0;  ///< XTS data-unit size (0: each job is one data unit), as BatchOptions::xts_unit
};

/// One device-resident cipher job. `key`, `iv` and `aad` are host memory, copied before the call returns; `in`, `out`,
/// `tag` and `ok` are device memory and are only touched by the queued work.
struct DeviceCipherJob {
  bytes_view key;
  bytes_view iv;            ///< as CipherParams::iv (GCM: any non-empty length; ECB: none)
  const void* in = nullptr;
  void* out = nullptr;      ///< may equal `in` (in place)
  std::size_t len = 0;      ///< bytes; ECB/CBC: whole blocks (no padding on the device)
  bytes_view aad;           ///< GCM
  void* tag = nullptr;      ///< GCM, device: tag_len bytes written when encrypting, the expected tag when decrypting
  std::size_t tag_len = 16; ///< GCM: 4..16
  int* ok = nullptr;        ///< GCM decryption, device (optional): set to 1 when the tag matched, else 0 — and then
                            ///< the output is zeroed (for an in-place job: the ciphertext too)
};

/// Queues every job on `stream` and returns without waiting (synchronize the stream before reading results). ECB and
/// CBC take no padding (`spec.padding` must be false). Throws InvalidArgument for a bad key, IV, tag or length
/// (nothing is queued then), EngineUnavailable without a device.
void crypt_async(const CipherSpec& spec, Direction dir, std::span<const DeviceCipherJob> jobs, void* stream,
                 const DeviceOptions& options = {});

/// Queues hashing of `count` messages, one GPU thread each: message i is data[offsets[i], offsets[i + 1]) with
/// `offsets` a device array of count + 1 entries; its digest goes to digests + i * digest_len (device). `digest_len`:
/// the algorithm's digest size (SHAKE: any length >= 1).
void hash_async(HashAlgorithm algorithm, const void* data, const std::uint64_t* offsets, std::size_t count,
                void* digests, std::size_t digest_len, void* stream);

/// Queues Keccak-f[1600] on `count` device states of 25 lanes each (KeccakState layout), in place.
void keccak_f1600_async(std::uint64_t* states, std::size_t count, void* stream);

/// Copies `bytes` from device memory `src` to host memory `dst` after the work queued on `stream` so far, and waits
/// for it (e.g. to read GCM result flags).
void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream);

}  // namespace cryptaccel::cuda

// include/cryptaccel/cuda.hpp in a build without CUDA: nothing is available, every call says why.
#include "cryptaccel/cuda.hpp"

#include "cryptaccel/error.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr const char* kWhy = "cryptaccel was built without CUDA";

}  // namespace

bool available() { return false; }

std::string unavailable_reason() { return kWhy; }

void crypt_async(const CipherSpec&, Direction, std::span<const DeviceCipherJob>, void*, const DeviceOptions&) {
  throw EngineUnavailable(std::string("cuda: ") + kWhy);
}

void hash_async(HashAlgorithm, const void*, const std::uint64_t*, std::size_t, void*, std::size_t, void*) {
  throw EngineUnavailable(std::string("cuda: ") + kWhy);
}

void keccak_f1600_async(std::uint64_t*, std::size_t, void*) { throw EngineUnavailable(std::string("cuda: ") + kWhy); }

void copy_to_host(void*, const void*, std::size_t, void*) { throw EngineUnavailable(std::string("cuda: ") + kWhy); }

}  // namespace cryptaccel::cuda

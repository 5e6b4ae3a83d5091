// The speed harness, cipher family: the buffers of one timed cipher cell, shared by the cryptaccel side
// (cipher_workload.cpp) and the OpenSSL side (evp_cipher.cpp).
#pragma once
#include <cstddef>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"
#include "cryptaccel/bench/workload.hpp"

namespace cryptaccel::bench {

/// GCM tag length used when timing (and verifying) GCM.
inline constexpr std::size_t kSpeedTagLen = 16;

/// `count` messages of `size` bytes, each with its own random key and IV, and room for their outputs. Allocated
/// once per cell. ECB and CBC are timed without padding (as `openssl speed`), so their sizes are block multiples.
struct CipherMessages {
  CipherSpec spec;
  std::size_t size = 0;
  std::size_t count = 0;
  bytes keys;    // count * key_size
  bytes ivs;     // count * iv_size
  bytes input;   // count * size
  bytes output;  // count * size
  bytes tags;    // count * kSpeedTagLen (GCM)

  /// Random keys (XTS: with differing halves), IVs and inputs.
  static CipherMessages random(const CipherSpec& spec, std::size_t size, std::size_t count, Rng& rng);

  std::size_t key_size() const { return spec.key_size(); }
  std::size_t iv_size() const { return spec.iv_size(); }
  bytes_view key(std::size_t i) const { return bytes_view(keys).subspan(i * key_size(), key_size()); }
  bytes_view iv(std::size_t i) const { return bytes_view(ivs).subspan(i * iv_size(), iv_size()); }
  bytes_view in(std::size_t i) const { return bytes_view(input).subspan(i * size, size); }
  mutable_bytes out(std::size_t i) { return mutable_bytes(output).subspan(i * size, size); }
  mutable_bytes tag(std::size_t i) { return mutable_bytes(tags).subspan(i * kSpeedTagLen, kSpeedTagLen); }
};

/// A random key for `spec` (XTS: the two halves differ, as IEEE 1619 and OpenSSL require).
bytes random_key(const CipherSpec& spec, Rng& rng);

}  // namespace cryptaccel::bench

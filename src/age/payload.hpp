// age's payload: the STREAM construction over ChaCha20-Poly1305 in 64 KiB chunks, many chunks per run_batch call.
#pragma once
#include <array>
#include <cstdint>

#include "age/age_input.hpp"
#include "cryptaccel/age.hpp"

namespace cryptaccel::age {

/// Seals everything `in` yields under `payload_key` (HKDF of the file key and the payload nonce) to `write`.
void seal_payload(const std::array<std::uint8_t, 32>& payload_key, const StreamReader& in, const StreamSink& write,
                  const EngineOptions& run);

/// Opens the payload from `in` to `write`, each chunk's plaintext written only after its tag verified. Throws
/// AuthenticationFailed or InvalidArgument naming the chunk and its byte offset in the plaintext.
void open_payload(const std::array<std::uint8_t, 32>& payload_key, AgeInput& in, const StreamSink& write,
                  const EngineOptions& run);

}  // namespace cryptaccel::age

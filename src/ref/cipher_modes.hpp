// The `ref` engine's modes of operation (ECB, CBC, CTR, GCM, XTS) over any BlockCipherKey: portable and
// spec-faithful (SP 800-38A/D/E, IEEE 1619), the oracle every faster engine is compared with.
#pragma once
#include <cstddef>
#include <memory>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::ref {

/// Runs one job that has passed validate_job (status pending); sets status, out_len and error.
void run_cipher_job(const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t xts_unit);

/// GCM building blocks for splitting one job over threads (src/engine/gcm_split.hpp), from the portable code:
/// bitsliced `cipher` and the bit-serial GHASH.
std::unique_ptr<engine::GcmSplitKey> make_gcm_split_key(BlockCipher cipher, bytes_view key);

}  // namespace cryptaccel::ref

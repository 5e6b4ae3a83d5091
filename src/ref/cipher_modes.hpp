// The `ref` engine's modes of operation (ECB, CBC, CTR, GCM, XTS) over any BlockCipherKey: portable and
// spec-faithful (SP 800-38A/D/E, IEEE 1619), the oracle every faster engine is compared with.
#pragma once
#include <cstddef>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"

namespace cryptaccel::ref {

/// Runs one job that has passed validate_job (status pending); sets status, out_len and error.
void run_cipher_job(const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t xts_unit);

}  // namespace cryptaccel::ref

// Checks a cipher job's sizes before any engine sees it, so every engine gets the same, already-valid input.
#pragma once
#include <cstddef>

#include "cryptaccel/batch.hpp"

namespace cryptaccel {

/// Leaves a valid job `pending`; marks an invalid one `invalid_argument` (or `bad_decrypt` for a ciphertext whose
/// length cannot be ECB/CBC output) with a one-line reason.
void validate_job(const CipherSpec& spec, Direction dir, std::size_t xts_unit, CipherJob& job);

}  // namespace cryptaccel

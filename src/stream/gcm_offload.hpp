// GCM streams on an engine without GCM building blocks (a GPU: engine/gcm_split.hpp's GcmSplitKey is a host-thread
// interface): each batch's counter mode runs on that engine as CTR jobs of one run_batch call, in place in the
// stream's (pinned) batch buffer, while GHASH, H and E(J0) come from a host engine's building blocks. GCM's counter
// is inc32 (the low 32 bits wrap alone) where CTR carries into the high bits, so a piece is cut where the low word
// wraps.
#pragma once
#include <cstddef>
#include <string>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"
#include "engine/gcm_split.hpp"

namespace cryptaccel {

/// Counter mode for GcmStreamState under `key` (which must outlive the result) as CTR jobs of run_batch on
/// `engine`, with `threads` host threads for its copies. Throws what run_batch's jobs report.
engine::GcmStreamState::BulkCtr gcm_ctr_through_batches(BlockCipher cipher, bytes_view key, std::string engine,
                                                         std::size_t threads);

}  // namespace cryptaccel

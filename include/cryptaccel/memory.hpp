// cryptaccel — preparing large output buffers of fresh memory.
#pragma once
#include <cstddef>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// Outputs from this size on are worth prepare_fresh_output(); below it the work is shorter than the call.
inline constexpr std::size_t kPrepareOutputFrom = std::size_t{4} << 20;

/// Makes a large, newly allocated and not yet written output buffer ready to be written at memory speed: the
/// kernel maps its pages ahead, on every core at once, instead of taking one page fault per 4 KiB on the thread that
/// first writes it (a 64 MiB result costs 16 384 faults, more than encrypting it on one core). Asks for transparent
/// huge pages on the whole 2 MiB pages inside it first. Contents are preserved; the call is only advice, so where the
/// kernel lacks it (Linux before 5.14, other systems) nothing changes. Does nothing below kPrepareOutputFrom bytes.
/// `threads` as in the engines (0: all cores).
void prepare_fresh_output(mutable_bytes out, std::size_t threads = 0) noexcept;

}  // namespace cryptaccel

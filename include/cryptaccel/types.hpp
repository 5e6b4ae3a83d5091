// cryptaccel — basic byte types shared by every public header.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cryptaccel {

/// Read-only view of bytes (keys, IVs, inputs).
using bytes_view = std::span<const std::uint8_t>;
/// Writable view of bytes (outputs).
using mutable_bytes = std::span<std::uint8_t>;
/// Owned bytes.
using bytes = std::vector<std::uint8_t>;

/// Overwrites `data` with zeros in a way the optimiser may not elide (used to wipe keys).
void secure_wipe(void* data, std::size_t len) noexcept;

}  // namespace cryptaccel

// Runs raw RSA operations on an engine for a batch, around every engine alike: for private operations base
// blinding before (c' = c r^e), unblinding after (s = s' r^-1), and the check s^e == c with cryptaccel's own host
// arithmetic (MULX/ADX kernels where the CPU has them, portable around `ref`: src/rsa/host_mont.hpp) before any
// result is released (a fault in the engine's arithmetic, as in the Boneh–DeMillo–Lipton
// attack on CRT, or a corrupt key then yields an error, never a wrong signature).
#pragma once
#include <cstdint>
#include <span>

#include "engine/engine.hpp"
#include "rsa/key_impl.hpp"

namespace cryptaccel::rsa {

/// One private operation: `in` (size() bytes, must be < n) to `out` (size() bytes). `ok` false: the result failed
/// its check and `out` was zeroed.
struct PrivateItem {
  const PrivateKey* key = nullptr;
  const std::uint8_t* in = nullptr;
  std::uint8_t* out = nullptr;
  bool ok = false;
  /// The result is published as it is (a signature): a constant-time analysis may treat it as public once
  /// computed. False for a decryption, whose result stays secret through the padding check.
  bool publish = false;
};

/// One public operation: `in` (size() bytes, must be < n) to `out`.
struct PublicItem {
  const PublicKey* key = nullptr;
  const std::uint8_t* in = nullptr;
  std::uint8_t* out = nullptr;
};

/// True when the big-endian `x` of key size is less than the key's modulus.
bool less_than_modulus(const PublicKey::Impl& key, const std::uint8_t* x);

/// Runs every private item on `engine` through the dispatcher, over up to `threads` host threads (0: all cores).
void run_private(const engine::Engine& engine, std::span<PrivateItem> items, std::size_t threads);
/// Runs every public item on `engine` through the dispatcher, over up to `threads` host threads (0: all cores).
void run_public(const engine::Engine& engine, std::span<PublicItem> items, std::size_t threads);

}  // namespace cryptaccel::rsa

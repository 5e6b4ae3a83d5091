// A kernel's input in its I/O layout (rv/kernels/README.md, "I/O layouts") on fresh random data, and the output it
// must produce (the ref engine's).
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "cryptaccel/rvlab/manifest.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::rvlab {

/// What to feed a kernel (command-line options of `rv run`, or a row of an experiment).
struct WorkloadRequest {
  std::string mode = "ecb";              ///< aes-cipher: ecb, cbc, ctr
  bool mode_given = false;               ///< --mode was given (an error for kernels without modes)
  bool decrypt = false;                  ///< aes-cipher
  std::optional<std::uint64_t> bytes;    ///< --bytes: message length (hash) or data length (cipher, whole blocks)
  std::optional<std::uint64_t> blocks;   ///< --blocks: 16-byte blocks (cipher) or compression blocks (hash)
  std::optional<std::uint64_t> states;   ///< --states: Keccak states (keccak-states layout)
  std::optional<std::uint64_t> rounds;   ///< --rounds: Keccak-p rounds, 1..24 (keccak-states layout)
  std::optional<std::uint64_t> outlen;   ///< --outlen: output bytes of an XOF (xof layout)
};

/// Largest payload accepted: the kernels' RAM is 16 MiB (code, stack and the input buffer).
inline constexpr std::uint64_t kMaxPayloadBytes = std::uint64_t{8} << 20;

/// A prepared input.
struct KernelInput {
  bytes stdin_bytes;         ///< the kernel's standard input
  bytes expected;            ///< what it must write to stdout (ref engine)
  std::string description;   ///< "CBC decrypt, 512 blocks (8192 bytes)", "2048-byte message", "key expansion"
  std::uint64_t payload_bytes = 0;  ///< data bytes processed (cipher data, message); 0 for key expansions
  std::string fields_json;   ///< the same as a JSON object: {"mode", "direction", "blocks", "bytes"} as they apply
};

/// Builds the input of `kernel` for `request` from `rng` and computes the expected output. Sizes default to the
/// kernel's seed-000 workload (512 blocks, a 2 KiB message), else its riscv-crypto one (1 block); the Keccak
/// layouts (keccak-states, xof) to the sizes of any of their workloads (6 states, 24 rounds; 32 bytes out). Throws
/// std::invalid_argument for options that do not apply to the kernel's layout or sizes out of range.
KernelInput make_input(const KernelSpec& kernel, const WorkloadRequest& request, std::mt19937_64& rng);

}  // namespace cryptaccel::rvlab

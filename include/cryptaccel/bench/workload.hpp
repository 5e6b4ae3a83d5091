// The speed harness (cryptaccel::bench): what can be timed. A workload is one algorithm (a cipher encrypting, a hash,
// an RSA key's sign and verify, a SHA-crypt variant); a family of workloads is one entry in the table of
// src/bench/workload.cpp. The harness (bench/speed.hpp) only talks to this interface: it never looks at what kind of
// algorithm it is timing.
#pragma once
#include <cstddef>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/bench/timer.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::bench {

/// The implementation name that stands for OpenSSL's libcrypto (`--vs openssl`). Every other implementation name is
/// a cryptaccel engine name or "auto".
inline constexpr std::string_view kOpenSsl = "openssl";

/// Source of the random keys, IVs and inputs (not secret: only timed and compared).
using Rng = std::mt19937_64;

/// Fills `out` with random bytes, eight per draw of `rng` (the last draw's low bytes for a tail).
void fill_random(mutable_bytes out, Rng& rng);

/// `n` random bytes, as fill_random makes them.
bytes random_bytes(Rng& rng, std::size_t n);

/// What one cell times.
struct CellShape {
  std::size_t bytes = 0;     ///< size of each message
  std::size_t messages = 1;  ///< messages per run(): 1, or the --batch size (cryptaccel: one run_batch call)
  std::size_t threads = 0;   ///< BatchOptions::threads for cryptaccel engines (0: all cores); OpenSSL uses one
  std::string operation;     ///< one of Workload::operations() (RSA: "sign", "verify"); empty for the others
};

/// One algorithm that can be timed on cryptaccel engines and, for comparison, on OpenSSL.
class Workload {
 public:
  virtual ~Workload() = default;
  /// Canonical name, e.g. "aes-256-gcm"; used in the table and the JSON.
  virtual const std::string& name() const = 0;
  /// Empty when `impl` (an engine name, "auto" or kOpenSsl) can run this workload; otherwise a one-line reason
  /// (the row then shows n/a). Never throws for well-formed engine names.
  virtual std::string unsupported(std::string_view impl) const = 0;
  /// The implementation that actually runs for `impl`: "auto" resolved to an engine name, anything else unchanged.
  virtual std::string resolve(std::string_view impl) const = 0;
  /// Empty when messages of `bytes` bytes can be timed on `impl`; otherwise why not (the cell shows n/a).
  virtual std::string unsupported_size(std::string_view impl, std::size_t bytes) const = 0;
  /// Compares the output of `impl` with the `ref` engine on random inputs of several sizes, odd ones included, one
  /// at a time and together in one batch (with `threads`). Empty when everything agrees; otherwise a one-line
  /// description of the first difference.
  virtual std::string verify(std::string_view impl, std::size_t threads, Rng& rng) const = 0;
  /// Allocates and fills the buffers of one cell (random keys, IVs and inputs, one set per message).
  virtual std::unique_ptr<Cell> prepare(std::string_view impl, const CellShape& shape, Rng& rng) const = 0;
  /// Operations timed one by one, each as a row of one cell in operations per second (RSA: "sign", "verify"; the
  /// message size is the workload's own, --bytes does not apply). Empty (the default): byte-throughput rows, one
  /// cell per --bytes size.
  virtual std::vector<std::string> operations() const { return {}; }
  /// The size of one message of an operation workload (the cell's `bytes`); unused by the others.
  virtual std::size_t operation_bytes() const { return 0; }

 protected:
  /// The engine half of unsupported(): empty when resolve(impl) finds an engine, else the reason it throws
  /// (EngineUnavailable's message).
  std::string engine_unavailable(std::string_view impl) const;
};

/// A family of workloads: one entry per kind of algorithm.
struct WorkloadFamily {
  std::string_view name;                                     ///< "cipher", "hash", "shacrypt", "rsa"
  std::vector<std::string> (*names)();                       ///< every workload name the family offers
  std::unique_ptr<Workload> (*make)(std::string_view name);  ///< nullptr when `name` is not of this family
};

/// The table of families, in the order their names are listed.
std::span<const WorkloadFamily> workload_families();

/// The workload called `name` (any case, as CipherSpec::parse accepts for ciphers). Throws InvalidArgument
/// ("unknown algorithm '...' (supported: ...)") when no family knows it.
std::unique_ptr<Workload> make_workload(std::string_view name);

/// Every workload name of every family, for --help and error messages.
std::vector<std::string> all_workload_names();

/// What `cryptaccel speed` times without -a.
std::vector<std::string> default_workload_names();

}  // namespace cryptaccel::bench

// Internal engine interface and the registry: the one place where a backend is chosen (see registry.cpp).
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"

namespace cryptaccel::engine {

/// A backend. Each engine says what it supports; dispatch asks, never guesses.
class Engine {
 public:
  virtual ~Engine() = default;
  /// Short name used on the command line and in reports ("ref", "cpu", "cuda").
  virtual std::string_view name() const = 0;
  /// One-line description.
  virtual std::string_view description() const = 0;
  /// Empty when usable on this machine; otherwise the one-line reason it is not.
  virtual std::string unavailable_reason() const = 0;
  /// Whether this engine implements `spec` in direction `dir`.
  virtual bool supports(const CipherSpec& spec, Direction dir) const = 0;
  /// True for engines that compute on host CPU cores: dispatch then splits large jobs and calls run_cipher_jobs
  /// concurrently from several threads, on disjoint jobs. Engines with their own parallelism (GPU) return false.
  virtual bool runs_on_host_threads() const = 0;
  /// Runs every job whose status is `pending` (all were validated); sets each job's status.
  virtual void run_cipher_jobs(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                               const BatchOptions& options) const = 0;
};

/// The engines compiled into this build, most preferred first (the order `auto` tries them in).
std::span<const Engine* const> registered_engines();

/// The engine that serves (spec, dir) for `requested` ("auto" or a name); throws EngineUnavailable with the reason.
const Engine& select_engine(std::string_view requested, const CipherSpec& spec, Direction dir);

/// The `ref` engine (always present).
const Engine& ref_engine();

}  // namespace cryptaccel::engine

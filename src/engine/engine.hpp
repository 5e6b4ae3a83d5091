// Internal engine interface and the registry: the one place where a backend is chosen (see registry.cpp).
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include <cstddef>
#include <cstdint>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel::rsa {
class PrivateKey;
class PublicKey;
struct Modulus;
}  // namespace cryptaccel::rsa

namespace cryptaccel::engine {

/// One raw RSA private operation: out = in^d mod n, big-endian, key->size() bytes each, in < n. The caller
/// (src/rsa/private_op.cpp) blinds `in` before and unblinds and checks `out` after, for every engine alike.
struct RsaPrivateJob {
  const rsa::PrivateKey* key;
  const std::uint8_t* in;
  std::uint8_t* out;
};
/// One raw RSA public operation: out = in^e mod n, big-endian, key->size() bytes each, in < n.
struct RsaPublicJob {
  const rsa::PublicKey* key;
  const std::uint8_t* in;
  std::uint8_t* out;
};
/// One base of a raw modexp batch: out = base^exponent mod modulus, big-endian, the modulus' byte size each,
/// base < modulus.
struct ModexpJob {
  const std::uint8_t* base;
  std::uint8_t* out;
};

/// One key's GCM building blocks, with which dispatch splits one large GCM job over host threads
/// (src/engine/gcm_split.cpp). Every method is const and may run on several threads at once.
class GcmSplitKey {
 public:
  virtual ~GcmSplitKey() = default;
  /// out = E_K(in), one block.
  virtual void encrypt_block(const std::uint8_t in[16], std::uint8_t out[16]) const = 0;
  /// GCM's counter mode over `len` bytes: out = in ^ E(c), E(inc32(c)), E(inc32(inc32(c))), ... with c = `counter`
  /// (only its low 32 bits count up, wrapping mod 2^32); in == out allowed.
  virtual void ctr32(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
                     std::size_t len) const = 0;
  /// y <- GHASH_H(y, data) with H = E_K(0^128): absorbs `len` bytes, a final partial block zero-padded; y is 16
  /// bytes in GCM byte order.
  virtual void ghash(std::uint8_t y[16], const std::uint8_t* data, std::size_t len) const = 0;
  /// x <- x * y in GCM's GF(2^128), GCM byte order. The default is the portable constant-time multiply.
  virtual void gf_mul(std::uint8_t x[16], const std::uint8_t y[16]) const;
  /// One chunk of a GCM encryption: out = in ^ the counter mode from `counter` (as ctr32), and hash = GHASH_H(0, out)
  /// (the chunk's partial hash). The default runs ctr32, then ghash over the output; an engine with a faster fused
  /// GCM overrides it (the cpu engine: aes_gcm_vaes.cpp, or OpenSSL's stitched AES-GCM in openssl_aes.cpp). in == out
  /// allowed.
  virtual void encrypt_and_hash(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
                                std::size_t len, std::uint8_t hash[16]) const;
  /// One chunk of a GCM decryption: hash = GHASH_H(0, in) (the ciphertext, hashed before it may be overwritten), and
  /// out = in ^ the counter mode from `counter`. The default runs ghash, then ctr32; an engine with a fused kernel
  /// overrides it. in == out allowed.
  virtual void hash_and_decrypt(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
                                std::size_t len, std::uint8_t hash[16]) const;
};

/// One key's XTS kernel that can start at any block of a data unit, with which dispatch splits one large XTS data
/// unit over host threads (src/engine/xts_split.cpp). Const and safe to call from several threads at once.
class XtsSplitKey {
 public:
  virtual ~XtsSplitKey() = default;
  /// XTS over `len` bytes of a data unit whose tweak is `iv`, starting at its block `first_block` (in[0..16) is that
  /// block). When len % 16 != 0 the run ends the data unit, and its last full block and the partial block are
  /// processed together with ciphertext stealing (len >= 16 then). in == out allowed.
  virtual void crypt(Direction dir, const std::uint8_t iv[16], std::uint64_t first_block, const std::uint8_t* in,
                     std::uint8_t* out, std::size_t len) const = 0;
};

/// What a request asks of an engine, for `auto` to weigh against an engine's fixed cost per call.
enum class WorkKind { cipher, hash, keccak, rsa_private, rsa_public, shacrypt };

/// The size of one request (a batch). The default, `unknown()`, counts as large: callers that know the size pass it
/// so that `auto` keeps small requests off engines that pay a fixed cost per call (the GPU's launches, transfers and
/// synchronisation: tens of microseconds to milliseconds, see Engine::worth_auto).
struct Work {
  WorkKind kind = WorkKind::cipher;
  std::size_t items = 0;  ///< jobs, messages, Keccak states, RSA operations (of the largest modulus) or SHA-crypt
                          ///< candidates
  std::size_t bytes = 0;  ///< input bytes (ciphers, hashes); SHA-crypt: rounds summed over the candidates
  bool known = false;     ///< false: size unknown, treated as large
  static Work unknown() { return {}; }
  static Work of(WorkKind kind, std::size_t items, std::size_t bytes = 0) { return {kind, items, bytes, true}; }
};

/// A host buffer an engine has prepared for its copies (see Engine::pin_host_buffer); destroying it undoes that.
class HostBufferPin {
 public:
  virtual ~HostBufferPin() = default;
};

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
  /// Whether `auto` should pick this engine for a request of this size that it supports. Engines that compute on
  /// host cores say yes to any size; an engine with a fixed cost per call (a GPU) says no below its break-even size,
  /// so that `auto` is the fastest engine for the request, as ARCHITECTURE.md promises. A named engine is used
  /// whatever this says.
  virtual bool worth_auto(const Work& work) const {
    (void)work;
    return true;
  }
  /// True for engines that compute on host CPU cores: dispatch then splits large jobs and calls run_cipher_jobs
  /// concurrently from several threads, on disjoint jobs. Engines with their own parallelism (GPU) return false.
  virtual bool runs_on_host_threads() const = 0;
  /// True for the portable reference engine (`ref`): code that runs around its operations (RSA's blinding and result
  /// check, src/rsa/private_op.cpp) then uses portable arithmetic too, so that a reference run contains no
  /// CPU-specific kernel anywhere. False (the default) lets that code use the host's fastest kernels.
  virtual bool portable_reference() const { return false; }
  /// Prepares [p, p + n), a buffer its caller will hand to this engine again and again (the streaming pipeline's
  /// batch buffers), for faster copies: a GPU engine page-locks it, so that jobs in it move to and from the device
  /// without a staging copy. The buffer must outlive the returned pin. nullptr (the default) when there is nothing
  /// to do or it could not be done; jobs run either way.
  virtual std::unique_ptr<HostBufferPin> pin_host_buffer(void* p, std::size_t n) const {
    (void)p, (void)n;
    return nullptr;
  }
  /// Runs every job whose status is `pending` (all were validated); sets each job's status.
  virtual void run_cipher_jobs(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                               const BatchOptions& options) const = 0;
  /// GCM building blocks for `key` under `cipher`, so that dispatch can split one large GCM job over host threads;
  /// nullptr (the default) when this engine does not offer them. Only asked of runs_on_host_threads() engines.
  virtual std::unique_ptr<GcmSplitKey> gcm_split_key(BlockCipher cipher, bytes_view key) const {
    (void)cipher, (void)key;
    return nullptr;
  }

  /// XTS kernel for `key` (both halves) under `cipher`, so that dispatch can split one large XTS data unit over host
  /// threads; nullptr (the default) when this engine does not offer one. Only asked of runs_on_host_threads() engines.
  virtual std::unique_ptr<XtsSplitKey> xts_split_key(BlockCipher cipher, bytes_view key) const {
    (void)cipher, (void)key;
    return nullptr;
  }

  // --- hashes ---
  /// A streaming block function: absorbs `n` whole blocks into `state` (layout of src/algo/hash_message.hpp).
  using HashBlocksFn = void (*)(HashAlgorithm, std::uint64_t state[25], const std::uint8_t* blocks, std::size_t n);
  /// Whether hash_batch can run `algorithm` here.
  virtual bool supports_hash(HashAlgorithm algorithm) const = 0;
  /// The block function Hasher uses for `algorithm` on this engine, or nullptr when it does not stream
  /// (an engine that only runs batches, such as a GPU).
  virtual HashBlocksFn hash_blocks_function(HashAlgorithm algorithm) const = 0;
  /// Hashes every pending job (each validated: digest size fits the algorithm); sets each job's status.
  virtual void run_hash_jobs(HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions& options) const = 0;
  /// Whether keccak_f1600_batch runs here.
  virtual bool supports_keccak_batch() const = 0;
  /// Applies Keccak-f[1600] to every state.
  virtual void run_keccak_permutations(std::span<KeccakState> states) const = 0;

  // --- RSA: raw integer operations only; padding, blinding and the result check live in src/rsa for every engine ---
  /// Whether this engine runs RSA with a modulus of `bits` bits (1024..8192) and raw modexp up to that size.
  virtual bool supports_rsa(std::size_t bits) const {
    (void)bits;
    return false;
  }
  /// Runs every raw private operation (constant time in the key). Throws on an engine failure.
  virtual void run_rsa_private(std::span<const RsaPrivateJob> jobs) const {
    (void)jobs;
    throw EngineUnavailable("engine '" + std::string(name()) + "' does not run RSA");
  }
  /// Runs every raw public operation.
  virtual void run_rsa_public(std::span<const RsaPublicJob> jobs) const {
    (void)jobs;
    throw EngineUnavailable("engine '" + std::string(name()) + "' does not run RSA");
  }
  /// base^exponent mod `modulus` for every job (the exponent, big-endian, is secret: constant time in it).
  virtual void run_modexp(const rsa::Modulus& modulus, bytes_view exponent, std::span<const ModexpJob> jobs) const {
    (void)modulus, (void)exponent, (void)jobs;
    throw EngineUnavailable("engine '" + std::string(name()) + "' does not run RSA");
  }

  // --- SHA-crypt (password hashing) ---
  /// Whether shacrypt_batch can run `variant` here.
  virtual bool supports_shacrypt(ShaCryptVariant variant) const {
    (void)variant;
    return false;
  }
  /// Hashes every pending job (each validated: setting well-formed, digest size the variant's, variant supported);
  /// sets each job's status. For runs_on_host_threads() engines dispatch (run_shacrypt_jobs in dispatch.hpp) calls it
  /// from several threads at once, on disjoint runs of jobs.
  virtual void run_shacrypt_jobs(std::span<ShaCryptJob> jobs, const BatchOptions& options) const {
    (void)jobs, (void)options;
  }
};

/// The engines compiled into this build, most preferred first (the order `auto` tries them in). Defined above the
/// backends, in src/api/backends.cpp: this layer (the interface, selection, dispatch) includes none of them.
std::span<const Engine* const> registered_engines();

/// The engine that serves (spec, dir) for `requested` ("auto" or a name; `auto` weighs `work`, see
/// Engine::worth_auto); throws EngineUnavailable with the reason.
const Engine& select_engine(std::string_view requested, const CipherSpec& spec, Direction dir,
                            const Work& work = Work::unknown());

/// What a hash request needs from an engine.
enum class HashUse { batch, streaming };

/// The engine that serves hashing `algorithm` (in batches, or streaming through Hasher) for `requested`.
const Engine& select_hash_engine(std::string_view requested, HashAlgorithm algorithm, HashUse use,
                                 const Work& work = Work::unknown());

/// The engine that serves shacrypt_batch for `requested`: one that runs every variant asked for.
const Engine& select_shacrypt_engine(std::string_view requested, bool sha256crypt, bool sha512crypt,
                                     const Work& work = Work::unknown());

/// The engine that serves keccak_f1600_batch for `requested`.
const Engine& select_keccak_engine(std::string_view requested, const Work& work = Work::unknown());

/// The engine that serves RSA (and raw modexp) with a `bits`-bit modulus for `requested`.
const Engine& select_rsa_engine(std::string_view requested, std::size_t bits, const Work& work = Work::unknown());

}  // namespace cryptaccel::engine

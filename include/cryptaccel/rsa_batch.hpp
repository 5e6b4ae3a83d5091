// cryptaccel — mixed RSA batches: many operations, each with its own operation, key and settings (padding, digest,
// PSS salt word, OAEP label), run as few library batch calls as the settings allow. What `cryptaccel pkeyutl --batch`
// runs for a manifest; any caller with heterogeneous work (a server signing for many keys) can use it the same way.
#pragma once
#include <cstddef>
#include <span>
#include <string>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/rsa.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::rsa {

/// The operations a mixed batch may hold.
enum class Operation { sign, verify, verify_recover, encrypt, decrypt };

/// One operation of a mixed batch. The caller owns every buffer and key; they must outlive run_mixed_batch.
struct MixedJob {
  Operation op = Operation::sign;
  const PrivateKey* private_key = nullptr;  ///< sign, decrypt
  const PublicKey* public_key = nullptr;    ///< verify, verify_recover, encrypt
  SignOptions sign;                         ///< sign, verify (its `engine` is ignored: BatchOptions::engine runs)
  EncryptOptions encrypt;                   ///< encrypt, decrypt (likewise; its label is viewed, not copied)
  RecoverOptions recover;                   ///< verify_recover
  /// The message (sign, verify; the digest when sign.prehashed), the plaintext (encrypt), the ciphertext (decrypt)
  /// or the signature (verify_recover).
  bytes_view input;
  bytes_view signature;                     ///< verify
  mutable_bytes output;                     ///< sign, verify_recover, encrypt, decrypt: the key's size in bytes

  // --- results ---
  std::size_t output_len = 0;               ///< bytes of `output` written (sign, verify_recover, encrypt, decrypt)
  bool verified = false;                    ///< verify: the signature is valid (status is ok even when it is not)
  /// ok; bad_decrypt for an invalid ciphertext (decrypt, with InvalidCiphertext's one message); invalid_argument for
  /// anything else, `error` saying what.
  JobStatus status = JobStatus::pending;
  std::string error;                        ///< one line when status is not ok
  /// The engine that ran the job: the batch's for sign, verify and decrypt; BatchOptions::engine as given (e.g.
  /// "auto") for encrypt and verify_recover, which run one at a time (their public operation is cheap). Empty when
  /// the job's whole group failed before running (an unavailable engine).
  std::string engine;
};

/// What run_mixed_batch did.
struct MixedBatchReport {
  std::size_t groups = 0;     ///< groups of jobs with the same operation and settings (one batch call each)
  std::size_t succeeded = 0;  ///< jobs with status ok
  std::size_t failed = 0;     ///< jobs with any other status
};

/// Runs every job and reports each in its own fields; `jobs` keep their order. Jobs with the same operation and
/// settings (whatever their keys and key sizes: a PSS salt word such as "max" is resolved per key) form a group, run
/// as one sign_batch / verify_batch / decrypt_batch call on `batch.engine` with `batch.threads`; encrypt and
/// verify_recover jobs run one at a time. Groups run in the order of their first job. A job's own problem (no key,
/// a buffer of the wrong size, a message too long) fails that job only; a failure of a whole call (an engine that
/// cannot run) fails every job of its group with that message. Never throws for a job's problem.
MixedBatchReport run_mixed_batch(std::span<MixedJob> jobs, const BatchOptions& batch = {});

}  // namespace cryptaccel::rsa

// cryptaccel — batch API: many independent (key, iv, input, output) cipher jobs in one call. This is the shape in
// which accelerators are fast: an engine may spread jobs over cores or GPU threads, and split one large job where
// the mode allows (ECB, CTR, XTS at data-unit boundaries or, on the cpu engine, inside one large data unit from any
// block's tweak, CBC decryption, GCM's CTR and GHASH).
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// Outcome of one job.
enum class JobStatus {
  pending,           ///< not run yet
  ok,                ///< done; `out_len` bytes of `out` are valid
  auth_failed,       ///< GCM tag mismatch; `out` holds no plaintext (engines that decrypt while hashing, such as
                     ///< `cpu` or any GCM job split over threads, zero `out`; for an in-place job that clears the
                     ///< ciphertext too)
  bad_decrypt,       ///< bad padding or ciphertext length; `out` holds no plaintext (a job that was split over
                     ///< threads had its `out` zeroed, which for an in-place job also clears the ciphertext)
  invalid_argument,  ///< bad key, IV, tag or buffer size; `out` was not written
};

/// One independent encryption or decryption.
struct CipherJob {
  bytes_view key;
  bytes_view iv;          ///< as CipherParams::iv
  bytes_view in;
  mutable_bytes out;      ///< capacity: in.size() (+16 when encrypting with padding); may alias `in` exactly
  bytes_view aad;         ///< GCM only
  mutable_bytes tag;      ///< GCM: encrypt writes tag.size() (4..16) bytes here; decrypt reads the expected tag here
  std::size_t out_len = 0;        ///< bytes written to `out`
  JobStatus status = JobStatus::pending;
  std::string error;              ///< one-line reason when status is not ok
};

/// Options for run_batch.
struct BatchOptions {
  std::string_view engine = "auto";  ///< "auto" or an engine name
  std::size_t xts_unit = 0;          ///< XTS data-unit size (0: each job is one data unit)
  /// Host threads for engines that run on CPU cores (0: all cores). Large jobs are split into pieces that run in
  /// parallel where the mode allows (ECB, CTR, XTS: data units, and one data unit of 256 KiB or more on the cpu
  /// engine, CBC decryption, GCM); the result is byte-identical.
  std::size_t threads = 0;
};

/// What a batch did.
struct BatchReport {
  std::string engine;           ///< the engine that ran the batch
  std::size_t succeeded = 0;    ///< jobs with status ok
  std::size_t failed = 0;       ///< jobs with any other status
};

/// Runs every job with `spec` in direction `dir`. Per-job failures are reported in each job's status (one bad tag does
/// not stop the others); an unusable engine choice throws EngineUnavailable before any job runs.
BatchReport run_batch(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs, const BatchOptions& options = {});

}  // namespace cryptaccel

// One place that turns a failed job's status into the typed exception the one-shot and streaming APIs throw.
#pragma once
#include <string>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel {

/// Throws the exception for `job`'s status (nothing when it is ok).
inline void throw_on_failure(const CipherJob& job) {
  switch (job.status) {
    case JobStatus::ok: return;
    case JobStatus::auth_failed: throw AuthenticationFailed();
    case JobStatus::bad_decrypt: throw BadDecrypt(job.error);
    case JobStatus::invalid_argument: throw InvalidArgument(job.error);
    case JobStatus::pending: throw Error("internal error: job was not run");
  }
}

}  // namespace cryptaccel

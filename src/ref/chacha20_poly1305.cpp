#include "ref/chacha20_poly1305.hpp"

#include "algo/poly1305.hpp"

namespace cryptaccel::ref {

void chacha20_poly1305(Direction dir, CipherJob& job) {
  const std::size_t len = job.in.size();
  if (dir == Direction::encrypt) {
    algo::chacha20_poly1305_seal(job.key.data(), job.iv.data(), job.aad.data(), job.aad.size(), job.in.data(),
                                 job.out.data(), len, job.tag.data());
  } else if (!algo::chacha20_poly1305_open(job.key.data(), job.iv.data(), job.aad.data(), job.aad.size(),
                                           job.in.data(), job.out.data(), len, job.tag.data())) {
    job.status = JobStatus::auth_failed;
    job.error = "authentication failed: tag mismatch";
    return;
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

}  // namespace cryptaccel::ref

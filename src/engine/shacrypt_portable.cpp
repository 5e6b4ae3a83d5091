// SHA-crypt one candidate at a time (see the header).
#include "engine/shacrypt_portable.hpp"

#include "algo/shacrypt.hpp"

namespace cryptaccel::engine {

void run_shacrypt_portable(std::span<ShaCryptJob> jobs, std::optional<ShaCryptVariant> only) {
  for (ShaCryptJob& job : jobs) {
    if (job.status != JobStatus::pending || (only && job.setting->variant != *only)) continue;
    const ShaCryptSetting& s = *job.setting;
    algo::shacrypt_digest(s.variant == ShaCryptVariant::sha512 ? algo::HashVariant::sha512 : algo::HashVariant::sha256,
                          job.password.data(), job.password.size(),
                          reinterpret_cast<const std::uint8_t*>(s.salt.data()), s.salt.size(), s.rounds,
                          job.digest.data());
    job.status = JobStatus::ok;
  }
}

}  // namespace cryptaccel::engine

#include "cuda/shacrypt/shacrypt_plan.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace cryptaccel::cuda {

std::vector<std::pair<std::uint32_t, std::uint32_t>> shacrypt_round_chunks(std::uint32_t rounds,
                                                                           std::uint32_t per_launch) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  if (per_launch == 0) per_launch = 1;
  for (std::uint32_t begin = 0; begin < rounds;) {
    const std::uint32_t end = rounds - begin > per_launch ? begin + per_launch : rounds;
    out.emplace_back(begin, end);
    begin = end;
  }
  return out;
}

std::vector<ShaCryptPack> shacrypt_pack(std::span<ShaCryptJob> jobs, std::uint64_t max_template_bytes) {
  std::map<std::pair<int, std::uint32_t>, std::vector<ShaCryptJob*>> groups;
  for (ShaCryptJob& job : jobs)
    if (job.status == JobStatus::pending)
      groups[{static_cast<int>(job.setting->variant), job.setting->rounds}].push_back(&job);
  std::vector<ShaCryptPack> packs;
  for (auto& [key, members] : groups) {
    ShaCryptPack* pack = nullptr;
    for (ShaCryptJob* job : members) {
      const ShaCryptSetting& s = *job->setting;
      const algo::HashVariant v = s.variant == ShaCryptVariant::sha512 ? algo::HashVariant::sha512 : algo::HashVariant::sha256;
      const std::uint64_t t = shacrypt_template_bytes(v, job->password.size(), s.salt.size());
      if (!pack || (!pack->jobs.empty() && pack->template_bytes + t > max_template_bytes)) {
        packs.emplace_back();
        pack = &packs.back();
        pack->variant = s.variant;
        pack->rounds = s.rounds;
        pack->pw_offset.push_back(0);
      }
      // Passwords back to back (pw_offset is their running sum); the salts follow all of them (below).
      pack->jobs.push_back(job);
      pack->input.insert(pack->input.end(), job->password.begin(), job->password.end());
      pack->pw_offset.push_back(pack->input.size());
      pack->salt_len.push_back(static_cast<std::uint8_t>(s.salt.size()));
      pack->tmpl_offset.push_back(pack->template_bytes);
      pack->template_bytes += t;
    }
  }
  // Salts after all passwords (pw_offset must stay a running sum of password lengths).
  for (ShaCryptPack& pack : packs) {
    for (std::size_t i = 0; i < pack.jobs.size(); ++i) {
      const std::string& salt = pack.jobs[i]->setting->salt;
      pack.salt_offset.push_back(pack.input.size());
      pack.input.insert(pack.input.end(), salt.begin(), salt.end());
    }
  }
  return packs;
}

void shacrypt_emulate(const ShaCryptPack& pack, std::uint32_t per_launch) {
  std::vector<std::uint8_t> templates(pack.template_bytes);
  std::vector<std::uint8_t> digests(pack.jobs.size() * pack.digest_size());
  ShaCryptArgs a{};
  a.variant = static_cast<std::uint8_t>(pack.variant == ShaCryptVariant::sha512 ? algo::HashVariant::sha512
                                                                                : algo::HashVariant::sha256);
  a.rounds = pack.rounds;
  a.count = pack.jobs.size();
  a.input = pack.input.data();
  a.pw_offset = pack.pw_offset.data();
  a.salt_offset = pack.salt_offset.data();
  a.salt_len = pack.salt_len.data();
  a.templates = templates.data();
  a.tmpl_offset = pack.tmpl_offset.data();
  a.digests = digests.data();
  const auto run = [&]<algo::HashVariant V>() {
    for (std::uint64_t i = 0; i < a.count; ++i) shacrypt_op_init<V>(a, i);
    for (const auto& [begin, end] : shacrypt_round_chunks(pack.rounds, per_launch))
      for (std::uint64_t i = 0; i < a.count; ++i) shacrypt_op_rounds<V>(a, i, begin, end);
    for (std::uint64_t i = 0; i < a.count; ++i) shacrypt_op_finish<V>(a, i);
  };
  if (pack.variant == ShaCryptVariant::sha512) run.template operator()<algo::HashVariant::sha512>();
  else run.template operator()<algo::HashVariant::sha256>();
  for (std::size_t i = 0; i < pack.jobs.size(); ++i) {
    std::memcpy(pack.jobs[i]->digest.data(), digests.data() + i * pack.digest_size(), pack.digest_size());
    pack.jobs[i]->status = JobStatus::ok;
  }
  secure_wipe(digests.data(), digests.size());
}

}  // namespace cryptaccel::cuda

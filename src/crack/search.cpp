// The search of the cracking library (see search.hpp).
#include "crack/search.hpp"

#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <tuple>

#include "cryptaccel/batch.hpp"

namespace cryptaccel::crack {
namespace {

bytes_view as_bytes(std::string_view s) {
  return bytes_view(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

}  // namespace

Search::Search(const std::vector<Target>& targets, const std::vector<bool>& cracked, std::string engine,
               std::size_t threads)
    : engine_(std::move(engine)), threads_(threads) {
  // Group by setting: (crypt, variant, rounds, salt) or (raw, algorithm).
  std::map<std::tuple<bool, int, std::uint32_t, std::string>, std::size_t> index;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (cracked[i]) continue;
    const Target& t = targets[i];
    const bool crypt = is_crypt(t.mode);
    const auto key = crypt ? std::make_tuple(true, static_cast<int>(t.setting.variant), t.setting.rounds, t.setting.salt)
                           : std::make_tuple(false, static_cast<int>(raw_algorithm(t.mode)), 0u, std::string());
    auto [it, fresh] = index.try_emplace(key, groups_.size());
    if (fresh) {
      Group g;
      g.crypt = crypt;
      if (crypt) g.setting = t.setting; else g.algorithm = raw_algorithm(t.mode);
      g.digest_size = t.digest.size();
      groups_.push_back(std::move(g));
    }
    Group& g = groups_[it->second];
    g.pending[std::string(t.digest.begin(), t.digest.end())].push_back(i);
  }
  active_ = groups_.size();

  // Check the engine now, once per SHA-crypt variant and raw algorithm (an empty hash batch still chooses an engine
  // and throws when it cannot serve; SHA-crypt gets one real job so that the variant is part of the choice).
  BatchOptions options;
  options.engine = engine_;
  options.threads = threads_;
  std::set<std::pair<bool, int>> probed;
  for (const Group& g : groups_) {
    const int kind = g.crypt ? static_cast<int>(g.setting.variant) : static_cast<int>(g.algorithm);
    if (!probed.insert({g.crypt, kind}).second) continue;
    if (g.crypt) {
      std::uint8_t digest[64];
      ShaCryptJob probe{bytes_view(), &g.setting, mutable_bytes(digest, g.digest_size)};
      engine_used_ = shacrypt_batch(std::span<ShaCryptJob>(&probe, 1), options).engine;
    } else {
      engine_used_ = hash_batch(g.algorithm, std::span<HashJob>(), options).engine;
    }
  }
}

void Search::check_hits(Group& group, const std::uint8_t* digests, const CandidateBatch& batch,
                        std::vector<Find>& finds) {
  std::string key(group.digest_size, '\0');
  for (std::size_t c = 0; c < batch.size() && !group.pending.empty(); ++c) {
    key.assign(reinterpret_cast<const char*>(digests + c * group.digest_size), group.digest_size);
    const auto it = group.pending.find(key);
    if (it == group.pending.end()) continue;
    for (std::size_t target : it->second) finds.push_back({target, std::string(batch.at(c)), batch.positions[c]});
    group.pending.erase(it);
  }
  if (group.pending.empty()) --active_;
}

std::vector<Find> Search::run(const CandidateBatch& batch) {
  std::vector<Find> finds;
  const std::size_t n = batch.size();
  if (n == 0 || active_ == 0) return finds;
  BatchOptions options;
  options.engine = engine_;
  options.threads = threads_;

  // Every crypt group in one shacrypt_batch call (engines sort jobs by setting themselves).
  std::vector<Group*> crypt_groups;
  for (Group& g : groups_)
    if (g.crypt && !g.pending.empty()) crypt_groups.push_back(&g);
  if (!crypt_groups.empty()) {
    std::size_t bytes_needed = 0;
    for (const Group* g : crypt_groups) bytes_needed += n * g->digest_size;
    digests_.resize(bytes_needed);
    crypt_jobs_.clear();
    std::size_t at = 0;
    for (const Group* g : crypt_groups) {
      for (std::size_t c = 0; c < n; ++c) {
        ShaCryptJob job;
        job.password = as_bytes(batch.at(c));
        job.setting = &g->setting;
        job.digest = mutable_bytes(digests_.data() + at, g->digest_size);
        at += g->digest_size;
        crypt_jobs_.push_back(std::move(job));
      }
    }
    engine_used_ = shacrypt_batch(crypt_jobs_, options).engine;
    for (const ShaCryptJob& job : crypt_jobs_)
      if (job.status != JobStatus::ok) throw std::runtime_error("sha-crypt hashing failed: " + job.error);
    hashes_done_ += crypt_jobs_.size();
    at = 0;
    for (Group* g : crypt_groups) {
      check_hits(*g, digests_.data() + at, batch, finds);
      at += n * g->digest_size;
    }
  }

  for (Group& g : groups_) {
    if (g.crypt || g.pending.empty()) continue;
    digests_.resize(n * g.digest_size);
    hash_jobs_.clear();
    for (std::size_t c = 0; c < n; ++c) {
      HashJob job;
      job.in = as_bytes(batch.at(c));
      job.digest = mutable_bytes(digests_.data() + c * g.digest_size, g.digest_size);
      hash_jobs_.push_back(std::move(job));
    }
    engine_used_ = hash_batch(g.algorithm, hash_jobs_, options).engine;
    for (const HashJob& job : hash_jobs_)
      if (job.status != JobStatus::ok) throw std::runtime_error("hashing failed: " + job.error);
    hashes_done_ += n;
    check_hits(g, digests_.data(), batch, finds);
  }
  return finds;
}

}  // namespace cryptaccel::crack

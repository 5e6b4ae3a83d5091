// Cracking: the search. Targets are grouped by what a candidate must be hashed with — a SHA-crypt setting
// (variant, rounds, salt) or a raw hash algorithm — and each candidate is hashed once per group that still has
// uncracked targets; the digests are looked up in the group's hash set (so a thousand users sharing a salt, or a
// million raw SHA-256 digests, cost one hash per candidate).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "crack/candidates.hpp"
#include "cryptaccel/crack/attack.hpp"
#include "cryptaccel/crack/targets.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel::crack {

/// Hashes candidate batches against the uncracked targets.
class Search {
 public:
  /// `targets`: every target; `cracked[i]`: target i is already known (potfile) and is not searched for.
  /// `engine`, `threads`: as BatchOptions. Throws EngineUnavailable when the engine cannot hash what the targets
  /// need (checked here, before any work).
  Search(const std::vector<Target>& targets, const std::vector<bool>& cracked, std::string engine,
         std::size_t threads);

  /// Hashes every candidate of `batch` for every group with uncracked targets; returns the targets found (in
  /// target order within a group; each target once). Found targets are no longer searched for.
  std::vector<Find> run(const CandidateBatch& batch);

  /// Groups (distinct settings / algorithms) with uncracked targets: hashes per candidate.
  std::size_t active_groups() const { return active_; }
  /// Distinct groups at the start.
  std::size_t total_groups() const { return groups_.size(); }
  /// Groups whose every target was cracked (hashcat's "recovered salts").
  std::size_t done_groups() const { return groups_.size() - active_; }
  /// The engine that runs the hashes ("ref", "cpu", ...).
  const std::string& engine_used() const { return engine_used_; }
  /// Hashes computed so far (candidates × groups).
  std::uint64_t hashes_done() const { return hashes_done_; }

 private:
  struct Group {
    bool crypt = false;
    ShaCryptSetting setting;                 ///< crypt groups
    HashAlgorithm algorithm = HashAlgorithm::sha256;  ///< raw groups
    std::size_t digest_size = 0;
    std::unordered_map<std::string, std::vector<std::size_t>> pending;  ///< digest bytes -> target indices
  };

  void check_hits(Group& group, const std::uint8_t* digests, const CandidateBatch& batch, std::vector<Find>& finds);

  std::vector<Group> groups_;
  std::size_t active_ = 0;
  std::string engine_;
  std::size_t threads_ = 0;
  std::string engine_used_;
  std::uint64_t hashes_done_ = 0;
  std::vector<ShaCryptJob> crypt_jobs_;
  std::vector<HashJob> hash_jobs_;
  std::vector<std::uint8_t> digests_;
};

}  // namespace cryptaccel::crack

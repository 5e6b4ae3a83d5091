// Dictionary attack: candidates (words x hashcat rules) hashed on an engine against the uncracked targets, in
// batches, with finds and progress reported to the caller after every batch and a stop token checked between them.
// `cryptaccel crack` and Python's cryptaccel.crack run it; the attack itself prints nothing and writes no file.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/crack/rules.hpp"
#include "cryptaccel/crack/targets.hpp"

namespace cryptaccel::crack {

/// A target cracked: its index in the attack's targets and the candidate that hashed to it.
struct Find {
  std::size_t target = 0;
  std::string plain;
  std::uint64_t position = 0;  ///< the candidate's place in the keyspace: word index x rules + rule index
};

/// One worker of an attack on a cluster (Python's crack.run(cluster=...), `cryptaccel crack --ray`).
struct WorkerStatus {
  std::string node;          ///< the host it runs on
  std::int64_t pid = 0;      ///< its process there
  std::string engine;        ///< the engine its last work unit ran on
  double speed = 0;          ///< hashes per second over its last work unit
  std::uint64_t units = 0;   ///< work units it finished
  bool lost = false;         ///< it died more often than it could be restarted: its units went to the others
};

/// The state of an attack at one moment.
struct StatusSnapshot {
  std::string state = "running";   ///< "running", then "cracked", "exhausted" or "aborted" (hashcat's words)
  std::uint64_t progress = 0;      ///< candidates (word x rule) tried
  std::optional<std::uint64_t> total;  ///< candidates in all (words x rules, within the slice); unknown on stdin
  double speed = 0;                ///< hashes per second (candidates x settings still searched)
  double elapsed = 0;              ///< seconds since the search started
  std::optional<double> eta;       ///< seconds left at the current candidate rate (unknown before the first batch)
  std::uint64_t recovered = 0;     ///< targets cracked, those known before the attack included
  std::uint64_t targets = 0;       ///< targets in all
  std::uint64_t recovered_settings = 0;  ///< settings (salts / raw algorithms) whose every target is cracked
  std::uint64_t settings = 0;      ///< distinct settings searched
  std::string engine;
  double time_start = 0;           ///< Unix time the search started
  std::vector<WorkerStatus> workers;  ///< an attack on a cluster: its workers (empty for one on this machine)
};

/// What an attack searches and where.
struct AttackOptions {
  std::string wordlist;      ///< a file, or "" / "-" for stdin
  std::vector<Rule> rules;   ///< applied to every word in turn; empty: each word as it is
  std::string engine = "auto";
  std::size_t threads = 0;   ///< as BatchOptions::threads
  std::size_t batch = 0;     ///< candidates per batch; 0: adaptive (each batch about 0.25-1 s on the engine)
  /// The keyspace slice, in words of the wordlist as hashcat's -s/-l count them: words [skip, skip + limit), each
  /// with every rule. Slices that cover a wordlist find what one run over it finds.
  std::uint64_t skip = 0;
  std::optional<std::uint64_t> limit;
};

/// How an attack ended.
enum class AttackEnd {
  cracked,    ///< every target is cracked
  exhausted,  ///< every candidate of the slice was tried
  stopped,    ///< the stop token was triggered (checked between batches: the finds so far are reported)
};

/// One dictionary attack over `targets`. Not copyable; one run per object.
class Attack {
 public:
  /// `targets` and `cracked` (cracked[i]: target i is known already and not searched for; set as targets are
  /// found) must outlive the attack. Opens the wordlist, chooses the engine and self-tests it on every hash mode of
  /// the targets now: throws std::runtime_error ("FILE: reason") for a wordlist that cannot be read,
  /// EngineUnavailable for an engine that cannot hash the targets, and Error when a self-test fails.
  Attack(const std::vector<Target>& targets, std::vector<bool>& cracked, AttackOptions options);
  ~Attack();
  Attack(const Attack&) = delete;
  Attack& operator=(const Attack&) = delete;

  /// Called with each new find, in the order found (several targets with one hash: each is reported).
  using FindHandler = std::function<void(const Find&)>;
  /// Called after every batch with the state then.
  using ProgressHandler = std::function<void(const StatusSnapshot&)>;

  /// Searches until every target is cracked, the slice is exhausted or `stop` is triggered. Exceptions from the
  /// handlers and the engine propagate (the finds reported before stay reported).
  AttackEnd run(std::stop_token stop, const FindHandler& on_find, const ProgressHandler& on_progress = {});

  /// The state now (after run: its end state, with no ETA).
  StatusSnapshot status() const;
  /// The engine that runs the hashes ("cpu", "cuda", ...).
  const std::string& engine_used() const;
  /// Distinct settings (SHA-crypt salts and rounds, raw hash algorithms) among the targets.
  std::size_t total_settings() const;
  /// Words in the slice (nothing: the wordlist is stdin) and candidates per word.
  std::optional<std::uint64_t> words() const;
  std::size_t rules_per_word() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Hashes a known (plain, hash) pair of `mode` on `engine` through the attack's search, as hashcat's modules self-test
/// each device: "" when the engine finds it, else why not. Attack runs it for every mode among its targets first.
std::string self_test(HashMode mode, const std::string& engine = "auto", std::size_t threads = 1);

/// The candidates of `options`' slice in keyspace order, as `hashcat --stdout` lists them (a word a rule cannot
/// mangle is left out): `sink` gets them in batches, each candidate followed by '\n'. Throws as Attack for the
/// wordlist.
void list_candidates(const AttackOptions& options, const std::function<void(std::string_view)>& sink);

}  // namespace cryptaccel::crack

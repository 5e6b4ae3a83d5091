// The dictionary attack's loop (include/cryptaccel/crack/attack.hpp): candidate batches sized to the engine's speed,
// hashed by Search, finds and progress handed to the caller.
#include "cryptaccel/crack/attack.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>
#include <stdexcept>

#include "crack/candidates.hpp"
#include "crack/search.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/crack/wordlist.hpp"

namespace cryptaccel::crack {
namespace {

using Clock = std::chrono::steady_clock;

/// Largest hashes per batch for an engine (GPU engines want big launches; CPU engines answer a stop sooner with
/// smaller ones).
std::size_t max_jobs_for(const std::string& engine) {
  return engine.starts_with("cuda") ? std::size_t{1} << 22 : std::size_t{1} << 18;
}

/// Words in the slice [skip, skip + limit) of a wordlist of `lines` words.
std::optional<std::uint64_t> slice_words(std::optional<std::uint64_t> lines, std::uint64_t skip,
                                         std::optional<std::uint64_t> limit) {
  if (!lines) return std::nullopt;
  const std::uint64_t after_skip = *lines - std::min(*lines, skip);
  return limit ? std::min(after_skip, *limit) : after_skip;
}

}  // namespace

struct Attack::Impl {
  Impl(const std::vector<Target>& t, std::vector<bool>& c, AttackOptions o)
      : targets(t),
        cracked(c),
        options(std::move(o)),
        per_word(options.rules.empty() ? 1 : options.rules.size()),
        words(slice_words(count_wordlist_lines(options.wordlist), options.skip, options.limit)),
        source(options.wordlist, options.rules, options.skip, options.limit),
        search(targets, cracked, options.engine, options.threads) {
    // hashcat's self-test: each mode searched, on the engine chosen, must find its known pair first.
    std::set<HashMode> tested;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      if (cracked[i] || !tested.insert(targets[i].mode).second) continue;
      if (std::string why = self_test(targets[i].mode, options.engine, options.threads); !why.empty())
        throw Error("self-test failed: " + why + " (the engine computes wrong hashes; try another --engine)");
    }
    snap.targets = targets.size();
    snap.settings = search.total_groups();
    snap.engine = search.engine_used();
    if (words) snap.total = *words * per_word;
    snap.recovered = static_cast<std::uint64_t>(std::count(cracked.begin(), cracked.end(), true));
  }

  /// Brings the snapshot up to `now`.
  void refresh(Clock::time_point now) {
    snap.elapsed = std::chrono::duration<double>(now - start).count();
    snap.recovered_settings = search.done_groups();
    snap.engine = search.engine_used();
    if (snap.elapsed > 0) {
      snap.speed = static_cast<double>(search.hashes_done()) / snap.elapsed;
      const double rate = static_cast<double>(snap.progress) / snap.elapsed;
      if (rate > 0 && snap.total)
        snap.eta = static_cast<double>(*snap.total - std::min(*snap.total, snap.progress)) / rate;
    }
  }

  const std::vector<Target>& targets;
  std::vector<bool>& cracked;
  AttackOptions options;
  std::size_t per_word;
  std::optional<std::uint64_t> words;
  CandidateSource source;
  Search search;
  StatusSnapshot snap;
  Clock::time_point start = Clock::now();
  bool ran = false;
};

Attack::Attack(const std::vector<Target>& targets, std::vector<bool>& cracked, AttackOptions options)
    : impl_(std::make_unique<Impl>(targets, cracked, std::move(options))) {}
Attack::~Attack() = default;

AttackEnd Attack::run(std::stop_token stop, const FindHandler& on_find, const ProgressHandler& on_progress) {
  Impl& a = *impl_;
  if (a.ran) throw std::logic_error("Attack::run: an attack runs once");
  a.ran = true;
  a.start = Clock::now();
  a.snap.time_start = static_cast<double>(std::time(nullptr));

  std::size_t jobs = 256;  // adaptive: hashes per batch
  const std::size_t max_jobs = max_jobs_for(a.search.engine_used());
  CandidateBatch batch;
  AttackEnd end = AttackEnd::exhausted;
  while (a.search.active_groups() > 0) {
    if (stop.stop_requested()) {
      end = AttackEnd::stopped;
      break;
    }
    const std::size_t per_candidate = std::max<std::size_t>(1, a.search.active_groups());
    const std::size_t want = a.options.batch != 0 ? a.options.batch : std::max<std::size_t>(1, jobs / per_candidate);
    if (!a.source.fill(batch, want)) break;
    const auto t0 = Clock::now();
    const std::vector<Find> finds = a.search.run(batch);
    const auto t1 = Clock::now();
    for (const Find& f : finds) {
      a.cracked[f.target] = true;
      ++a.snap.recovered;
      on_find(f);
    }
    a.snap.progress += batch.consumed;
    // Aim for 0.25-1 s per batch: a stop and the progress stay responsive, the engine stays busy.
    const double took = std::chrono::duration<double>(t1 - t0).count();
    if (took < 0.25 && jobs < max_jobs) jobs *= 2;
    else if (took > 1.0 && jobs > 1) jobs /= 2;
    if (on_progress) {
      a.refresh(t1);
      on_progress(a.snap);
    }
  }
  if (a.search.active_groups() == 0) end = AttackEnd::cracked;
  a.refresh(Clock::now());
  a.snap.state = end == AttackEnd::cracked ? "cracked" : end == AttackEnd::stopped ? "aborted" : "exhausted";
  a.snap.eta.reset();
  return end;
}

StatusSnapshot Attack::status() const { return impl_->snap; }
const std::string& Attack::engine_used() const { return impl_->search.engine_used(); }
std::size_t Attack::total_settings() const { return impl_->search.total_groups(); }
std::optional<std::uint64_t> Attack::words() const { return impl_->words; }
std::size_t Attack::rules_per_word() const { return impl_->per_word; }

void list_candidates(const AttackOptions& options, const std::function<void(std::string_view)>& sink) {
  CandidateSource source(options.wordlist, options.rules, options.skip, options.limit);
  CandidateBatch batch;
  std::string text;
  while (source.fill(batch, 65536)) {
    text.clear();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      text += batch.at(i);
      text += '\n';
    }
    sink(text);
  }
}

}  // namespace cryptaccel::crack

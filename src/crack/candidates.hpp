// Cracking: candidate passwords, word by word from the wordlist and, per word, rule by rule (hashcat's
// order: every rule on the first word, then every rule on the second, ...), handed out in batches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cryptaccel/crack/rules.hpp"
#include "cryptaccel/crack/wordlist.hpp"

namespace cryptaccel::crack {

/// A batch of candidates, stored back to back.
struct CandidateBatch {
  std::string arena;                                       ///< every candidate's bytes
  std::vector<std::pair<std::size_t, std::size_t>> spans;  ///< (offset, length) of each candidate in arena
  std::vector<std::uint64_t> positions;  ///< each candidate's (word, rule) index from the start: word x rules + rule
  std::uint64_t consumed = 0;  ///< (word, rule) pairs used up, including words a rule could not mangle (too long)

  std::size_t size() const { return spans.size(); }
  std::string_view at(std::size_t i) const { return std::string_view(arena).substr(spans[i].first, spans[i].second); }
  void clear() { arena.clear(); spans.clear(); positions.clear(); consumed = 0; }
};

/// Words × rules (no rules: each word once, as it is).
class CandidateSource {
 public:
  /// Words [skip, skip + limit) of `wordlist` (no limit: to its end), each with every rule. Positions count from
  /// the wordlist's first word. Throws as WordlistReader.
  CandidateSource(const std::string& wordlist, std::vector<Rule> rules, std::uint64_t skip = 0,
                  std::optional<std::uint64_t> limit = std::nullopt);

  /// Candidates per word (the number of rules, at least 1).
  std::size_t per_word() const { return rules_.empty() ? 1 : rules_.size(); }

  /// Refills `batch` with up to `max` candidates; false when nothing was left.
  bool fill(CandidateBatch& batch, std::size_t max);

 private:
  WordlistReader reader_;
  std::vector<Rule> rules_;
  std::string word_;          ///< the current word (copied: the reader's view moves on)
  std::size_t next_rule_ = 0; ///< next rule to apply to word_; rules_.size() (or 1 without rules) when done
  bool have_word_ = false;
  std::uint64_t position_ = 0;  ///< (word, rule) pairs before the next one, from the wordlist's start
  std::optional<std::uint64_t> words_left_;  ///< words the slice still has (nothing: to the end)
};

}  // namespace cryptaccel::crack

// Candidate generation for `cryptaccel crack` (see crack_candidates.hpp).
#include "crack_candidates.hpp"

namespace cryptaccel::cli::crack {

CandidateSource::CandidateSource(const std::string& wordlist, std::vector<Rule> rules)
    : reader_(wordlist), rules_(std::move(rules)) {}

bool CandidateSource::fill(CandidateBatch& batch, std::size_t max) {
  batch.clear();
  const std::size_t per_word = this->per_word();
  while (batch.size() < max) {
    if (!have_word_ || next_rule_ == per_word) {
      std::string_view word;
      if (!reader_.next(word)) break;
      word_.assign(word);
      have_word_ = true;
      next_rule_ = 0;
    }
    for (; next_rule_ < per_word && batch.size() < max; ++next_rule_) {
      ++batch.consumed;
      const std::uint64_t position = position_++;
      const std::size_t offset = batch.arena.size();
      if (rules_.empty()) {
        batch.arena += word_;
      } else {
        const auto candidate = apply_rule(rules_[next_rule_], word_);
        if (!candidate) continue;
        batch.arena += *candidate;
      }
      batch.spans.emplace_back(offset, batch.arena.size() - offset);
      batch.positions.push_back(position);
    }
  }
  return batch.consumed > 0;
}

}  // namespace cryptaccel::cli::crack

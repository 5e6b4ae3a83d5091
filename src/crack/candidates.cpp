// Candidate generation of the cracking library (see candidates.hpp).
#include "crack/candidates.hpp"

namespace cryptaccel::crack {

CandidateSource::CandidateSource(const std::string& wordlist, std::vector<Rule> rules, std::uint64_t skip,
                                 std::optional<std::uint64_t> limit)
    : reader_(wordlist), rules_(std::move(rules)), words_left_(limit) {
  std::string_view word;
  for (std::uint64_t i = 0; i < skip && reader_.next(word); ++i) position_ += per_word();
}

bool CandidateSource::fill(CandidateBatch& batch, std::size_t max) {
  batch.clear();
  const std::size_t per_word = this->per_word();
  while (batch.size() < max) {
    if (!have_word_ || next_rule_ == per_word) {
      std::string_view word;
      if (words_left_ && *words_left_ == 0) break;
      if (!reader_.next(word)) break;
      if (words_left_) --*words_left_;
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

}  // namespace cryptaccel::crack

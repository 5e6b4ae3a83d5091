// The self-test pairs of the hash modes (self_test.hpp, crack/attack.hpp). The SHA-crypt pairs are the examples of
// Drepper's specification (also `openssl passwd -6/-5 -salt saltstring 'Hello world!'`); the raw digests of "hashcat"
// are OpenSSL's and Python hashlib's.
#include "crack/self_test.hpp"

#include <variant>
#include <vector>

#include "crack/candidates.hpp"
#include "crack/search.hpp"
#include "cryptaccel/crack/attack.hpp"

namespace cryptaccel::crack {
namespace {

struct Pair {
  HashMode mode;
  const char* plain;
  const char* hash;
};

constexpr Pair kPairs[] = {
    {HashMode::sha512crypt, "Hello world!",
     "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"},
    {HashMode::sha256crypt, "Hello world!", "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"},
    {HashMode::sha256, "hashcat", "127e6fbfe24a750e72930c220a8e138275656b8e5d8f48a98c3c92df2caba935"},
    {HashMode::sha512, "hashcat",
     "82a9dda829eb7f8ffe9fbe49e45d47d2dad9664fbb7adf72492e3c81ebd3e29134d9bc12212bf83c6840f10e8246b9db54a4859b7ccd0123d86e"
     "5872c1e5082f"},
    {HashMode::sha3_256, "hashcat", "d60fcf6585da4e17224f58858970f0ed5ab042c3916b76b0b828e62eaf636cbd"},
    {HashMode::sm3, "hashcat", "51227e48ea74827b77fc142c3ec21d25cc42c794e6ac422825cd47ad4ac7913d"},
};

}  // namespace

std::string check_pair(HashMode mode, std::string_view plain, std::string_view hash_line, const std::string& engine,
                       std::size_t threads) {
  auto parsed = parse_hash_line(hash_line, mode);
  if (const auto* why = std::get_if<std::string>(&parsed)) return "the self-test hash does not parse: " + *why;
  const std::vector<Target> targets{std::get<Target>(std::move(parsed))};
  const std::vector<bool> cracked(1, false);
  Search search(targets, cracked, engine, threads);
  CandidateBatch batch;  // a few decoys around the plain, so that a lane or an index mix-up shows
  for (const std::string_view candidate : {std::string_view("decoy-1"), plain, std::string_view("decoy-2")}) {
    batch.spans.emplace_back(batch.arena.size(), candidate.size());
    batch.positions.push_back(batch.positions.size());
    batch.arena.append(candidate);
  }
  batch.consumed = batch.size();
  const std::vector<Find> finds = search.run(batch);
  if (finds.size() == 1 && finds[0].plain == plain) return {};
  return "hashing \"" + std::string(plain) + "\" did not give the known " + std::string(hash_mode_name(mode)) +
         " hash on engine '" + search.engine_used() + "'";
}

std::string self_test(HashMode mode, const std::string& engine, std::size_t threads) {
  for (const Pair& p : kPairs)
    if (p.mode == mode) return check_pair(mode, p.plain, p.hash, engine, threads);
  return "no self-test pair for this mode";
}

}  // namespace cryptaccel::crack

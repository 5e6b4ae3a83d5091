// The library's dictionary attack (include/cryptaccel/crack/attack.hpp): keyspace slices that cover a wordlist find
// exactly what one run finds, at the same positions; the stop token; progress; the --stdout listing of a slice.
// Targets are raw SHA-256 digests computed by OpenSSL of random words and rule outputs (seeded; the seed is printed
// with any failure and replayed with CRYPTACCEL_TEST_SEED).
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stop_token>
#include <string>
#include <vector>

#include "crack/self_test.hpp"
#include "cryptaccel/crack.hpp"
#include "test_util.hpp"

namespace crack = cryptaccel::crack;

namespace {

constexpr std::size_t kWords = 60;
const char* const kRules[] = {":", "u", "$1"};

/// A wordlist of random lower-case words, written to a temporary file.
struct Fixture {
  std::vector<std::string> words;
  std::filesystem::path path;
  std::vector<crack::Rule> rules;
  std::vector<crack::Target> targets;

  explicit Fixture(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < kWords; ++i) {
      std::string w;
      for (std::size_t n = 3 + rng() % 6; n; --n) w += static_cast<char>('a' + rng() % 26);
      words.push_back(w + std::to_string(i));  // distinct
    }
    path = std::filesystem::temp_directory_path() /
           ("cryptaccel-attack-test-" + std::to_string(::getpid()) + "-" + std::to_string(seed));
    std::ofstream out(path, std::ios::binary);
    for (const std::string& w : words) out << w << '\n';
    for (const char* r : kRules) rules.push_back(crack::parse_rule(r));
    // Targets: some words as they are, some upper-cased, some with a 1 appended, and one that is not there.
    for (std::size_t i = 0; i < 8; ++i) {
      const std::string& w = words[rng() % kWords];
      const std::size_t rule = rng() % 3;
      add_target(*crack::apply_rule(rules[rule], w));
    }
    add_target("not-in-the-list");
  }
  ~Fixture() { std::filesystem::remove(path); }

  void add_target(const std::string& plain) {
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    EVP_Digest(plain.data(), plain.size(), d, &len, EVP_sha256(), nullptr);
    const auto parsed = crack::parse_hash_line(cryptaccel::test::to_hex(cryptaccel::bytes(d, d + len)),
                                               crack::HashMode::sha256);
    targets.push_back(std::get<crack::Target>(parsed));
  }

  crack::AttackOptions options(std::uint64_t skip = 0, std::optional<std::uint64_t> limit = std::nullopt) const {
    crack::AttackOptions o;
    o.wordlist = path.string();
    o.rules = rules;
    o.engine = "cpu";
    o.threads = 1;
    o.batch = 7;  // several batches per slice
    o.skip = skip;
    o.limit = limit;
    return o;
  }
};

/// target index -> (plain, position) of every find of one attack over `options`.
std::map<std::size_t, std::pair<std::string, std::uint64_t>> finds_of(const Fixture& f, const crack::AttackOptions& o,
                                                                       crack::AttackEnd* end = nullptr) {
  std::vector<bool> cracked(f.targets.size(), false);
  crack::Attack attack(f.targets, cracked, o);
  std::map<std::size_t, std::pair<std::string, std::uint64_t>> out;
  const crack::AttackEnd e = attack.run(std::stop_token{}, [&](const crack::Find& find) {
    EXPECT_TRUE(out.emplace(find.target, std::make_pair(find.plain, find.position)).second) << "reported twice";
  });
  if (end) *end = e;
  for (const auto& [target, found] : out) EXPECT_TRUE(cracked[target]);
  return out;
}

}  // namespace

TEST(CrackAttack, SlicesCoveringTheWordlistFindWhatOneRunFinds) {
  const std::uint64_t seed = cryptaccel::test::seed_or(0xa77ac4);
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  const Fixture f(seed);
  crack::AttackEnd end{};
  const auto whole = finds_of(f, f.options(), &end);
  EXPECT_EQ(end, crack::AttackEnd::exhausted);  // one target is not in the keyspace
  EXPECT_FALSE(whole.empty());
  for (const auto& [target, found] : whole) {  // positions: word index x rules + rule index
    const std::uint64_t word = found.second / 3, rule = found.second % 3;
    EXPECT_EQ(*crack::apply_rule(f.rules[rule], f.words[word]), found.first);
  }
  std::map<std::size_t, std::pair<std::string, std::uint64_t>> sliced;
  for (const auto& [skip, limit] : std::vector<std::pair<std::uint64_t, std::optional<std::uint64_t>>>{
           {0, 17}, {17, 20}, {37, std::nullopt}}) {
    for (const auto& [target, found] : finds_of(f, f.options(skip, limit))) {
      EXPECT_GE(found.second, skip * 3) << "a find before the slice";
      if (limit) {
        EXPECT_LT(found.second, (skip + *limit) * 3) << "a find after the slice";
      }
      sliced[target] = found;  // a plain found in two slices (two words mangled alike) keeps the later
    }
  }
  ASSERT_EQ(sliced.size(), whole.size());
  for (const auto& [target, found] : whole) EXPECT_EQ(sliced.at(target).first, found.first);
}

TEST(CrackAttack, StopsBetweenBatchesAndReportsProgress) {
  const Fixture f(cryptaccel::test::seed_or(7));
  std::vector<bool> cracked(f.targets.size(), false);
  crack::Attack attack(f.targets, cracked, f.options());
  EXPECT_EQ(attack.words(), kWords);
  EXPECT_EQ(attack.rules_per_word(), 3u);
  std::stop_source stop;
  std::vector<std::uint64_t> progress;
  const crack::AttackEnd end = attack.run(
      stop.get_token(), [](const crack::Find&) {},
      [&](const crack::StatusSnapshot& s) {
        progress.push_back(s.progress);
        EXPECT_EQ(s.total, kWords * 3);
        EXPECT_EQ(s.state, "running");
        if (progress.size() == 2) stop.request_stop();
      });
  EXPECT_EQ(end, crack::AttackEnd::stopped);
  EXPECT_EQ(progress, (std::vector<std::uint64_t>{7, 14}));
  const crack::StatusSnapshot s = attack.status();
  EXPECT_EQ(s.state, "aborted");
  EXPECT_EQ(s.progress, 14u);
  EXPECT_FALSE(s.eta.has_value());
  EXPECT_THROW(attack.run(std::stop_token{}, [](const crack::Find&) {}), std::logic_error);
}

TEST(CrackAttack, ListsTheCandidatesOfASlice) {
  const Fixture f(cryptaccel::test::seed_or(11));
  std::string got;
  crack::list_candidates(f.options(5, 4), [&](std::string_view lines) { got += lines; });
  std::string want;
  for (std::size_t w = 5; w < 9; ++w)
    for (const crack::Rule& r : f.rules) want += *crack::apply_rule(r, f.words[w]) + "\n";
  EXPECT_EQ(got, want);
  got.clear();
  crack::list_candidates(f.options(kWords + 3), [&](std::string_view lines) { got += lines; });
  EXPECT_EQ(got, "") << "a skip past the end leaves nothing";
}

TEST(CrackSelfTest, EveryModePassesOnEveryHostEngineAndAWrongPairFails) {
  for (const char* engine : {"ref", "cpu"}) {
    for (const auto mode : {crack::HashMode::sha512crypt, crack::HashMode::sha256crypt, crack::HashMode::sha256,
                            crack::HashMode::sha512, crack::HashMode::sha3_256, crack::HashMode::sm3}) {
      EXPECT_EQ(crack::self_test(mode, engine), "") << engine << " " << crack::hash_mode_name(mode);
    }
  }
  // The check can fail: the right hash of another plain.
  const std::string why = crack::check_pair(crack::HashMode::sha256, "hashcat!",
                                            "127e6fbfe24a750e72930c220a8e138275656b8e5d8f48a98c3c92df2caba935", "cpu", 1);
  EXPECT_NE(why.find("did not give the known sha256 hash on engine 'cpu'"), std::string::npos) << why;
}

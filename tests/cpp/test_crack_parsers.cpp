// The cracking library's building blocks (src/crack): the rule engine on hashcat's documented examples and
// its error messages, hash-line parsing, $HEX[] plains, the wordlist reader (line ends, a line longer than its
// buffer) and the search against digests computed by OpenSSL. The end-to-end behaviour (and the comparison with
// `hashcat --stdout`) is tests/python/test_cli_crack.py.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "cryptaccel/hex.hpp"
#include "crack/candidates.hpp"
#include "cryptaccel/crack/potfile.hpp"
#include "cryptaccel/crack/rules.hpp"
#include "crack/search.hpp"
#include "cryptaccel/crack/targets.hpp"
#include "cryptaccel/crack/wordlist.hpp"

namespace crack = cryptaccel::crack;

namespace {

std::string mangle(const std::string& rule, const std::string& word) {
  const auto out = crack::apply_rule(crack::parse_rule(rule), word);
  EXPECT_TRUE(out.has_value());
  return out.value_or("<none>");
}

std::string rule_error(const std::string& rule) {
  try {
    crack::parse_rule(rule);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

std::filesystem::path temp_file(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() / ("cryptaccel-crack-test-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string to_hex(const std::vector<std::uint8_t>& d) { return cryptaccel::to_hex(d); }

std::string openssl_hex(const EVP_MD* md, const std::string& data) {
  std::vector<std::uint8_t> out(EVP_MAX_MD_SIZE);
  unsigned len = 0;
  EXPECT_EQ(EVP_Digest(data.data(), data.size(), out.data(), &len, md, nullptr), 1);
  out.resize(len);
  return to_hex(out);
}

}  // namespace

// Examples from hashcat's rule documentation (hashcat.net/wiki/doku.php?id=rule_based_attack).
TEST(CrackRules, HashcatDocumentedExamples) {
  EXPECT_EQ(mangle("c", "p@ssW0rd"), "P@ssw0rd");
  EXPECT_EQ(mangle("C", "p@ssW0rd"), "p@SSW0RD");
  EXPECT_EQ(mangle("t", "p@ssW0rd"), "P@SSw0RD");
  EXPECT_EQ(mangle("T3", "p@ssW0rd"), "p@sSW0rd");
  EXPECT_EQ(mangle("p2", "p@ssW0rd"), "p@ssW0rdp@ssW0rdp@ssW0rd");
  EXPECT_EQ(mangle("f", "p@ssW0rd"), "p@ssW0rddr0Wss@p");
  EXPECT_EQ(mangle("{", "p@ssW0rd"), "@ssW0rdp");
  EXPECT_EQ(mangle("}", "p@ssW0rd"), "dp@ssW0r");
  EXPECT_EQ(mangle("x04", "p@ssW0rd"), "p@ss");
  EXPECT_EQ(mangle("O12", "p@ssW0rd"), "psW0rd");
  EXPECT_EQ(mangle("i4!", "p@ssW0rd"), "p@ss!W0rd");
  EXPECT_EQ(mangle("o3$", "p@ssW0rd"), "p@s$W0rd");
  EXPECT_EQ(mangle("'6", "p@ssW0rd"), "p@ssW0");
  EXPECT_EQ(mangle("ss$", "p@ssW0rd"), "p@$$W0rd");
  EXPECT_EQ(mangle("@s", "p@ssW0rd"), "p@W0rd");
  EXPECT_EQ(mangle("z2", "p@ssW0rd"), "ppp@ssW0rd");
  EXPECT_EQ(mangle("Z2", "p@ssW0rd"), "p@ssW0rddd");
  EXPECT_EQ(mangle("q", "p@ssW0rd"), "pp@@ssssWW00rrdd");
  EXPECT_EQ(mangle("*34", "p@ssW0rd"), "p@sWs0rd");
  EXPECT_EQ(mangle("+2", "p@ssW0rd"), "p@tsW0rd");
  EXPECT_EQ(mangle("y2", "p@ssW0rd"), "p@p@ssW0rd");
  EXPECT_EQ(mangle("Y2", "p@ssW0rd"), "p@ssW0rdrd");
  EXPECT_EQ(mangle("E", "p@ssW0rd w0rld"), "P@ssw0rd W0rld");
  EXPECT_EQ(mangle("sa@ se3 $1", "release"), "r3l3@s31");  // spaces between functions are ignored
}

TEST(CrackRules, PositionsPastTheEndAndLengthLimit) {
  EXPECT_EQ(mangle("T9", "abc"), "abc");
  EXPECT_EQ(mangle("D3", "abc"), "abc");
  EXPECT_EQ(mangle("i3!", "abc"), "abc!");   // inserting at the end appends
  EXPECT_EQ(mangle("i4!", "abc"), "abc");
  EXPECT_EQ(mangle("x12", "abc"), "bc");
  EXPECT_EQ(mangle("x13", "abc"), "abc");    // the range must fit
  EXPECT_EQ(mangle("TZ", std::string(35, 'a')), std::string(35, 'a'));
  EXPECT_EQ(mangle("TZ", std::string(36, 'a')).back(), 'A');  // Z is position 35
  const std::string w255(255, 'w');
  EXPECT_EQ(mangle("$x", w255), w255);       // would reach 256 bytes: unchanged
  EXPECT_EQ(mangle("$x", std::string(254, 'w')), std::string(254, 'w') + "x");
  EXPECT_FALSE(crack::apply_rule(crack::parse_rule(":"), std::string(257, 'w')).has_value());
}

TEST(CrackRules, ErrorsNameFunctionAndColumn) {
  EXPECT_EQ(rule_error("$1 M"), "unsupported rule function 'M' at column 4");
  EXPECT_EQ(rule_error("T"), "rule function 'T' at column 1 needs a position (0-9, A-Z)");
  EXPECT_EQ(rule_error("Ta"), "rule function 'T' at column 1: 'a' is not a position (0-9, A-Z)");
  EXPECT_EQ(rule_error("s1"), "rule function 's' at column 1 needs a character");
  EXPECT_EQ(rule_error("   "), "empty rule");
  // A rule file: bad lines are skipped and reported with their line number and reason, as hashcat skips them.
  const auto file = temp_file("bad.rule", "# comment\n\nc\r\n$1 >5\nu\n");
  std::vector<std::pair<std::size_t, std::string>> skipped;
  const auto rules = crack::load_rule_file(file.string(), [&](std::size_t line, const std::string& rule,
                                                              const std::string& reason) {
    skipped.emplace_back(line, rule + " / " + reason);
  });
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0].text, "c");
  EXPECT_EQ(rules[1].text, "u");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].first, 4u);
  EXPECT_EQ(skipped[0].second, "$1 >5 / unsupported rule function '>' at column 4");
  std::filesystem::remove(file);
  // Nothing usable at all is an error.
  const auto none = temp_file("none.rule", "M\n# only a comment\n");
  try {
    crack::load_rule_file(none.string(), {});
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), none.string() + ": no usable rules in the file");
  }
  std::filesystem::remove(none);
}

TEST(CrackRules, StackedAsHashcatStacksThem) {
  const std::vector<crack::Rule> a = {crack::parse_rule("l"), crack::parse_rule("u")};
  const std::vector<crack::Rule> b = {crack::parse_rule("$1"), crack::parse_rule("$2"), crack::parse_rule("^x")};
  const auto stacked = crack::stack_rules({a, b});
  std::vector<std::string> out;
  for (const crack::Rule& r : stacked) out.push_back(*crack::apply_rule(r, "Word"));
  EXPECT_EQ(out, (std::vector<std::string>{"word1", "WORD1", "word2", "WORD2", "xword", "xWORD"}));
  EXPECT_EQ(stacked[3].text, "u $2");
  EXPECT_THROW(crack::stack_rules({a, b, a}, 11), std::runtime_error);  // 12 rules > 11
  EXPECT_EQ(crack::stack_rules({a}).size(), 2u);
}

TEST(CrackTargets, LineShapes) {
  // passlib: sha512_crypt.using(rounds=1000, salt="saltsalt").hash("hello")
  const std::string h6 =
      "$6$rounds=1000$saltsalt$zkoiYwIsO5KDt3uWpXhMSn5A3GL3dLB"
      "DrvvCP5bYQnNQABJ.qFs5wSdYTV8y4TfHT11NM.aq073TqVf0dt9hm0";
  auto shadow = crack::parse_hash_line("root:" + h6 + ":19700:0:99999:7:::", std::nullopt);
  ASSERT_TRUE(std::holds_alternative<crack::Target>(shadow)) << std::get<std::string>(shadow);
  const auto& t = std::get<crack::Target>(shadow);
  EXPECT_EQ(t.user, "root");
  EXPECT_EQ(t.hash, h6);
  EXPECT_EQ(t.mode, crack::HashMode::sha512crypt);
  EXPECT_EQ(t.setting.rounds, 1000u);
  EXPECT_EQ(t.setting.salt, "saltsalt");
  EXPECT_EQ(t.digest.size(), 64u);
  EXPECT_EQ(cryptaccel::shacrypt_format(t.setting, t.digest), h6);

  const std::string hex(128, 'A');
  auto raw = crack::parse_hash_line("bob:" + hex, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<crack::Target>(raw));
  EXPECT_EQ(std::get<crack::Target>(raw).hash, std::string(128, 'a'));  // the potfile key is lower case
  EXPECT_EQ(std::get<crack::Target>(raw).mode, crack::HashMode::sha512);

  const auto reason = [](const std::string& line, std::optional<crack::HashMode> m = std::nullopt) {
    auto r = crack::parse_hash_line(line, m);
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string("parsed");
  };
  EXPECT_EQ(reason(std::string(64, 'b')), "64 hex digits could be sha256, sha3-256 or sm3: choose one with -m");
  EXPECT_EQ(reason(std::string(64, 'b'), crack::HashMode::sm3), "parsed");
  EXPECT_EQ(reason(std::string(64, 'b'), crack::HashMode::sha512), "64 hex digits; sha512 has 128");
  EXPECT_EQ(reason("daemon:*:19700::::::"), "no password hash (locked, disabled or shadowed account)");
  EXPECT_EQ(reason("u:!" + h6), "no password hash (locked, disabled or shadowed account)");
  EXPECT_EQ(reason(h6, crack::HashMode::sha256crypt), "a sha512crypt hash, but -m is sha256crypt");
  EXPECT_EQ(reason("$2b$10$abc"), "unsupported hash type (only $5$ and $6$ SHA-crypt)");
  EXPECT_EQ(reason(":" + h6), "empty user field before ':'");
  EXPECT_EQ(crack::parse_hash_mode("SHA3_256"), crack::HashMode::sha3_256);
  EXPECT_EQ(crack::parse_hash_mode("1800"), crack::HashMode::sha512crypt);
  EXPECT_THROW(crack::parse_hash_mode("md5"), std::invalid_argument);
}

TEST(CrackPotfile, HexPlainsFollowHashcat) {
  EXPECT_EQ(crack::encode_plain("password"), "password");
  EXPECT_EQ(crack::encode_plain("caf\xc3\xa9"), "caf\xc3\xa9");       // valid UTF-8 stays
  EXPECT_EQ(crack::encode_plain("caf\xe9"), "$HEX[636166e9]");           // Latin-1 is not UTF-8
  EXPECT_EQ(crack::encode_plain("a:b"), "$HEX[613a62]");                 // the separator
  EXPECT_EQ(crack::encode_plain("tab\t"), "$HEX[74616209]");             // control byte
  EXPECT_EQ(crack::encode_plain("$HEX[41]"), "$HEX[244845585b34315d]");  // looks like $HEX[] itself
  EXPECT_EQ(crack::encode_plain(" x"), "$HEX[2078]");                    // ours: leading/trailing space
  EXPECT_EQ(crack::encode_plain("\xed\xa0\x80"), "$HEX[eda080]");        // UTF-8 surrogate: invalid
  EXPECT_EQ(crack::decode_plain("$HEX[613A62]"), "a:b");
  EXPECT_EQ(crack::decode_plain("$HEX[613]"), "$HEX[613]");              // odd digits: a plain like any other
  for (const std::string& p : std::vector<std::string>{"", "a:b", "caf\xe9", " x ", "$HEX[]", std::string("\0\n", 2)})
    EXPECT_EQ(crack::decode_plain(crack::encode_plain(p)), p);
}

TEST(CrackWordlist, LineEndsAndALineLongerThanTheBuffer) {
  const std::string huge(3 << 20, 'h');  // longer than the 1 MiB read block: the buffer must grow
  const auto file = temp_file("words.txt", "a\r\n\nb\n" + huge + "\r\nlast");
  EXPECT_EQ(crack::count_wordlist_lines(file.string()), 5u);
  crack::WordlistReader reader(file.string());
  std::vector<std::string> got;
  std::string_view w;
  while (reader.next(w)) got.emplace_back(w);
  EXPECT_EQ(got, (std::vector<std::string>{"a", "", "b", huge, "last"}));
  std::filesystem::remove(file);
  EXPECT_THROW(crack::WordlistReader("/nonexistent/words"), std::runtime_error);
  EXPECT_THROW(crack::count_wordlist_lines(std::filesystem::temp_directory_path().string()), std::runtime_error);
}

TEST(CrackSearch, RawDigestsFoundAgainstOpenSsl) {
  // Targets from OpenSSL's digests; candidates: words x rules through the candidate source.
  std::vector<crack::Target> targets;
  const auto add = [&](const EVP_MD* md, crack::HashMode mode, const std::string& plain) {
    auto parsed = crack::parse_hash_line("u:" + openssl_hex(md, plain), mode);
    ASSERT_TRUE(std::holds_alternative<crack::Target>(parsed));
    targets.push_back(std::get<crack::Target>(parsed));
  };
  add(EVP_sha256(), crack::HashMode::sha256, "Dragon1");
  add(EVP_sha256(), crack::HashMode::sha256, "dragon");
  add(EVP_sha3_256(), crack::HashMode::sha3_256, "DRAGON");
  add(EVP_sha512(), crack::HashMode::sha512, "not in the list");
  const auto words = temp_file("w.txt", "apple\ndragon\nzebra\n");
  const auto rules = temp_file("r.rule", ":\nc $1\nu\n");
  crack::CandidateSource source(words.string(), crack::load_rule_file(rules.string(), {}));
  crack::Search search(targets, std::vector<bool>(targets.size(), false), "ref", 1);
  EXPECT_EQ(search.total_groups(), 3u);
  crack::CandidateBatch batch;
  std::vector<std::pair<std::size_t, std::string>> found;
  std::uint64_t consumed = 0;
  while (source.fill(batch, 2)) {  // tiny batches: finds must not depend on where batches split
    consumed += batch.consumed;
    for (const auto& f : search.run(batch)) found.emplace_back(f.target, f.plain);
  }
  EXPECT_EQ(consumed, 9u);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::pair<std::size_t, std::string>>{{0, "Dragon1"}, {1, "dragon"}, {2, "DRAGON"}}));
  EXPECT_EQ(search.active_groups(), 1u);  // sha512 is left
  std::filesystem::remove(words);
  std::filesystem::remove(rules);
}

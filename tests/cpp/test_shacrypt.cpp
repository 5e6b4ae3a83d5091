// SHA-crypt ($5$ sha256crypt, $6$ sha512crypt) on every engine that offers it: the specification's test vectors
// (Drepper's "Unix crypt using SHA-256 and SHA-512", as glibc and libxcrypt ship them), random passwords and salts
// against the system's crypt_r (libxcrypt), batches mixing settings and thread counts, parsing, clamping, formatting.
#include <crypt.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "algo/shacrypt.hpp"
#include "cpu/cpu_shacrypt.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/shacrypt.hpp"
#include "engine/dispatch.hpp"

namespace cryptaccel {
namespace {

bytes_view text(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

/// crypt(3) of libxcrypt: the independent implementation the random tests compare with.
std::string system_crypt(const std::string& password, const std::string& setting) {
  crypt_data data;
  std::memset(&data, 0, sizeof data);
  const char* out = crypt_r(password.c_str(), setting.c_str(), &data);
  return out ? std::string(out) : std::string("(crypt_r failed)");
}

struct Vector {
  const char* setting;
  const char* password;
  const char* expected;
};

// The specification's test vectors (sha256crypt.c / sha512crypt.c test tables), plus rounds=5000 spelled out.
const Vector kVectors[] = {
    {"$5$saltstring", "Hello world!", "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"},
    {"$5$rounds=5000$saltstring", "Hello world!",
     "$5$rounds=5000$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"},
    {"$5$rounds=10000$saltstringsaltstring", "Hello world!",
     "$5$rounds=10000$saltstringsaltst$3xv.VbSHBb41AL9AvLeujZkZRBAwqFMz2.opqey6IcA"},
    {"$5$rounds=5000$toolongsaltstring", "This is just a test",
     "$5$rounds=5000$toolongsaltstrin$Un/5jzAHMgOGZ5.mWJpuVolil07guHPvOW8mGRcvxa5"},
    {"$5$rounds=1400$anotherlongsaltstring",
     "a very much longer text to encrypt.  This one even stretches over morethan one line.",
     "$5$rounds=1400$anotherlongsalts$Rx.j8H.h8HjEDGomFU8bDkXm3XIUnzyxf12oP84Bnq1"},
    {"$5$rounds=77777$short", "we have a short salt string but not a short password",
     "$5$rounds=77777$short$JiO1O3ZpDAxGJeaDIuqCoEFysAe1mZNJRs3pw0KQRd/"},
    {"$5$rounds=123456$asaltof16chars..", "a short string",
     "$5$rounds=123456$asaltof16chars..$gP3VQ/6X7UUEW3HkBn2w1/Ptq2jxPyzV/cZKmF/wJvD"},
    {"$5$rounds=10$roundstoolow", "the minimum number is still observed",
     "$5$rounds=1000$roundstoolow$yfvwcWrQ8l/K0DAWyuPMDNHpIVlTQebY9l/gL972bIC"},
    {"$6$saltstring", "Hello world!",
     "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"},
    {"$6$rounds=5000$saltstring", "Hello world!",
     "$6$rounds=5000$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"},
    {"$6$rounds=10000$saltstringsaltstring", "Hello world!",
     "$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v."},
    {"$6$rounds=5000$toolongsaltstring", "This is just a test",
     "$6$rounds=5000$toolongsaltstrin$lQ8jolhgVRVhY4b5pZKaysCLi0QBxGoNeKQzQ3glMhwllF7oGDZxUhx1yxdYcz/e1JSbq3y6JMxxl8audkUEm0"},
    {"$6$rounds=1400$anotherlongsaltstring",
     "a very much longer text to encrypt.  This one even stretches over morethan one line.",
     "$6$rounds=1400$anotherlongsalts$POfYwTEok97VWcjxIiSOjiykti.o/pQs.wPvMxQ6Fm7I6IoYN3CmLs66x9t0oSwbtEW7o7UmJEiDwGqd8p4ur1"},
    {"$6$rounds=77777$short", "we have a short salt string but not a short password",
     "$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0"},
    {"$6$rounds=123456$asaltof16chars..", "a short string",
     "$6$rounds=123456$asaltof16chars..$BtCwjqMJGx5hrJhZywWvt0RLE8uZ4oPwcelCjmw2kSYu.Ec6ycULevoBK25fs2xXgMNrCzIMVcgEJAstJeonj1"},
    {"$6$rounds=10$roundstoolow", "the minimum number is still observed",
     "$6$rounds=1000$roundstoolow$kUMsbe306n21p9R.FRkW3IGn.S9NPN0x50YhH1xhLsPuWGsUSklZt58jaTfF4ZEQpyUNGc0dqbpBYYBaHHrsX."},
};

/// Every engine this build registers (available or not: unavailable ones skip with their reason).
std::vector<std::string> engine_names() {
  std::vector<std::string> names;
  for (const EngineInfo& e : engines()) names.push_back(e.name);
  return names;
}

class ShaCryptEngine : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    for (const EngineInfo& e : engines())
      if (e.name == GetParam() && !e.available) GTEST_SKIP() << "engine " << e.name << ": " << e.unavailable_reason;
    try {
      ShaCryptSetting s;
      shacrypt_hash({}, s, GetParam());
    } catch (const EngineUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
  }
  std::string_view engine() const { return GetParam(); }
};

TEST_P(ShaCryptEngine, SpecificationVectors) {
  for (const Vector& v : kVectors) {
    const ShaCryptHash parsed = parse_shacrypt(v.setting);
    EXPECT_EQ(shacrypt_hash(text(v.password), parsed.setting, engine()), v.expected) << v.setting;
    EXPECT_TRUE(shacrypt_verify(text(v.password), v.expected, engine())) << v.expected;
    EXPECT_FALSE(shacrypt_verify(text(std::string(v.password) + "!"), v.expected, engine())) << v.expected;
  }
}

TEST_P(ShaCryptEngine, RandomPasswordsAndSaltsEqualLibxcrypt) {
  std::mt19937_64 rng(77);
  const std::string alphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  // Lengths around every block boundary the rounds' messages cross, and beyond one block of password (> 64, > 128).
  const std::size_t lengths[] = {0, 1, 15, 16, 31, 32, 33, 47, 55, 56, 63, 64, 65, 100, 111, 112, 127, 128, 129, 200, 300};
  for (std::size_t len : lengths) {
    std::string password(len, '\0'), salt(rng() % 21, '\0');
    for (char& c : password) c = static_cast<char>(1 + rng() % 255);  // C strings for crypt_r: no NUL
    for (char& c : salt) c = alphabet[rng() % 64];
    const std::uint32_t rounds = rng() % 2 ? 1000 + static_cast<std::uint32_t>(rng() % 100) : 5000;
    for (const char* id : {"$5$", "$6$"}) {
      const std::string setting = std::string(id) + "rounds=" + std::to_string(rounds) + "$" + salt;
      const std::string expected = system_crypt(password, setting);
      EXPECT_EQ(shacrypt_hash(text(password), parse_shacrypt(setting).setting, engine()), expected)
          << "password length " << len << ", setting " << setting;
    }
  }
}

TEST_P(ShaCryptEngine, BatchesMixingSettingsEqualOneByOne) {
  std::mt19937_64 rng(78);
  std::vector<ShaCryptSetting> settings;
  for (int i = 0; i < 5; ++i) {
    ShaCryptSetting s;
    s.variant = i % 2 ? ShaCryptVariant::sha256 : ShaCryptVariant::sha512;
    s.rounds = 1000 + static_cast<std::uint32_t>(i * 37);
    s.salt = std::string("salt") + std::to_string(i * 1234567);
    settings.push_back(s);
  }
  std::vector<std::string> passwords;
  std::vector<const ShaCryptSetting*> which;
  for (int i = 0; i < 45; ++i) {
    std::string p(rng() % 140, '\0');
    for (char& c : p) c = static_cast<char>(rng());
    passwords.push_back(p);
    // Runs of equal settings (as a cracker lays them out) and a few strays in between.
    which.push_back(&settings[i % 7 == 3 ? rng() % settings.size() : (i / 10) % settings.size()]);
  }
  std::vector<std::string> expected;
  for (std::size_t i = 0; i < passwords.size(); ++i)
    expected.push_back(shacrypt_hash(text(passwords[i]), *which[i], "ref"));
  for (std::size_t threads : {1u, 2u, 3u}) {
    std::vector<bytes> digests(passwords.size(), bytes(64));
    std::vector<ShaCryptJob> jobs;
    for (std::size_t i = 0; i < passwords.size(); ++i) {
      digests[i].resize(which[i]->variant == ShaCryptVariant::sha512 ? 64 : 32);
      jobs.push_back(ShaCryptJob{text(passwords[i]), which[i], digests[i]});
    }
    BatchOptions options;
    options.engine = engine();
    options.threads = threads;
    const BatchReport report = shacrypt_batch(jobs, options);
    EXPECT_EQ(report.engine, engine());
    EXPECT_EQ(report.succeeded, jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i)
      ASSERT_EQ(shacrypt_format(*which[i], digests[i]), expected[i]) << "job " << i << ", threads " << threads;
  }
}

TEST_P(ShaCryptEngine, BadJobsFailAloneAndOthersRun) {
  ShaCryptSetting good;
  good.rounds = 1000;
  good.salt = "abc";
  ShaCryptSetting bad_salt = good;
  bad_salt.salt = "a:b";
  ShaCryptSetting bad_rounds = good;
  bad_rounds.rounds = 999;
  std::uint8_t d[5][64];
  const std::string pw = "password";
  std::vector<ShaCryptJob> jobs = {
      {text(pw), &good, mutable_bytes(d[0], 64)},      {text(pw), &bad_salt, mutable_bytes(d[1], 64)},
      {text(pw), &bad_rounds, mutable_bytes(d[2], 64)}, {text(pw), &good, mutable_bytes(d[3], 32)},
      {text(pw), nullptr, mutable_bytes(d[4], 64)}};
  BatchOptions options;
  options.engine = engine();
  const BatchReport report = shacrypt_batch(jobs, options);
  EXPECT_EQ(report.succeeded, 1u);
  EXPECT_EQ(report.failed, 4u);
  EXPECT_EQ(jobs[0].status, JobStatus::ok);
  EXPECT_EQ(shacrypt_format(good, bytes_view(d[0], 64)), system_crypt(pw, "$6$rounds=1000$abc"));
  for (std::size_t i = 1; i < jobs.size(); ++i) {
    EXPECT_EQ(jobs[i].status, JobStatus::invalid_argument) << i;
    EXPECT_FALSE(jobs[i].error.empty()) << i;
    EXPECT_EQ(jobs[i].error.find('\n'), std::string::npos) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, ShaCryptEngine, testing::ValuesIn(engine_names()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// The cpu engine's SHA-crypt backends, each forced in turn, against ref on candidates of many lengths (lanes then
// hold templates of different block counts) and several salts per batch. A backend this CPU cannot run (or that
// CRYPTACCEL_CPU_MASK hides; ctest runs this file masked too) skips with the reason.
class ShaCryptCpuBackend : public testing::TestWithParam<std::string> {};

TEST_P(ShaCryptCpuBackend, EqualsRefOnMixedLengthsAndSalts) {
  const std::string name = GetParam();
  const ShaCryptVariant variant = name.rfind("sha512", 0) == 0 ? ShaCryptVariant::sha512 : ShaCryptVariant::sha256;
  for (const cpu::HashBackend& b : cpu::shacrypt_backends(variant))
    if (b.name == name && !b.missing.empty()) GTEST_SKIP() << name << ": " << b.missing;
  std::mt19937_64 rng(79);
  std::vector<ShaCryptSetting> settings(3);
  for (std::size_t i = 0; i < settings.size(); ++i) {
    settings[i].variant = variant;
    settings[i].rounds = 1000;
    settings[i].salt = std::string(i * 7, 'a' + static_cast<char>(i));
  }
  std::vector<std::string> passwords;
  for (std::size_t len : {0u, 3u, 8u, 8u, 8u, 8u, 8u, 8u, 8u, 8u, 20u, 47u, 55u, 64u, 65u, 100u, 129u, 150u, 200u})
    passwords.push_back(std::string(len, static_cast<char>('A' + len % 26)));
  std::vector<bytes> digests(passwords.size(), bytes(variant == ShaCryptVariant::sha512 ? 64 : 32));
  std::vector<ShaCryptJob> jobs;
  for (std::size_t i = 0; i < passwords.size(); ++i)
    jobs.push_back(ShaCryptJob{text(passwords[i]), &settings[rng() % settings.size()], digests[i]});
  cpu::run_shacrypt_backend(name, jobs);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    ASSERT_EQ(jobs[i].status, JobStatus::ok) << i;
    EXPECT_EQ(shacrypt_format(*jobs[i].setting, digests[i]), shacrypt_hash(text(passwords[i]), *jobs[i].setting, "ref"))
        << name << ", password length " << passwords[i].size() << ", salt " << jobs[i].setting->salt;
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, ShaCryptCpuBackend,
                         testing::Values("sha256-shani-x2", "sha256-avx2-x8", "sha512-avx2-x4", "portable"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(ShaCryptCpu, BackendNamesAndErrors) {
  EXPECT_THROW(cpu::run_shacrypt_backend("no-such-backend", {}), std::invalid_argument);
  ShaCryptSetting s;  // sha512crypt
  std::uint8_t d[64];
  const std::string pw = "x";
  std::vector<ShaCryptJob> jobs = {{text(pw), &s, mutable_bytes(d, 64)}};
  for (const cpu::HashBackend& b : cpu::shacrypt_backends(ShaCryptVariant::sha256)) {
    if (b.name != "portable" && b.missing.empty()) {
      EXPECT_THROW(cpu::run_shacrypt_backend(b.name, jobs), std::invalid_argument);
    }
  }
  EXPECT_FALSE(cpu::default_shacrypt_backend(ShaCryptVariant::sha512).empty());
}

TEST(ShaCryptParse, SettingsAndHashes) {
  ShaCryptHash h = parse_shacrypt("$6$saltstring");
  EXPECT_EQ(h.setting.variant, ShaCryptVariant::sha512);
  EXPECT_EQ(h.setting.rounds, 5000u);
  EXPECT_FALSE(h.setting.rounds_explicit);
  EXPECT_EQ(h.setting.salt, "saltstring");
  EXPECT_EQ(h.digest_size, 0u);

  h = parse_shacrypt("$5$rounds=5000$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5");
  EXPECT_EQ(h.setting.variant, ShaCryptVariant::sha256);
  EXPECT_TRUE(h.setting.rounds_explicit);
  EXPECT_EQ(h.digest_size, 32u);
  // Formatting the parsed digest gives the string back: decoding inverts the spec's encoding.
  EXPECT_EQ(shacrypt_format(h.setting, bytes_view(h.digest, 32)),
            "$5$rounds=5000$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5");
  for (const Vector& v : kVectors) {
    const ShaCryptHash p = parse_shacrypt(v.expected);
    EXPECT_EQ(shacrypt_format(p.setting, bytes_view(p.digest, p.digest_size)), v.expected);
  }
  EXPECT_EQ(parse_shacrypt("$6$$").setting.salt, "");
  EXPECT_EQ(parse_shacrypt("$6$").setting.salt, "");
  EXPECT_EQ(parse_shacrypt("$6$salt$").digest_size, 0u);
}

TEST(ShaCryptParse, ClampsAndTruncatesAsGlibc) {
  EXPECT_EQ(parse_shacrypt("$6$rounds=10$x").setting.rounds, 1000u);
  EXPECT_EQ(parse_shacrypt("$6$rounds=0$x").setting.rounds, 1000u);
  EXPECT_EQ(parse_shacrypt("$6$rounds=999$x").setting.rounds, 1000u);
  EXPECT_EQ(parse_shacrypt("$6$rounds=1000$x").setting.rounds, 1000u);
  EXPECT_EQ(parse_shacrypt("$6$rounds=01001$x").setting.rounds, 1001u);
  EXPECT_EQ(parse_shacrypt("$6$rounds=999999999$x").setting.rounds, 999999999u);
  EXPECT_EQ(parse_shacrypt("$6$rounds=1000000000$x").setting.rounds, 999999999u);
  EXPECT_EQ(parse_shacrypt("$6$rounds=99999999999999999999999999$x").setting.rounds, 999999999u);
  EXPECT_EQ(parse_shacrypt("$5$0123456789abcdefXYZ").setting.salt, "0123456789abcdef");
  EXPECT_EQ(parse_shacrypt("$5$0123456789abcdefXYZ$").setting.salt, "0123456789abcdef");
  // (libxcrypt refuses rounds outside 1000..999999999 where the specification and glibc clamp; the spec's
  // "rounds=10$roundstoolow" vectors above check the clamped hashes.)
}

TEST(ShaCryptParse, RejectsMalformedStringsWithOneLine) {
  const char* bad[] = {
      "",
      "$",
      "$1$salt$hash",
      "$7$salt",
      "6$salt",
      "$6",
      "$6$rounds=$salt",
      "$6$rounds=abc$salt",
      "$6$rounds=-5$salt",
      "$6$rounds=+5$salt",
      "$6$rounds=5000",
      "$6$rounds=5000x$salt",
      "$6$sa:lt",
      "$6$sa\nlt",
      "$6$salt$tooshort",
      "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5x",   // 44 characters
      "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc*",    // '*' not in the alphabet
      "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEcz",    // unused high bits set
      "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inzz",
      "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1$",
  };
  for (const char* s : bad) {
    try {
      parse_shacrypt(s);
      ADD_FAILURE() << "accepted: " << s;
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      EXPECT_FALSE(std::string(e.what()).empty());
    }
  }
  EXPECT_THROW(shacrypt_verify(text("x"), "$6$saltonly"), InvalidArgument);
}

TEST(ShaCryptParse, FormatAndHashRejectBadSettings) {
  ShaCryptSetting s;
  s.salt = std::string(17, 'a');
  EXPECT_THROW(shacrypt_hash({}, s), InvalidArgument);
  s.salt = "a$b";
  EXPECT_THROW(shacrypt_hash({}, s), InvalidArgument);
  s.salt = "ok";
  s.rounds = 1000000000;
  EXPECT_THROW(shacrypt_hash({}, s), InvalidArgument);
  s.rounds = 5000;
  std::uint8_t d[64] = {};
  EXPECT_THROW(shacrypt_format(s, bytes_view(d, 32)), InvalidArgument);
  EXPECT_THROW(shacrypt_encode_digest(ShaCryptVariant::sha256, bytes_view(d, 64)), InvalidArgument);
  // Non-default rounds are written out even when the setting did not spell them.
  s.rounds = 1234;
  EXPECT_EQ(shacrypt_format(s, bytes_view(d, 64)).rfind("$6$rounds=1234$ok$", 0), 0u);
}

TEST(ShaCryptApi, RandomSettingsAreFreshAndUsable) {
  const ShaCryptSetting a = shacrypt_random_setting(ShaCryptVariant::sha256, 1000);
  const ShaCryptSetting b = shacrypt_random_setting(ShaCryptVariant::sha256, 1000);
  EXPECT_EQ(a.salt.size(), 16u);
  EXPECT_NE(a.salt, b.salt);
  EXPECT_TRUE(a.rounds_explicit);
  const std::string h = shacrypt_hash(text("secret"), a);
  EXPECT_EQ(h, system_crypt("secret", h));
  EXPECT_TRUE(shacrypt_verify(text("secret"), h));
  EXPECT_FALSE(shacrypt_verify(text("Secret"), h));
  EXPECT_FALSE(shacrypt_random_setting(ShaCryptVariant::sha512).rounds_explicit);
  EXPECT_THROW(shacrypt_random_setting(ShaCryptVariant::sha512, 10), InvalidArgument);
}

TEST(ShaCryptApi, UnknownOrIncapableEnginesThrow) {
  ShaCryptSetting s;
  EXPECT_THROW(shacrypt_hash({}, s, "no-such-engine"), EngineUnavailable);
}

// The round templates (cpu and cuda engines) against the step-by-step specification, on every layout and length.
TEST(ShaCryptAlgo, RoundTemplatesEqualTheSpecification) {
  using algo::HashVariant;
  for (HashVariant v : {HashVariant::sha256, HashVariant::sha512}) {
    const std::size_t dlen = algo::shacrypt_digest_size(v);
    for (std::size_t pw_len : {0u, 1u, 20u, 64u, 65u, 130u}) {
      for (std::size_t salt_len : {0u, 5u, 16u}) {
        std::vector<std::uint8_t> pw(pw_len, 'p'), salt(salt_len, 's');
        for (std::size_t i = 0; i < pw_len; ++i) pw[i] = static_cast<std::uint8_t>(i * 7 + 1);
        std::uint8_t c[64], dp[64], ds[64], expected[64];
        algo::shacrypt_prepare(v, pw.data(), pw_len, salt.data(), salt_len, c, dp, ds);
        const std::uint32_t rounds = 1000 + static_cast<std::uint32_t>(pw_len);
        algo::shacrypt_digest(v, pw.data(), pw_len, salt.data(), salt_len, rounds, expected);
        std::vector<std::uint8_t> pattern[algo::kShaCryptPatterns];
        for (int k = 0; k < algo::kShaCryptPatterns; ++k) {
          pattern[k].resize(algo::shacrypt_pattern_blocks(v, k, pw_len, salt_len) * algo::hash_block_size(v));
          algo::shacrypt_build_pattern(v, k, dp, pw_len, ds, salt_len, pattern[k].data());
        }
        for (std::uint32_t i = 0; i < rounds; ++i) {
          const int k = algo::shacrypt_pattern(i);
          std::vector<std::uint8_t>& m = pattern[k];
          std::memcpy(m.data() + algo::shacrypt_pattern_c_offset(v, k, pw_len, salt_len), c, dlen);
          std::uint64_t state[25];
          algo::hash_init(v, state);
          algo::hash_blocks(v, state, m.data(), m.size() / algo::hash_block_size(v));
          algo::hash_output(v, state, c, dlen);
        }
        EXPECT_EQ(std::memcmp(c, expected, dlen), 0) << "digest " << dlen << ", password " << pw_len << ", salt " << salt_len;
      }
    }
  }
}

TEST(ShaCryptDispatch, RunsCoverTheBatchInOrderAndFillLanes) {
  ShaCryptSetting s;
  std::vector<ShaCryptJob> jobs(200);
  for (ShaCryptJob& j : jobs) j.setting = &s;
  for (std::size_t threads : {1u, 2u, 16u}) {
    const std::vector<std::size_t> cuts = engine::shacrypt_runs(jobs, threads);
    ASSERT_GE(cuts.size(), 2u);
    EXPECT_EQ(cuts.front(), 0u);
    EXPECT_EQ(cuts.back(), jobs.size());
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      EXPECT_LT(cuts[k], cuts[k + 1]);
      if (k + 2 < cuts.size()) {
        EXPECT_GE(cuts[k + 1] - cuts[k], engine::kShaCryptMinRun);
      }
    }
    if (threads == 2) {
      EXPECT_EQ(cuts.size() - 1, 8u);  // four runs per thread
    }
  }
}

}  // namespace
}  // namespace cryptaccel

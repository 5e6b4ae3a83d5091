// The age format (include/cryptaccel/age.hpp): Bech32 against BIP 173's vectors, keys, round trips at the chunk
// boundaries and across batches, the armor, several recipients, passphrases, and every kind of damage the format
// must detect (header, MAC, stanza, chunk bytes; truncation at and between chunks; a dropped, swapped or appended
// chunk; a wrong identity) — each refused with nothing released past the last verified chunk. Interoperability with
// the `age` binary is tested from Python (tests/python/test_cli_age.py).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "age/bech32.hpp"
#include "cryptaccel/age.hpp"
#include "cryptaccel/error.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

using age::kChunkBytes;
constexpr std::size_t kSealed = kChunkBytes + 16;

std::uint64_t seed() { return test::seed_or(20261128); }

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

age::EncryptOptions to(const age::Identity& id, std::size_t chunks_per_batch = 0) {
  age::EncryptOptions o;
  o.recipients.push_back(id.recipient());
  o.run.chunks_per_batch = chunks_per_batch;
  return o;
}

age::DecryptOptions with(const age::Identity& id, std::size_t chunks_per_batch = 0) {
  age::DecryptOptions o;
  o.identities.push_back(id);
  o.run.chunks_per_batch = chunks_per_batch;
  return o;
}

/// Where the payload starts in a binary file: after the MAC line and the 16-byte nonce.
std::size_t payload_offset(const bytes& file) {
  const std::string text(file.begin(), file.end());
  const std::size_t mac = text.find("\n--- ");
  return text.find('\n', mac + 1) + 1 + 16;
}

TEST(AgeBech32, Bip173Vectors) {
  for (const char* valid : {"A12UEL5L", "a12uel5l",
                            "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
                            "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
                            "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
                            "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w"})
    EXPECT_TRUE(age::bech32_decode(valid).has_value()) << valid;
  for (const char* invalid : {"pzry9x0s0muk", "1pzry9x0s0muk", "x1b4n0q5v", "li1dgmt3", "A1G7SGD8", "10a06t8", "1qzzfhee",
                              "A12uEL5L", "a12uel5m"})
    EXPECT_FALSE(age::bech32_decode(invalid).has_value()) << invalid;
}

TEST(AgeKeys, TextFormsRoundTripAndAreChecked) {
  const age::Identity id = age::Identity::generate();
  const std::string secret = id.to_string(), pub = id.recipient().to_string();
  EXPECT_EQ(secret.rfind("AGE-SECRET-KEY-1", 0), 0u);
  EXPECT_EQ(secret.size(), 74u);
  EXPECT_EQ(pub.rfind("age1", 0), 0u);
  EXPECT_EQ(pub.size(), 62u);
  EXPECT_EQ(age::Identity::parse(secret).secret(), id.secret());
  EXPECT_EQ(age::Recipient::parse(pub).key(), id.recipient().key());
  std::string flipped = pub;
  flipped[10] = flipped[10] == 'q' ? 'p' : 'q';
  EXPECT_THROW(age::Recipient::parse(flipped), InvalidArgument);
  EXPECT_THROW(age::Recipient::parse(secret), InvalidArgument);
  EXPECT_THROW(age::Identity::parse(pub), InvalidArgument);
  const auto ids = age::parse_identities(age::identity_file(id) + "\n# another comment\n");
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0].secret(), id.secret());
  EXPECT_THROW(age::parse_identities("# nothing\n"), InvalidArgument);
  EXPECT_THROW(age::parse_identities("garbage\n"), InvalidArgument);
}

TEST(Age, RoundTripsAtChunkBoundariesAndAcrossBatches) {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed()));
  const age::Identity id = age::Identity::generate();
  for (const std::size_t batch : {std::size_t{2}, std::size_t{3}, std::size_t{0}}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, kChunkBytes - 1, kChunkBytes, kChunkBytes + 1,
                                2 * kChunkBytes, 3 * kChunkBytes - 7, 5 * kChunkBytes}) {
      const bytes pt = random_bytes(rng, n);
      const bytes file = age::encrypt(pt, to(id, batch));
      // Header, nonce, then every chunk sealed (a last empty chunk only for an empty file).
      const std::size_t chunks = n == 0 ? 1 : (n + kChunkBytes - 1) / kChunkBytes;
      EXPECT_EQ(file.size() - payload_offset(file), n + 16 * chunks) << n;
      for (const std::size_t open_batch : {std::size_t{2}, std::size_t{0}})
        EXPECT_EQ(age::decrypt(file, with(id, open_batch)), pt) << n << " bytes, batches of " << batch;
    }
  }
}

TEST(Age, ArmorAndSeveralRecipients) {
  std::mt19937_64 rng(seed() + 1);
  const age::Identity a = age::Identity::generate(), b = age::Identity::generate(), c = age::Identity::generate();
  age::EncryptOptions o;
  o.recipients = {a.recipient(), b.recipient()};
  o.armor = true;
  for (const std::size_t n : {std::size_t{0}, std::size_t{47}, std::size_t{48}, kChunkBytes + 5}) {
    const bytes pt = random_bytes(rng, n);
    const bytes file = age::encrypt(pt, o);
    const std::string text(file.begin(), file.end());
    ASSERT_EQ(text.rfind("-----BEGIN AGE ENCRYPTED FILE-----\n", 0), 0u);
    ASSERT_TRUE(text.ends_with("-----END AGE ENCRYPTED FILE-----\n"));
    EXPECT_TRUE(age::is_armored(file));
    EXPECT_EQ(age::decrypt(file, with(a)), pt);
    EXPECT_EQ(age::decrypt(file, with(b)), pt);
    EXPECT_THROW(age::decrypt(file, with(c)), AuthenticationFailed);
    // Surrounding whitespace is allowed; other text is not.
    bytes padded = file;
    padded.insert(padded.begin(), {'\n', ' '});
    padded.insert(padded.end(), {'\n', '\n'});
    EXPECT_EQ(age::decrypt(padded, with(a)), pt);
    bytes trailing = file;
    trailing.push_back('x');
    EXPECT_THROW(age::decrypt(trailing, with(a)), InvalidArgument);
  }
}

TEST(Age, PassphrasesAndTheWorkFactorLimit) {
  std::mt19937_64 rng(seed() + 2);
  const bytes pt = random_bytes(rng, 1000);
  age::EncryptOptions o;
  o.passphrase = "correct horse battery staple";
  o.scrypt_log2_n = 10;
  const bytes file = age::encrypt(pt, o);
  EXPECT_TRUE(age::needs_passphrase(file));
  age::DecryptOptions d;
  d.passphrase = o.passphrase;
  EXPECT_EQ(age::decrypt(file, d), pt);
  d.passphrase = "wrong";
  EXPECT_THROW(age::decrypt(file, d), AuthenticationFailed);
  d.passphrase = o.passphrase;
  d.max_scrypt_log2_n = 9;
  EXPECT_THROW(age::decrypt(file, d), InvalidArgument);
  age::EncryptOptions both = o;
  both.recipients.push_back(age::Identity::generate().recipient());
  EXPECT_THROW(age::encrypt(pt, both), InvalidArgument);
  EXPECT_THROW(age::encrypt(pt, age::EncryptOptions{}), InvalidArgument);
}

/// Decrypts `file`, expecting failure; returns what was released before it.
bytes released_before_failure(const bytes& file, const age::Identity& id) {
  bytes released;
  std::size_t at = 0;
  EXPECT_THROW(age::decrypt(
                   [&](mutable_bytes out) {
                     const std::size_t n = std::min(out.size(), file.size() - at);
                     std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(at), n, out.begin());
                     at += n;
                     return n;
                   },
                   [&](bytes_view b) { released.insert(released.end(), b.begin(), b.end()); }, with(id, 2)),
               Error);
  return released;
}

TEST(Age, DamageIsDetectedAndNothingUnverifiedIsReleased) {
  std::mt19937_64 rng(seed() + 3);
  const age::Identity id = age::Identity::generate();
  const bytes pt = random_bytes(rng, 5 * kChunkBytes + 100);  // 6 chunks
  const bytes file = age::encrypt(pt, to(id));
  const std::size_t p = payload_offset(file);
  ASSERT_EQ(file.size(), p + pt.size() + 6 * 16);
  const auto expect_prefix = [&](const bytes& damaged, std::size_t good_chunks, const std::string& what) {
    const bytes got = released_before_failure(damaged, id);
    EXPECT_EQ(got.size(), good_chunks * kChunkBytes) << what;
    EXPECT_TRUE(std::equal(got.begin(), got.end(), pt.begin())) << what;
  };
  // The header: any flipped byte (version line, stanza, MAC) is refused before any payload.
  for (const std::size_t at : {std::size_t{3}, std::size_t{30}, p - 20, p - 18}) {
    bytes bad = file;
    bad[at] ^= 0x01;
    expect_prefix(bad, 0, "header byte " + std::to_string(at));
  }
  // A flipped byte in chunk k: chunks before it are released, nothing after.
  for (std::size_t k = 0; k < 6; ++k) {
    bytes bad = file;
    bad[p + k * kSealed + 7] ^= 0x80;
    expect_prefix(bad, k, "chunk " + std::to_string(k));
  }
  // Truncation at a chunk boundary (the last chunk dropped): every chunk left opens as a middle chunk and is
  // released, as age releases them, and the missing final chunk fails the file. Inside a chunk: that chunk fails.
  expect_prefix(bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(p + 5 * kSealed)), 5, "dropped last");
  expect_prefix(bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(p + 3 * kSealed)), 3, "cut at 3");
  expect_prefix(bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(p + 3 * kSealed + 100)), 3, "cut in 3");
  expect_prefix(bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(p + 10)), 0, "cut in the first tag");
  // Two chunks swapped.
  bytes swapped = file;
  std::swap_ranges(swapped.begin() + static_cast<std::ptrdiff_t>(p + kSealed),
                   swapped.begin() + static_cast<std::ptrdiff_t>(p + 2 * kSealed),
                   swapped.begin() + static_cast<std::ptrdiff_t>(p + 2 * kSealed));
  expect_prefix(swapped, 1, "swapped 1 and 2");
  // Data appended after the last (short) chunk: it becomes part of that chunk, whose tag then fails.
  bytes appended = file;
  appended.insert(appended.end(), 100, 0x41);
  expect_prefix(appended, 5, "appended");
  // A whole sealed chunk's worth appended: the real last chunk is no longer last, and opened as a middle chunk its
  // last-chunk flag fails it.
  bytes extended = file;
  extended.insert(extended.end(), kSealed, 0x41);
  expect_prefix(extended, 5, "extended by a chunk");
  // An empty last chunk after full ones (only an empty file may have one).
  const bytes full = random_bytes(rng, kChunkBytes);
  bytes empty_last = age::encrypt(full, to(id));
  empty_last.insert(empty_last.end(), 16, 0);
  EXPECT_THROW(age::decrypt(empty_last, with(id)), AuthenticationFailed);
  // A header without payload.
  EXPECT_THROW(age::decrypt(bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(p)), with(id)), Error);
}

/// The failure class decrypt() reports for `file` (the test kit's names), or "success".
std::string failure_of(const bytes& file, const age::DecryptOptions& options) {
  try {
    age::decrypt(file, options);
  } catch (const age::MalformedFile& e) {
    return std::string(age::failure_name(e.failure()));
  } catch (const age::OpenFailed& e) {
    return std::string(age::failure_name(e.failure()));
  }
  return "success";
}

TEST(Age, FailuresSayWhichCheckFailed) {
  std::mt19937_64 rng(seed() + 4);
  const age::Identity id = age::Identity::generate();
  const bytes file = age::encrypt(random_bytes(rng, 1000), to(id));
  const std::size_t p = payload_offset(file);
  EXPECT_EQ(failure_of(file, with(id)), "success");
  EXPECT_EQ(failure_of(file, with(age::Identity::generate())), "no match");
  bytes bad = file;
  bad[0] ^= 0x01;  // the version line
  EXPECT_EQ(failure_of(bad, with(id)), "header failure");
  bad = file;
  bad[p - 30] = bad[p - 30] == 'A' ? 'B' : 'A';  // the MAC, still canonical base64 (a middle character)
  EXPECT_EQ(failure_of(bad, with(id)), "HMAC failure");
  bad = file;
  bad[p + 20] ^= 0x01;  // the payload
  EXPECT_EQ(failure_of(bad, with(id)), "payload failure");
  age::DecryptOptions armored = with(id);
  armored.armored = true;
  EXPECT_EQ(failure_of(file, armored), "armor failure");
  age::DecryptOptions passphrase;
  passphrase.passphrase = "not this file's";
  EXPECT_EQ(failure_of(file, passphrase), "no match");
}

}  // namespace
}  // namespace cryptaccel

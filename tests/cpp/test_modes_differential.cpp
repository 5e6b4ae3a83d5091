// Differential tests of every cipher mode against OpenSSL libcrypto (EVP), on every available engine.
//
// Each test runs once per (available engine × cipher name), so engines added later (cpu, cuda) are covered without
// touching this file. Inputs are random but reproducible: every test has a fixed seed, derived from its name and the
// cipher, printed with every failure (set CRYPTACCEL_TEST_SEED to override it). What is checked:
//  - one-shot encrypt() equals OpenSSL, decrypt() of OpenSSL's ciphertext gives the plaintext back (GCM: random IV
//    lengths 1..64, AAD 0..100 bytes, tag lengths 4..16; CTR: counters about to wrap at 2^32, 2^64 and 2^128; XTS:
//    whole-message and 512/4096-byte data units, tweaks about to carry);
//  - run_batch() over many jobs equals one-shot per job, for BatchOptions::threads = 1, 2 and 8, in-place and not;
//  - messages of 100000+ bytes and of 1 MiB, which an engine may split across threads, equal OpenSSL;
//  - failures: GCM tampering -> AuthenticationFailed / auth_failed, bad PKCS#7 padding -> BadDecrypt / bad_decrypt,
//    and a failed job's output buffer holds no plaintext.
#include <gtest/gtest.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "test_util.hpp"

using namespace cryptaccel;
using test::random_bytes;
using test::to_hex;

namespace {

constexpr std::size_t kBlock = 16;
constexpr std::size_t kMiB = std::size_t{1} << 20;

// ================================================================================================================
// OpenSSL EVP, behind small RAII helpers: one per mode family. They take the same inputs as cryptaccel and return
// what cryptaccel should return; std::nullopt where OpenSSL rejects the input (bad padding, bad tag, bad length).
// ================================================================================================================

struct EvpCipherFree {
  void operator()(EVP_CIPHER* c) const { EVP_CIPHER_free(c); }
};
struct EvpCtxFree {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using EvpCipher = std::unique_ptr<EVP_CIPHER, EvpCipherFree>;
using EvpCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, EvpCtxFree>;

/// OpenSSL's name for a cipher: "AES-128-GCM", "SM4-CTR", "AES-256-XTS".
std::string openssl_name(const CipherSpec& spec) {
  std::string name = spec.name();
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

EvpCipher fetch(const CipherSpec& spec) {
  EvpCipher cipher(EVP_CIPHER_fetch(nullptr, openssl_name(spec).c_str(), nullptr));
  ERR_clear_error();
  return cipher;
}

bool openssl_has(const CipherSpec& spec) { return fetch(spec) != nullptr; }

/// Throws with OpenSSL's reason when an EVP call that must succeed fails (a broken test, not a cryptaccel bug).
void ossl_check(int rc, const char* what) {
  if (rc == 1) return;
  char reason[256] = "no OpenSSL error queued";
  if (unsigned long e = ERR_get_error()) ERR_error_string_n(e, reason, sizeof reason);
  ERR_clear_error();
  throw std::runtime_error(std::string("OpenSSL ") + what + " failed: " + reason);
}

/// One EVP_CIPHER_CTX, initialised with the fetched cipher for `spec` and a direction.
class Evp {
 public:
  Evp(const CipherSpec& spec, Direction dir)
      : cipher_(fetch(spec)), ctx_(EVP_CIPHER_CTX_new()), enc_(dir == Direction::encrypt) {
    if (!cipher_) throw std::runtime_error("OpenSSL has no " + openssl_name(spec));
    if (!ctx_) throw std::runtime_error("EVP_CIPHER_CTX_new failed");
    ossl_check(EVP_CipherInit_ex2(ctx_.get(), cipher_.get(), nullptr, nullptr, enc_, nullptr), "EVP_CipherInit_ex2");
  }
  EVP_CIPHER_CTX* get() const { return ctx_.get(); }
  /// Sets the key and/or IV (nullptr keeps the current one).
  void init(const std::uint8_t* key, const std::uint8_t* iv) {
    ossl_check(EVP_CipherInit_ex2(ctx_.get(), nullptr, key, iv, enc_, nullptr), "EVP_CipherInit_ex2 (key/iv)");
  }
  /// EVP_CipherUpdate over `in` into `out` (nullptr: AAD); returns the bytes written.
  std::size_t update(bytes_view in, std::uint8_t* out) {
    if (in.empty()) return 0;
    int n = 0;
    ossl_check(EVP_CipherUpdate(ctx_.get(), out, &n, in.data(), static_cast<int>(in.size())), "EVP_CipherUpdate");
    return static_cast<std::size_t>(n);
  }
  /// EVP_CipherFinal_ex; std::nullopt when OpenSSL rejects the message (padding, tag, length).
  std::optional<std::size_t> final(std::uint8_t* out) {
    int n = 0;
    if (EVP_CipherFinal_ex(ctx_.get(), out, &n) != 1) {
      ERR_clear_error();
      return std::nullopt;
    }
    return static_cast<std::size_t>(n);
  }

 private:
  EvpCipher cipher_;
  EvpCtxPtr ctx_;
  int enc_;
};

/// ECB and CBC, with PKCS#7 padding as spec.padding says.
std::optional<bytes> evp_ecb_cbc(const CipherSpec& spec, Direction dir, bytes_view key, bytes_view iv, bytes_view in) {
  Evp evp(spec, dir);
  evp.init(key.data(), spec.mode == Mode::cbc ? iv.data() : nullptr);
  ossl_check(EVP_CIPHER_CTX_set_padding(evp.get(), spec.padding ? 1 : 0), "EVP_CIPHER_CTX_set_padding");
  bytes out(in.size() + 2 * kBlock);
  std::size_t n = evp.update(in, out.data());
  const auto tail = evp.final(out.data() + n);
  if (!tail) return std::nullopt;
  out.resize(n + *tail);
  return out;
}

/// CTR: the IV is the first counter block; encryption and decryption are the same.
bytes evp_ctr(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view in) {
  Evp evp(spec, Direction::encrypt);
  evp.init(key.data(), iv.data());
  bytes out(in.size() + kBlock);
  std::size_t n = evp.update(in, out.data());
  n += evp.final(out.data() + n).value();
  out.resize(n);
  return out;
}

/// GCM with any IV length and a tag of `tag_len` bytes; returns ciphertext || tag, like cryptaccel::encrypt.
bytes evp_gcm_seal(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view aad, bytes_view pt,
                   std::size_t tag_len) {
  Evp evp(spec, Direction::encrypt);
  ossl_check(EVP_CIPHER_CTX_ctrl(evp.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(iv.size()), nullptr),
             "SET_IVLEN");
  evp.init(key.data(), iv.data());
  evp.update(aad, nullptr);
  bytes out(pt.size() + kBlock);
  std::size_t n = evp.update(pt, out.data());
  n += evp.final(out.data() + n).value();
  out.resize(n + tag_len);
  ossl_check(EVP_CIPHER_CTX_ctrl(evp.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag_len), out.data() + n),
             "GET_TAG");
  return out;
}

/// GCM decryption of ciphertext || tag (tag of `tag_len` bytes); std::nullopt when the tag does not verify.
std::optional<bytes> evp_gcm_open(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view aad,
                                  bytes_view ct_and_tag, std::size_t tag_len) {
  if (ct_and_tag.size() < tag_len) return std::nullopt;
  const bytes_view ct = ct_and_tag.first(ct_and_tag.size() - tag_len);
  bytes tag(ct_and_tag.end() - static_cast<std::ptrdiff_t>(tag_len), ct_and_tag.end());
  Evp evp(spec, Direction::decrypt);
  ossl_check(EVP_CIPHER_CTX_ctrl(evp.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(iv.size()), nullptr),
             "SET_IVLEN");
  evp.init(key.data(), iv.data());
  evp.update(aad, nullptr);
  bytes out(ct.size() + kBlock);
  std::size_t n = evp.update(ct, out.data());
  ossl_check(EVP_CIPHER_CTX_ctrl(evp.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag_len), tag.data()), "SET_TAG");
  const auto tail = evp.final(out.data() + n);
  if (!tail) return std::nullopt;
  out.resize(n + *tail);
  return out;
}

/// (t + n) mod 2^128, t a 16-byte little-endian integer: the XTS tweak of data unit n.
bytes le128_plus(bytes_view t, std::uint64_t n) {
  bytes out(t.begin(), t.end());
  unsigned carry = 0;
  for (std::size_t i = 0; i < 16; ++i, n >>= 8) {
    const unsigned sum = out[i] + static_cast<unsigned>(n & 0xFF) + carry;
    out[i] = static_cast<std::uint8_t>(sum);
    carry = sum >> 8;
  }
  return out;
}

/// XTS, one EVP call per data unit of `unit` bytes (0: the whole message), unit i with tweak iv + i (little-endian).
/// std::nullopt when OpenSSL refuses (equal key halves, a data unit shorter than 16 bytes).
std::optional<bytes> evp_xts(const CipherSpec& spec, Direction dir, bytes_view key, bytes_view iv, bytes_view in,
                             std::size_t unit) {
  Evp evp(spec, dir);
  if (EVP_CipherInit_ex2(evp.get(), nullptr, key.data(), iv.data(), dir == Direction::encrypt, nullptr) != 1) {
    ERR_clear_error();
    return std::nullopt;
  }
  const std::size_t step = unit == 0 ? in.size() : unit;
  bytes out(in.size());
  std::size_t pos = 0;
  std::uint64_t index = 0;
  do {  // once per data unit (once for an empty message, which OpenSSL refuses)
    const bytes tweak = le128_plus(iv, index++);
    evp.init(nullptr, tweak.data());
    const bytes_view piece = in.subspan(pos, std::min(step, in.size() - pos));
    int n = 0;
    if (EVP_CipherUpdate(evp.get(), out.data() + pos, &n, piece.data(), static_cast<int>(piece.size())) != 1 ||
        static_cast<std::size_t>(n) != piece.size()) {
      ERR_clear_error();
      return std::nullopt;
    }
    pos += step;
  } while (pos < in.size());
  return out;
}

// ================================================================================================================
// Test cases: random keys, IVs, AAD, tag lengths and messages.
// ================================================================================================================

/// One encryption's inputs.
struct Case {
  bytes key, iv, aad, pt;
  std::size_t tag_len = 16;
  std::size_t xts_unit = 0;

  CipherParams params() const { return CipherParams{key, iv, aad, tag_len, xts_unit}; }
  std::string describe() const {
    std::ostringstream s;
    s << "len=" << pt.size() << " key=" << to_hex(key) << " iv=" << to_hex(iv) << " (" << iv.size() << " bytes)";
    if (!aad.empty()) s << " aad_len=" << aad.size();
    s << " tag_len=" << tag_len << " xts_unit=" << xts_unit;
    return s.str();
  }
};

/// What cryptaccel::encrypt should return for `c`, according to OpenSSL (GCM: ciphertext || tag).
std::optional<bytes> openssl_encrypt(const CipherSpec& spec, const Case& c) {
  switch (spec.mode) {
    case Mode::ecb:
    case Mode::cbc: return evp_ecb_cbc(spec, Direction::encrypt, c.key, c.iv, c.pt);
    case Mode::ctr: return evp_ctr(spec, c.key, c.iv, c.pt);
    case Mode::gcm:
    case Mode::poly1305: return evp_gcm_seal(spec, c.key, c.iv, c.aad, c.pt, c.tag_len);  // EVP's AEAD calls
    case Mode::xts: return evp_xts(spec, Direction::encrypt, c.key, c.iv, c.pt, c.xts_unit);
  }
  return std::nullopt;
}

/// What cryptaccel::decrypt should return for `ct` under `c`'s key, IV, AAD and tag length, according to OpenSSL.
std::optional<bytes> openssl_decrypt(const CipherSpec& spec, const Case& c, bytes_view ct) {
  switch (spec.mode) {
    case Mode::ecb:
    case Mode::cbc: return evp_ecb_cbc(spec, Direction::decrypt, c.key, c.iv, ct);
    case Mode::ctr: return evp_ctr(spec, c.key, c.iv, ct);
    case Mode::gcm:
    case Mode::poly1305: return evp_gcm_open(spec, c.key, c.iv, c.aad, ct, c.tag_len);
    case Mode::xts: return evp_xts(spec, Direction::decrypt, c.key, c.iv, ct, c.xts_unit);
  }
  return std::nullopt;
}

std::size_t uniform(std::mt19937_64& rng, std::size_t lo, std::size_t hi) {  // inclusive
  return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
}

/// Message lengths: the edge cases first, then a mix biased to short messages with some of 64 KiB and more.
constexpr std::size_t kEdgeLengths[] = {0, 1, 15, 16, 17, 31, 32, 33, 48, 64,  // the first 10 are the short ones
                                        255, 256, 257, 4096, 4111, 65536, 65553, 100000};

std::size_t pick_length(std::mt19937_64& rng, std::size_t index) {
  if (index < std::size(kEdgeLengths)) return kEdgeLengths[index];
  const auto r = rng() % 10;
  if (r < 4) return uniform(rng, 0, 4096);
  if (r < 5) return kBlock * uniform(rng, 0, 256);
  if (r < 7) return uniform(rng, 0, 100000);
  if (r < 8) return kBlock * uniform(rng, 0, 100000 / kBlock);
  return uniform(rng, 65536, 100000);  // at least 64 KiB
}

/// Adjusts a length to what `spec` accepts: block multiples without padding; XTS at least 16 bytes and no data unit
/// shorter than 16 bytes.
std::size_t fit_length(const CipherSpec& spec, std::size_t len, std::size_t xts_unit) {
  if ((spec.mode == Mode::ecb || spec.mode == Mode::cbc) && !spec.padding) len -= len % kBlock;
  if (spec.mode == Mode::xts) {
    if (len < kBlock) len += kBlock;
    if (xts_unit != 0 && len % xts_unit != 0 && len % xts_unit < kBlock) len += kBlock;
  }
  return len;
}

/// A CTR initial counter block: random, or a few blocks short of a carry out of the low 32 bits, the low 64 bits, or
/// out of all 128 bits (ff..ff fe and friends), so that long messages cross it.
bytes ctr_counter_block(std::mt19937_64& rng) {
  bytes iv = random_bytes(rng, 16);
  const auto below = static_cast<std::uint8_t>(0xFF - rng() % 64);
  switch (rng() % 6) {
    case 0:  // ff..ff fe: the second block is ff..ff, the third 00..00
      std::fill(iv.begin(), iv.end(), 0xFF), iv[15] = 0xFE;
      break;
    case 1:  // all 128 bits wrap after a few blocks
      std::fill(iv.begin(), iv.end(), 0xFF), iv[15] = below;
      break;
    case 2:  // the low 64 bits wrap and carry into the high 64
      std::fill(iv.begin() + 8, iv.end(), 0xFF), iv[15] = below;
      break;
    case 3:  // the low 32 bits wrap (GCM's inc32 would not carry; CTR must)
      std::fill(iv.begin() + 12, iv.end(), 0xFF), iv[15] = below;
      break;
    default: break;
  }
  return iv;
}

/// The XTS tweak of the first data unit: random, or about to carry out of byte 7 (64 bits) or out of all 128 bits.
bytes xts_first_tweak(std::mt19937_64& rng) {
  bytes iv = random_bytes(rng, 16);
  const auto below = static_cast<std::uint8_t>(0xFF - rng() % 64);
  switch (rng() % 4) {
    case 0: std::fill(iv.begin(), iv.begin() + 8, 0xFF), iv[0] = below; break;
    case 1: std::fill(iv.begin(), iv.end(), 0xFF), iv[0] = below; break;
    default: break;
  }
  return iv;
}

/// GCM nonce lengths 1..64, 12 (the direct J0 path) most often.
std::size_t gcm_iv_length(std::mt19937_64& rng) {
  const auto r = rng() % 8;
  if (r < 3) return 12;
  if (r < 4) return std::vector<std::size_t>{1, 8, 11, 13, 16, 64}[rng() % 6];
  return uniform(rng, 1, 64);
}

/// A random case of `len` bytes (fitted to the mode) for `spec`.
Case make_case(const CipherSpec& spec, std::mt19937_64& rng, std::size_t len, std::size_t xts_unit = 0) {
  Case c;
  c.key = random_bytes(rng, spec.key_size());
  if (spec.mode == Mode::xts &&
      std::equal(c.key.begin(), c.key.begin() + c.key.size() / 2, c.key.begin() + c.key.size() / 2))
    c.key[0] ^= 1;  // IEEE 1619 wants different halves (and OpenSSL refuses equal ones)
  switch (spec.mode) {
    case Mode::ecb: break;
    case Mode::cbc: c.iv = random_bytes(rng, 16); break;
    case Mode::ctr: c.iv = ctr_counter_block(rng); break;
    case Mode::gcm:
      c.iv = random_bytes(rng, gcm_iv_length(rng));
      c.aad = random_bytes(rng, rng() % 4 == 0 ? 0 : uniform(rng, 0, 100));
      c.tag_len = rng() % 3 == 0 ? 16 : uniform(rng, 4, 16);
      break;
    case Mode::xts:
      c.iv = xts_first_tweak(rng);
      c.xts_unit = xts_unit;
      break;
    case Mode::poly1305:
      c.iv = random_bytes(rng, 12);
      c.aad = random_bytes(rng, rng() % 4 == 0 ? 0 : uniform(rng, 0, 100));
      c.tag_len = 16;
      break;
  }
  c.pt = random_bytes(rng, fit_length(spec, len, xts_unit));
  return c;
}

// ================================================================================================================
// Assertions
// ================================================================================================================

/// Byte equality with a short message: sizes and the first difference (never megabytes of hex).
::testing::AssertionResult SameBytes(bytes_view got, bytes_view want) {
  if (got.size() == want.size() && std::equal(got.begin(), got.end(), want.begin()))
    return ::testing::AssertionSuccess();
  const std::size_t common = std::min(got.size(), want.size());
  const std::size_t at =
      static_cast<std::size_t>(std::mismatch(got.begin(), got.begin() + common, want.begin()).first - got.begin());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < common; ++i) differing += got[i] != want[i];
  auto window = [&](bytes_view v) {
    return to_hex(v.subspan(std::min(at, v.size()), std::min<std::size_t>(16, v.size() - std::min(at, v.size()))));
  };
  return ::testing::AssertionFailure() << "got " << got.size() << " bytes, expected " << want.size() << "; "
                                       << differing << " bytes differ, first at offset " << at << " (block "
                                       << at / kBlock << "): got " << window(got) << ", expected " << window(want);
}

/// After a failed job, `out` must not hold plaintext: no 16-byte block (nor a final partial block of 8+ bytes) of
/// `out` may equal the corresponding block of `plaintext`.
::testing::AssertionResult HoldsNoPlaintext(bytes_view out, bytes_view plaintext) {
  const std::size_t n = std::min(out.size(), plaintext.size());
  std::size_t leaked = 0, first = 0;
  for (std::size_t off = 0; off < n; off += kBlock) {
    const std::size_t len = std::min(kBlock, n - off);
    if (len < 8) break;
    if (std::equal(out.begin() + off, out.begin() + off + len, plaintext.begin() + off)) {
      if (leaked++ == 0) first = off;
    }
  }
  if (leaked == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << leaked << " of " << (n + kBlock - 1) / kBlock
                                       << " blocks of the output buffer"
                                       << " hold plaintext after a failed decryption, the first at offset " << first;
}

std::string_view status_name(JobStatus s) {
  switch (s) {
    case JobStatus::pending: return "pending";
    case JobStatus::ok: return "ok";
    case JobStatus::auth_failed: return "auth_failed";
    case JobStatus::bad_decrypt: return "bad_decrypt";
    case JobStatus::invalid_argument: return "invalid_argument";
  }
  return "?";
}

// ================================================================================================================
// Batches
// ================================================================================================================

/// One job's result, read back after run_batch.
struct JobOutcome {
  JobStatus status = JobStatus::pending;
  std::string error;
  bytes out;     ///< out[0, out_len), followed by the tag for GCM encryption: comparable with encrypt()/decrypt()
  bytes buffer;  ///< the whole output buffer after the call
};

/// Runs one batch of `cases` in direction `dir`. `inputs[i]` is job i's input (GCM decryption: ciphertext || tag).
/// In-place jobs use one buffer for `in` and `out` (with room for the padding); others read a separate copy and write
/// into a buffer prefilled with 0xA5.
std::vector<JobOutcome> run_jobs(const CipherSpec& spec, Direction dir, const std::vector<Case>& cases,
                                 const std::vector<bytes>& inputs, const BatchOptions& options, bool in_place) {
  const std::size_t n = cases.size();
  std::vector<bytes> sources(n), buffers(n), tags(n);
  std::vector<CipherJob> jobs(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Case& c = cases[i];
    bytes_view body = inputs[i];
    if (spec.is_aead()) {
      if (dir == Direction::decrypt) {
        body = body.first(body.size() - c.tag_len);
        tags[i].assign(inputs[i].end() - static_cast<std::ptrdiff_t>(c.tag_len), inputs[i].end());
      } else {
        tags[i].assign(c.tag_len, 0);
      }
    }
    const std::size_t capacity =
        dir == Direction::encrypt && spec.pads() ? encrypted_size(spec, body.size()) : body.size();
    if (in_place) {
      buffers[i].assign(body.begin(), body.end());
      buffers[i].resize(capacity, 0);
      jobs[i].in = bytes_view(buffers[i]).first(body.size());
    } else {
      sources[i].assign(body.begin(), body.end());
      buffers[i].assign(capacity, 0xA5);
      jobs[i].in = sources[i];
    }
    jobs[i].key = c.key;
    jobs[i].iv = c.iv;
    jobs[i].aad = c.aad;
    jobs[i].out = buffers[i];
    jobs[i].tag = tags[i];
  }
  const BatchReport report = run_batch(spec, dir, jobs, options);
  EXPECT_EQ(report.engine, options.engine);
  EXPECT_EQ(report.succeeded + report.failed, n);
  std::vector<JobOutcome> outcomes(n);
  for (std::size_t i = 0; i < n; ++i) {
    JobOutcome& o = outcomes[i];
    o.status = jobs[i].status;
    o.error = jobs[i].error;
    if (o.status == JobStatus::ok) {
      o.out.assign(buffers[i].begin(),
                   buffers[i].begin() + static_cast<std::ptrdiff_t>(std::min(jobs[i].out_len, buffers[i].size())));
      if (spec.is_aead() && dir == Direction::encrypt) o.out.insert(o.out.end(), tags[i].begin(), tags[i].end());
    }
    o.buffer = std::move(buffers[i]);
  }
  return outcomes;
}

/// Checks that every job succeeded with the expected output.
void expect_outputs(const std::vector<JobOutcome>& outcomes, const std::vector<bytes>& expected,
                    const std::vector<Case>& cases) {
  ASSERT_EQ(outcomes.size(), expected.size());
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    SCOPED_TRACE("job " + std::to_string(i) + ": " + cases[i].describe());
    EXPECT_EQ(status_name(outcomes[i].status), "ok") << outcomes[i].error;
    EXPECT_TRUE(SameBytes(outcomes[i].out, expected[i]));
  }
}

/// Checks a batch where job `bad` must fail with `status` and release no plaintext, and every other job must succeed
/// with its plaintext back.
void expect_only_failure(const std::vector<JobOutcome>& outcomes, const std::vector<Case>& cases, std::size_t bad,
                         std::string_view status) {
  ASSERT_EQ(outcomes.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("job " + std::to_string(i) + ": " + cases[i].describe());
    if (i == bad) {
      EXPECT_EQ(status_name(outcomes[i].status), status) << outcomes[i].error;
      EXPECT_TRUE(HoldsNoPlaintext(outcomes[i].buffer, cases[i].pt));
    } else {
      EXPECT_EQ(status_name(outcomes[i].status), "ok") << outcomes[i].error;
      EXPECT_TRUE(SameBytes(outcomes[i].out, cases[i].pt));
    }
  }
}

std::string describe_run(Direction dir, std::size_t threads, bool in_place) {
  return std::string(dir == Direction::encrypt ? "encrypt" : "decrypt") + " threads=" + std::to_string(threads) +
         (in_place ? " in-place" : " out-of-place");
}

// ================================================================================================================
// Fixtures: one test per (available engine, cipher)
// ================================================================================================================

using Param = std::tuple<std::string, std::string>;  // engine name, cipher name

std::vector<std::string> available_engines() {
  std::vector<std::string> names;
  for (const EngineInfo& e : engines())
    if (e.available) names.push_back(e.name);
  return names;
}

std::vector<std::string> ciphers_with(std::initializer_list<Mode> modes) {
  std::vector<std::string> names;
  for (const std::string& name : cipher_names())
    if (std::find(modes.begin(), modes.end(), CipherSpec::parse(name).mode) != modes.end()) names.push_back(name);
  return names;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

class Differential : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    engine_ = std::get<0>(GetParam());
    spec_ = CipherSpec::parse(std::get<1>(GetParam()));
    // The seed depends on the test and the cipher, not on the engine: every engine sees the same inputs.
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string test = std::string(info->name()).substr(0, std::string(info->name()).find('/'));
    seed_ = fnv1a(test + "/" + spec_.name());
    if (const char* s = std::getenv("CRYPTACCEL_TEST_SEED")) seed_ = std::strtoull(s, nullptr, 0);
    rng_.seed(seed_);
    trace_.emplace(__FILE__, __LINE__,
                   "engine=" + engine_ + " cipher=" + spec_.name() + " seed=" + std::to_string(seed_) +
                       " (reproduce with CRYPTACCEL_TEST_SEED=" + std::to_string(seed_) + ")");
    for (Direction dir : {Direction::encrypt, Direction::decrypt}) {
      try {
        resolve_engine(engine_, spec_, dir);
      } catch (const EngineUnavailable& e) {
        GTEST_SKIP() << e.what();
      }
    }
  }
  void TearDown() override { trace_.reset(); }

  /// ECB and CBC run with and without PKCS#7 padding; other modes once.
  std::vector<CipherSpec> padding_variants() const {
    if (spec_.mode != Mode::ecb && spec_.mode != Mode::cbc) return {spec_};
    CipherSpec unpadded = spec_;
    unpadded.padding = false;
    return {spec_, unpadded};
  }
  static std::string describe(const CipherSpec& spec) {
    return spec.name() + ((spec.mode == Mode::ecb || spec.mode == Mode::cbc)
                              ? (spec.padding ? " padding=pkcs7" : " padding=none")
                              : "");
  }
  BatchOptions options(std::size_t threads, std::size_t xts_unit = 0) const {
    BatchOptions o;
    o.engine = engine_;
    o.xts_unit = xts_unit;
    o.threads = threads;
    return o;
  }
  /// Runs `cases` as one batch on inputs[i] and checks that job i succeeded with output expected[i].
  void expect_batch(const CipherSpec& spec, Direction dir, const std::vector<Case>& cases,
                    const std::vector<bytes>& inputs, const std::vector<bytes>& expected, std::size_t threads,
                    bool in_place, std::size_t xts_unit = 0) const {
    SCOPED_TRACE(describe_run(dir, threads, in_place));
    expect_outputs(run_jobs(spec, dir, cases, inputs, options(threads, xts_unit), in_place), expected, cases);
  }
  std::string skip_reason() const {
    return std::string(OpenSSL_version(OPENSSL_VERSION)) + " has no " + openssl_name(spec_) +
           " (EVP_CIPHER_fetch returned NULL): not compared with OpenSSL";
  }

  std::string engine_;
  CipherSpec spec_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
  std::optional<::testing::ScopedTrace> trace_;
};

#define REQUIRE_OPENSSL()                                   \
  do {                                                      \
    if (!openssl_has(spec_)) GTEST_SKIP() << skip_reason(); \
  } while (0)

class ModesDifferential : public Differential {};
class PaddedModesDifferential : public Differential {};
class GcmDifferential : public Differential {};
class CtrDifferential : public Differential {};
class XtsDifferential : public Differential {};

// ================================================================================================================
// Every cipher
// ================================================================================================================

constexpr std::size_t kOneShotCases = 30;

TEST_P(ModesDifferential, OneShotMatchesOpenSSL) {
  REQUIRE_OPENSSL();
  for (const CipherSpec& spec : padding_variants()) {
    SCOPED_TRACE(describe(spec));
    for (std::size_t i = 0; i < kOneShotCases; ++i) {
      const std::size_t unit = spec.mode == Mode::xts ? std::vector<std::size_t>{0, 512, 4096}[rng_() % 3] : 0;
      const Case c = make_case(spec, rng_, pick_length(rng_, i), unit);
      SCOPED_TRACE("case " + std::to_string(i) + ": " + c.describe());
      const std::optional<bytes> expected = openssl_encrypt(spec, c);
      ASSERT_TRUE(expected.has_value()) << "OpenSSL refused a valid input (test bug)";
      std::string used;
      const bytes got = encrypt(spec, c.params(), c.pt, engine_, &used);
      EXPECT_EQ(used, engine_);
      EXPECT_TRUE(SameBytes(got, *expected)) << "encrypt";
      if (spec.is_aead() && got.size() == expected->size()) {
        const std::size_t body = c.pt.size();
        EXPECT_EQ(to_hex(bytes_view(got).subspan(body)), to_hex(bytes_view(*expected).subspan(body))) << "GCM tag";
      }
      bytes back;
      EXPECT_NO_THROW(back = decrypt(spec, c.params(), *expected, engine_)) << "decrypt of OpenSSL's ciphertext";
      EXPECT_TRUE(SameBytes(back, c.pt)) << "decrypt of OpenSSL's ciphertext";
    }
  }
}

TEST_P(ModesDifferential, BatchMatchesOneShotForAnyThreadCount) {
  const bool have_openssl = openssl_has(spec_);
  for (const CipherSpec& spec : padding_variants()) {
    const std::vector<std::size_t> units =
        spec.mode == Mode::xts ? std::vector<std::size_t>{0, 512} : std::vector<std::size_t>{0};
    for (std::size_t unit : units) {
      SCOPED_TRACE(describe(spec) + " xts_unit=" + std::to_string(unit));
      // Many short jobs with their own keys and lengths, and one over 100000 bytes that an engine may split.
      std::vector<Case> cases;
      for (std::size_t i = 0; i < 24; ++i)
        cases.push_back(make_case(spec, rng_, i < 10 ? kEdgeLengths[i] : uniform(rng_, 0, 3000), unit));
      cases.insert(cases.begin() + 11, make_case(spec, rng_, uniform(rng_, 100000, 140000), unit));
      std::vector<bytes> pts, cts;
      for (const Case& c : cases) {
        pts.push_back(c.pt);
        cts.push_back(encrypt(spec, c.params(), c.pt, engine_));
        if (have_openssl) {
          EXPECT_TRUE(SameBytes(cts.back(), openssl_encrypt(spec, c).value())) << c.describe();
        }
      }
      for (std::size_t threads : {1u, 2u, 8u}) {
        for (bool in_place : {false, true}) {
          if (in_place && threads == 2) continue;  // in-place at 1 and 8 threads is enough
          expect_batch(spec, Direction::encrypt, cases, pts, cts, threads, in_place, unit);
          expect_batch(spec, Direction::decrypt, cases, cts, pts, threads, in_place, unit);
        }
      }
    }
  }
}

TEST_P(ModesDifferential, LargeMessagesSplitAcrossThreadsMatchOpenSSL) {
  REQUIRE_OPENSSL();
  for (const CipherSpec& spec : padding_variants()) {
    const std::vector<std::size_t> units =
        spec.mode == Mode::xts ? std::vector<std::size_t>{0, 4096} : std::vector<std::size_t>{0};
    for (std::size_t unit : units) {
      SCOPED_TRACE(describe(spec) + " xts_unit=" + std::to_string(unit));
      // 1 MiB + 33 bytes (a partial final block where the mode allows), between short jobs.
      std::vector<Case> cases;
      for (std::size_t len : {std::size_t{17}, kMiB + 33, std::size_t{4096}, std::size_t{100001}})
        cases.push_back(make_case(spec, rng_, len, unit));
      std::vector<bytes> pts, cts;
      for (const Case& c : cases) {
        pts.push_back(c.pt);
        cts.push_back(openssl_encrypt(spec, c).value());
      }
      for (std::size_t threads : {8u, 2u}) {
        const bool in_place = threads == 2;  // encryption in place at 2 threads, decryption at 8
        expect_batch(spec, Direction::encrypt, cases, pts, cts, threads, in_place, unit);
        expect_batch(spec, Direction::decrypt, cases, cts, pts, threads, !in_place, unit);
      }
    }
  }
}

// ================================================================================================================
// ECB and CBC: PKCS#7 padding
// ================================================================================================================

/// `blocks` random blocks whose last block is not valid PKCS#7 padding, in one of several ways.
bytes bad_padding_plaintext(std::mt19937_64& rng, std::size_t blocks, unsigned kind) {
  bytes pt = random_bytes(rng, blocks * kBlock);
  std::uint8_t* last = pt.data() + pt.size() - kBlock;
  switch (kind % 4) {
    case 0: last[15] = 0; break;                                                 // pad length 0
    case 1: last[15] = static_cast<std::uint8_t>(uniform(rng, 17, 255)); break;  // pad length > 16
    case 2: {                                                                    // n bytes of n, one wrong
      const unsigned n = static_cast<unsigned>(uniform(rng, 2, 16));
      std::fill(last + 16 - n, last + 16, static_cast<std::uint8_t>(n));
      last[16 - n + rng() % (n - 1)] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      break;
    }
    default: {  // 16 bytes of 16, the first one wrong
      std::fill(last, last + 16, 16);
      last[0] = static_cast<std::uint8_t>(uniform(rng, 0, 15));
      break;
    }
  }
  return pt;
}

TEST_P(PaddedModesDifferential, EveryPaddingLengthRoundTrips) {
  REQUIRE_OPENSSL();
  for (std::size_t len = 0; len <= 48; ++len) {
    const Case c = make_case(spec_, rng_, len);
    SCOPED_TRACE(c.describe());
    const bytes expected = openssl_encrypt(spec_, c).value();
    EXPECT_TRUE(SameBytes(encrypt(spec_, c.params(), c.pt, engine_), expected));
    bytes back;
    EXPECT_NO_THROW(back = decrypt(spec_, c.params(), expected, engine_));
    EXPECT_TRUE(SameBytes(back, c.pt));
  }
}

TEST_P(PaddedModesDifferential, BadPaddingIsBadDecrypt) {
  REQUIRE_OPENSSL();
  CipherSpec unpadded = spec_;
  unpadded.padding = false;
  for (unsigned i = 0; i < 40; ++i) {
    Case c = make_case(unpadded, rng_, 0);
    c.pt = bad_padding_plaintext(rng_, 1 + rng_() % 8, i);
    SCOPED_TRACE("case " + std::to_string(i) + ": " + c.describe() + " last block " +
                 to_hex(bytes_view(c.pt).last(kBlock)));
    const bytes ct = openssl_encrypt(unpadded, c).value();
    ASSERT_FALSE(openssl_decrypt(spec_, c, ct).has_value()) << "OpenSSL accepts this padding (test bug)";
    EXPECT_THROW(decrypt(spec_, c.params(), ct, engine_), BadDecrypt);
    bytes raw;
    EXPECT_NO_THROW(raw = decrypt(unpadded, c.params(), ct, engine_));
    EXPECT_TRUE(SameBytes(raw, c.pt)) << "without padding the same ciphertext decrypts";
  }
  // Ciphertext lengths that are not a positive multiple of the block size.
  for (std::size_t len : {0u, 1u, 15u, 17u, 33u, 4095u}) {
    const Case c = make_case(spec_, rng_, 0);
    const bytes ct = random_bytes(rng_, len);
    SCOPED_TRACE("ciphertext length " + std::to_string(len));
    EXPECT_FALSE(openssl_decrypt(spec_, c, ct).has_value());
    EXPECT_THROW(decrypt(spec_, c.params(), ct, engine_), BadDecrypt);
    if (len % kBlock) {
      EXPECT_FALSE(openssl_decrypt(unpadded, c, ct).has_value());
      EXPECT_THROW(decrypt(unpadded, c.params(), ct, engine_), BadDecrypt);
      Case p = c;
      p.pt = ct;
      EXPECT_FALSE(openssl_encrypt(unpadded, p).has_value());
      EXPECT_THROW(encrypt(unpadded, p.params(), p.pt, engine_), InvalidArgument);
    }
  }
}

TEST_P(PaddedModesDifferential, LargeBadPaddingReleasesNoPlaintext) {
  REQUIRE_OPENSSL();
  CipherSpec unpadded = spec_;
  unpadded.padding = false;
  // A batch of good jobs around a 1 MiB ciphertext whose padding is bad: only that job fails, and its output buffer
  // holds no plaintext, whatever the thread count and in-place or not.
  std::vector<Case> cases;
  for (std::size_t len : {std::size_t{100}, kMiB, std::size_t{5000}, std::size_t{100000}})
    cases.push_back(make_case(spec_, rng_, len));
  const std::size_t bad = 1;
  cases[bad].pt = bad_padding_plaintext(rng_, kMiB / kBlock, static_cast<unsigned>(rng_()));
  std::vector<bytes> cts;
  for (std::size_t i = 0; i < cases.size(); ++i)
    cts.push_back(openssl_encrypt(i == bad ? unpadded : spec_, cases[i]).value());
  ASSERT_FALSE(openssl_decrypt(spec_, cases[bad], cts[bad]).has_value());
  for (std::size_t threads : {8u, 1u}) {
    for (bool in_place : {false, true}) {
      SCOPED_TRACE(describe_run(Direction::decrypt, threads, in_place));
      expect_only_failure(run_jobs(spec_, Direction::decrypt, cases, cts, options(threads), in_place), cases, bad,
                          "bad_decrypt");
    }
  }
}

TEST_P(PaddedModesDifferential, LargeCiphertextNotInWholeBlocksReleasesNoPlaintext) {
  REQUIRE_OPENSSL();
  // 1 MiB of whole blocks and 5 stray bytes: bad_decrypt with and without padding, and no plaintext in the output,
  // even where an engine decrypted the whole blocks in pieces before reaching the stray ones.
  for (const CipherSpec& spec : padding_variants()) {
    CipherSpec unpadded = spec;
    unpadded.padding = false;
    std::vector<Case> cases;
    for (std::size_t len : {std::size_t{64}, kMiB, std::size_t{3000}}) cases.push_back(make_case(unpadded, rng_, len));
    std::vector<bytes> cts;
    for (const Case& c : cases) cts.push_back(openssl_encrypt(unpadded, c).value());
    const std::size_t bad = 1;
    const bytes stray = random_bytes(rng_, 5);
    cts[bad].insert(cts[bad].end(), stray.begin(), stray.end());
    ASSERT_FALSE(openssl_decrypt(spec, cases[bad], cts[bad]).has_value());
    if (spec.padding) {  // the good jobs need valid padding: re-encrypt them with it
      for (std::size_t i = 0; i < cases.size(); ++i)
        if (i != bad) cts[i] = openssl_encrypt(spec, cases[i]).value();
    }
    for (std::size_t threads : {8u, 2u}) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(describe(spec) + " " + describe_run(Direction::decrypt, threads, in_place));
        expect_only_failure(run_jobs(spec, Direction::decrypt, cases, cts, options(threads), in_place), cases, bad,
                            "bad_decrypt");
      }
    }
  }
}

// ================================================================================================================
// GCM: tags and tampering
// ================================================================================================================

void flip_random_bit(std::mt19937_64& rng, std::uint8_t* data, std::size_t len) {
  data[rng() % len] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
}

TEST_P(GcmDifferential, TamperingIsAuthenticationFailed) {
  // Runs without OpenSSL too (SM4-GCM): tampering must fail whatever the reference; OpenSSL must agree when present.
  const bool have_openssl = openssl_has(spec_);
  for (std::size_t i = 0; i < 40; ++i) {
    const Case c = make_case(spec_, rng_, i < 10 ? kEdgeLengths[i] : uniform(rng_, 0, 5000));
    SCOPED_TRACE("case " + std::to_string(i) + ": " + c.describe());
    const bytes sealed = encrypt(spec_, c.params(), c.pt, engine_);
    if (have_openssl) {
      EXPECT_TRUE(SameBytes(sealed, openssl_encrypt(spec_, c).value()));
    }
    bytes back;
    EXPECT_NO_THROW(back = decrypt(spec_, c.params(), sealed, engine_));
    EXPECT_TRUE(SameBytes(back, c.pt));

    auto expect_rejected = [&](const char* what, const Case& forged, const bytes& ct) {
      SCOPED_TRACE(what);
      EXPECT_THROW(decrypt(spec_, forged.params(), ct, engine_), AuthenticationFailed);
      if (have_openssl) {
        EXPECT_FALSE(openssl_decrypt(spec_, forged, ct).has_value()) << "OpenSSL accepts it (test bug)";
      }
    };
    const std::size_t body = c.pt.size();
    if (body > 0) {
      bytes ct = sealed;
      flip_random_bit(rng_, ct.data(), body);
      expect_rejected("ciphertext bit flipped", c, ct);
    }
    {
      bytes ct = sealed;
      flip_random_bit(rng_, ct.data() + body, c.tag_len);
      expect_rejected("tag bit flipped", c, ct);
    }
    {
      Case forged = c;
      if (forged.aad.empty())
        forged.aad.push_back(static_cast<std::uint8_t>(rng_()));
      else
        flip_random_bit(rng_, forged.aad.data(), forged.aad.size());
      expect_rejected(c.aad.empty() ? "AAD added" : "AAD bit flipped", forged, sealed);
    }
    if (!c.aad.empty()) {
      Case forged = c;
      forged.aad.pop_back();
      expect_rejected("AAD truncated", forged, sealed);
    }
    {
      Case forged = c;
      flip_random_bit(rng_, forged.iv.data(), forged.iv.size());
      expect_rejected("nonce bit flipped", forged, sealed);
    }
  }
}

TEST_P(GcmDifferential, LargeTamperedMessageReleasesNoPlaintext) {
  // A batch of good jobs around a tampered 1 MiB + 5 message: only that job fails, and its output holds no plaintext.
  std::vector<Case> cases;
  for (std::size_t len : {std::size_t{100}, kMiB + 5, std::size_t{100000}})
    cases.push_back(make_case(spec_, rng_, len));
  std::vector<bytes> sealed;
  for (const Case& c : cases) sealed.push_back(encrypt(spec_, c.params(), c.pt, engine_));
  if (openssl_has(spec_)) {
    EXPECT_TRUE(SameBytes(sealed[1], openssl_encrypt(spec_, cases[1]).value()));
  }
  const std::size_t bad = 1, body = cases[bad].pt.size();
  for (const char* what : {"last ciphertext block", "first ciphertext block", "tag", "aad"}) {
    std::vector<Case> forged_cases = cases;
    std::vector<bytes> inputs = sealed;
    const std::string w = what;
    if (w == "last ciphertext block") flip_random_bit(rng_, inputs[bad].data() + body - 5, 5);
    if (w == "first ciphertext block") flip_random_bit(rng_, inputs[bad].data(), kBlock);
    if (w == "tag") flip_random_bit(rng_, inputs[bad].data() + body, cases[bad].tag_len);
    if (w == "aad") forged_cases[bad].aad.push_back(0);
    for (std::size_t threads : {8u, 1u}) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(std::string("tampered: ") + what + ", " + describe_run(Direction::decrypt, threads, in_place));
        expect_only_failure(run_jobs(spec_, Direction::decrypt, forged_cases, inputs, options(threads), in_place),
                            cases, bad, "auth_failed");
      }
    }
  }
}

// ================================================================================================================
// CTR: one 128-bit big-endian counter
// ================================================================================================================

/// n successive counter blocks from `iv`, incremented as one 128-bit big-endian integer.
bytes counter_blocks(bytes_view iv, std::size_t n) {
  bytes out, counter(iv.begin(), iv.end());
  for (std::size_t i = 0; i < n; ++i) {
    out.insert(out.end(), counter.begin(), counter.end());
    for (int b = 15; b >= 0 && ++counter[b] == 0; --b) {
    }
  }
  return out;
}

TEST_P(CtrDifferential, CounterIsOne128BitBigEndianInteger) {
  REQUIRE_OPENSSL();
  CipherSpec ecb = spec_;
  ecb.mode = Mode::ecb;
  ecb.padding = false;
  // Counter blocks a few blocks before a wrap of the low 32 bits, the low 64 bits and all 128 bits.
  auto iv_before_carry = [&](std::size_t carry_bytes, std::size_t blocks_before) {
    bytes iv = random_bytes(rng_, 16);
    std::fill(iv.end() - static_cast<std::ptrdiff_t>(carry_bytes), iv.end(), 0xFF);
    for (std::size_t b = 0, k = blocks_before - 1; b < 8 && b < carry_bytes; ++b, k >>= 8)
      iv[15 - b] = static_cast<std::uint8_t>(0xFF - (k & 0xFF));
    return iv;
  };
  for (std::size_t carry_bytes : {4u, 8u, 16u}) {
    for (std::size_t before : {1u, 2u, 3u, 17u}) {
      const bytes iv = iv_before_carry(carry_bytes, before);
      const bytes key = random_bytes(rng_, spec_.key_size());
      SCOPED_TRACE("iv=" + to_hex(iv) + " key=" + to_hex(key));
      // The keystream is E(iv), E(iv+1), ...: the same as ECB over the counter blocks, checked with cryptaccel's ECB.
      const std::size_t blocks = before + 4;
      const bytes zeros(blocks * kBlock, 0);
      const bytes keystream = encrypt(spec_, CipherParams{key, iv}, zeros, engine_);
      EXPECT_TRUE(SameBytes(keystream, encrypt(ecb, CipherParams{key}, counter_blocks(iv, blocks), engine_)));
      EXPECT_TRUE(SameBytes(keystream, evp_ctr(spec_, key, iv, zeros)));
    }
  }
  // ff..ff fe: the third counter block is 00..00.
  {
    const bytes key = random_bytes(rng_, spec_.key_size());
    bytes iv(16, 0xFF);
    iv[15] = 0xFE;
    const bytes ks = encrypt(spec_, CipherParams{key, iv}, bytes(48, 0), engine_);
    EXPECT_EQ(to_hex(bytes_view(ks).subspan(32)), to_hex(encrypt(ecb, CipherParams{key}, bytes(16, 0), engine_)));
  }
  // Large messages across the wrap, split across threads: each wrap point lands 30000 blocks into 1 MiB + 7.
  std::vector<Case> cases;
  for (std::size_t carry_bytes : {4u, 8u, 16u}) {
    Case c = make_case(spec_, rng_, kMiB + 7);
    c.iv = iv_before_carry(carry_bytes, 30000);
    cases.push_back(std::move(c));
  }
  std::vector<bytes> pts, cts;
  for (const Case& c : cases) {
    pts.push_back(c.pt);
    cts.push_back(openssl_encrypt(spec_, c).value());
  }
  SCOPED_TRACE("1 MiB across counter wraps");
  for (std::size_t threads : {8u, 2u}) {
    expect_batch(spec_, Direction::encrypt, cases, pts, cts, threads, threads == 2);
    expect_batch(spec_, Direction::decrypt, cases, cts, pts, threads, threads == 8);
  }
}

// ================================================================================================================
// XTS: data units with incremented little-endian tweaks
// ================================================================================================================

TEST_P(XtsDifferential, DataUnitsUseIncrementedLittleEndianTweaks) {
  REQUIRE_OPENSSL();
  EXPECT_EQ(to_hex(xts_tweak(0x0102030405060708ull)), "08070605040302010000000000000000");
  for (std::size_t unit : {512u, 1000u, 4096u}) {  // 1000: data units need not be whole blocks
    SCOPED_TRACE("xts_unit=" + std::to_string(unit));
    const std::size_t lengths[] = {16, 17, unit - 1, unit, unit + 16, unit + 17, 3 * unit, 3 * unit + 31,
                                   7 * unit + 100, 65536, (100000 / unit + 1) * unit + 16,  // 100000+, tail of 16
                                   uniform(rng_, 16, 100000), uniform(rng_, 16, 100000)};
    for (std::size_t len : lengths) {
      const Case c = make_case(spec_, rng_, len, unit);
      SCOPED_TRACE(c.describe());
      const bytes expected = openssl_encrypt(spec_, c).value();
      EXPECT_TRUE(SameBytes(encrypt(spec_, c.params(), c.pt, engine_), expected));
      bytes back;
      EXPECT_NO_THROW(back = decrypt(spec_, c.params(), expected, engine_));
      EXPECT_TRUE(SameBytes(back, c.pt));
    }
  }
  // 1 MiB + 48 in 512-byte units starting 100 units before the tweak's low 64 bits carry, split across threads.
  std::vector<Case> cases = {make_case(spec_, rng_, kMiB + 48, 512), make_case(spec_, rng_, 1000, 512)};
  std::fill(cases[0].iv.begin(), cases[0].iv.begin() + 8, 0xFF);
  cases[0].iv[0] = 0xFF - 99;
  std::vector<bytes> pts, cts;
  for (const Case& c : cases) {
    pts.push_back(c.pt);
    cts.push_back(openssl_encrypt(spec_, c).value());
  }
  SCOPED_TRACE("1 MiB in 512-byte units");
  expect_batch(spec_, Direction::encrypt, cases, pts, cts, 8, false, 512);
  expect_batch(spec_, Direction::decrypt, cases, cts, pts, 8, true, 512);
}

TEST_P(XtsDifferential, RejectsWhatOpenSSLRejects) {
  REQUIRE_OPENSSL();
  {
    Case c = make_case(spec_, rng_, 64);
    std::copy(c.key.begin(), c.key.begin() + c.key.size() / 2, c.key.begin() + c.key.size() / 2);
    SCOPED_TRACE("equal key halves: " + c.describe());
    EXPECT_FALSE(openssl_encrypt(spec_, c).has_value());
    EXPECT_THROW(encrypt(spec_, c.params(), c.pt, engine_), InvalidArgument);
  }
  for (std::size_t len : {0u, 1u, 15u}) {
    Case c = make_case(spec_, rng_, 16);
    c.pt.resize(len);
    SCOPED_TRACE("message shorter than a block: " + c.describe());
    if (len > 0) {
      EXPECT_FALSE(openssl_encrypt(spec_, c).has_value());
    }
    EXPECT_THROW(encrypt(spec_, c.params(), c.pt, engine_), InvalidArgument);
    EXPECT_THROW(decrypt(spec_, c.params(), c.pt, engine_), InvalidArgument);
  }
  for (std::size_t len : {512u + 1, 512u + 15, 1024u + 8}) {
    Case c = make_case(spec_, rng_, 16, 512);
    c.pt = random_bytes(rng_, len);
    SCOPED_TRACE("last data unit shorter than a block: " + c.describe());
    EXPECT_FALSE(openssl_encrypt(spec_, c).has_value());
    EXPECT_THROW(encrypt(spec_, c.params(), c.pt, engine_), InvalidArgument);
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, ModesDifferential,
                         ::testing::Combine(::testing::ValuesIn(available_engines()),
                                            ::testing::ValuesIn(cipher_names())),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Engines, PaddedModesDifferential,
                         ::testing::Combine(::testing::ValuesIn(available_engines()),
                                            ::testing::ValuesIn(ciphers_with({Mode::ecb, Mode::cbc}))),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Engines, GcmDifferential,
                         ::testing::Combine(::testing::ValuesIn(available_engines()),
                                            ::testing::ValuesIn(ciphers_with({Mode::gcm}))),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Engines, CtrDifferential,
                         ::testing::Combine(::testing::ValuesIn(available_engines()),
                                            ::testing::ValuesIn(ciphers_with({Mode::ctr}))),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Engines, XtsDifferential,
                         ::testing::Combine(::testing::ValuesIn(available_engines()),
                                            ::testing::ValuesIn(ciphers_with({Mode::xts}))),
                         param_name);

}  // namespace

// RFC 8017 paddings (see padding.hpp). Randomness (PSS salts, OAEP seeds, PKCS#1 v1.5 padding) from OpenSSL's DRBG.
#include "rsa/padding.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstring>

#include "common/secret_buffer.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/rsa.hpp"
#include "rsa/ct_declassify.hpp"
#include "common/copy_bytes.hpp"

namespace cryptaccel::rsa {
namespace {

// Constant-time helpers over size_t masks (all ones / zero); operands below 2^63.
constexpr unsigned kTop = sizeof(std::size_t) * 8 - 1;
std::size_t ct_is_zero(std::size_t x) { return ((x | (0 - x)) >> kTop) - 1; }
std::size_t ct_eq(std::size_t a, std::size_t b) { return ct_is_zero(a ^ b); }
std::size_t ct_lt(std::size_t a, std::size_t b) { return 0 - ((a - b) >> kTop); }
std::size_t ct_select(std::size_t mask, std::size_t a, std::size_t b) { return (a & mask) | (b & ~mask); }

void random_bytes(std::uint8_t* out, std::size_t len) {
  if (len && RAND_bytes(out, static_cast<int>(len)) != 1) throw Error("rsa: the random generator failed");
}

/// DigestInfo prefix (RFC 8017 §9.2 note 1) of `hash`; empty for none.
bytes digest_info_prefix(HashAlgorithm hash) {
  if (hash == kSha1) return {0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14};
  std::uint8_t oid_last = 0;  // NIST hash algorithm OIDs 2.16.840.1.101.3.4.2.x
  switch (hash) {
    case HashAlgorithm::sha256: oid_last = 1; break;
    case HashAlgorithm::sha384: oid_last = 2; break;
    case HashAlgorithm::sha512: oid_last = 3; break;
    case HashAlgorithm::sha224: oid_last = 4; break;
    case HashAlgorithm::sha512_224: oid_last = 5; break;
    case HashAlgorithm::sha512_256: oid_last = 6; break;
    case HashAlgorithm::sha3_224: oid_last = 7; break;
    case HashAlgorithm::sha3_256: oid_last = 8; break;
    case HashAlgorithm::sha3_384: oid_last = 9; break;
    case HashAlgorithm::sha3_512: oid_last = 10; break;
    default: return {};
  }
  const auto h = static_cast<std::uint8_t>(digest_size(hash));
  return {0x30, static_cast<std::uint8_t>(h + 0x11), 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
          0x04, 0x02, oid_last, 0x05, 0x00, 0x04, h};
}

/// Moves the `len` bytes of buf left by `shift` (secret, < len) in O(len log len) masked steps; zeros come in.
void ct_shift_left(std::uint8_t* buf, std::size_t len, std::size_t shift) {
  for (std::size_t s = 1; s < len; s <<= 1) {
    const std::size_t m = ~ct_is_zero(shift & s);
    for (std::size_t i = 0; i < len; ++i) {
      const std::size_t src = i + s < len ? buf[i + s] : 0;  // i + s is public
      buf[i] = static_cast<std::uint8_t>(ct_select(m, src, buf[i]));
    }
  }
}

/// Writes the first `len` bytes of `msg` (len secret, <= n) to out (n bytes), zeros after; mask `good` clears all.
Decoded release(const std::uint8_t* msg, std::size_t n, std::size_t len, std::size_t good, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(msg[i] & ct_lt(i, len) & good);
  declassify(&good, sizeof good);
  declassify(&len, sizeof len);
  return good ? Decoded{true, len} : Decoded{};
}

}  // namespace

bytes digest(HashAlgorithm algorithm, bytes_view data) {
  if (algorithm == kSha1) {
    bytes out(20);
    unsigned len = 0;
    if (EVP_Digest(data.data(), data.size(), out.data(), &len, EVP_sha1(), nullptr) != 1) throw Error("rsa: SHA-1 failed");
    return out;
  }
  (void)digest_size(algorithm);  // refuses SHAKE and SM3
  return cryptaccel::hash(algorithm, data);
}

void mgf1_xor(HashAlgorithm algorithm, bytes_view seed, std::uint8_t* out, std::size_t len) {
  SecretBuffer in(seed.size() + 4);
  std::memcpy(in.data.data(), seed.data(), seed.size());
  for (std::uint32_t counter = 0; len; ++counter) {
    for (int b = 0; b < 4; ++b) in.data[seed.size() + b] = static_cast<std::uint8_t>(counter >> (24 - 8 * b));
    bytes block = digest(algorithm, in.data);
    const std::size_t n = std::min(len, block.size());
    for (std::size_t i = 0; i < n; ++i) out[i] ^= block[i];
    secure_wipe(block.data(), block.size());
    out += n, len -= n;
  }
}

bool emsa_pkcs1v15_encode(HashAlgorithm hash, bytes_view digest, std::uint8_t* em, std::size_t k) {
  const bytes prefix = digest_info_prefix(hash);
  if (prefix.empty()) throw InvalidArgument("rsa: PKCS#1 v1.5 signatures need SHA-1, SHA-2 or SHA-3");
  const std::size_t t = prefix.size() + digest.size();
  if (k < t + 11) return false;
  em[0] = 0x00, em[1] = 0x01;
  std::memset(em + 2, 0xff, k - t - 3);
  em[k - t - 1] = 0x00;
  std::memcpy(em + k - t, prefix.data(), prefix.size());
  std::memcpy(em + k - digest.size(), digest.data(), digest.size());
  return true;
}

bool emsa_pss_encode(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view m_hash, std::size_t salt_len,
                     std::size_t mod_bits, std::uint8_t* em, std::size_t k) {
  const std::size_t em_bits = mod_bits - 1, em_len = (em_bits + 7) / 8, h_len = m_hash.size();
  if (em_len < h_len + salt_len + 2) return false;
  std::memset(em, 0, k);
  std::uint8_t* out = em + (k - em_len);
  bytes m_prime(8 + h_len + salt_len, 0);
  std::memcpy(m_prime.data() + 8, m_hash.data(), h_len);
  random_bytes(m_prime.data() + 8 + h_len, salt_len);
  const bytes h = digest(hash, m_prime);
  const std::size_t db_len = em_len - h_len - 1;
  out[db_len - salt_len - 1] = 0x01;
  std::memcpy(out + db_len - salt_len, m_prime.data() + 8 + h_len, salt_len);
  mgf1_xor(mgf_hash, h, out, db_len);
  out[0] &= static_cast<std::uint8_t>(0xff >> (8 * em_len - em_bits));
  std::memcpy(out + db_len, h.data(), h_len);
  out[em_len - 1] = 0xbc;
  return true;
}

bool emsa_pss_verify(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view m_hash,
                     std::optional<std::size_t> salt_len, std::size_t mod_bits, const std::uint8_t* em, std::size_t k) {
  // Verification handles public data only: plain comparisons are fine here.
  const std::size_t em_bits = mod_bits - 1, em_len = (em_bits + 7) / 8, h_len = m_hash.size();
  if (em_len < h_len + 2 || (salt_len && em_len < h_len + *salt_len + 2)) return false;
  for (std::size_t i = 0; i < k - em_len; ++i)
    if (em[i]) return false;
  const std::uint8_t* in = em + (k - em_len);
  if (in[em_len - 1] != 0xbc) return false;
  const std::size_t db_len = em_len - h_len - 1;
  const std::uint8_t top_mask = static_cast<std::uint8_t>(0xff << (8 - (8 * em_len - em_bits)));
  if (8 * em_len != em_bits && (in[0] & top_mask)) return false;
  bytes db(in, in + db_len);
  const bytes_view h(in + db_len, h_len);
  mgf1_xor(mgf_hash, h, db.data(), db_len);
  db[0] &= static_cast<std::uint8_t>(0xff >> (8 * em_len - em_bits));
  std::size_t i = 0;
  while (i < db_len && db[i] == 0) ++i;
  if (i == db_len || db[i] != 0x01) return false;
  const std::size_t s_len = db_len - i - 1;
  if (salt_len && s_len != *salt_len) return false;
  bytes m_prime(8 + h_len + s_len, 0);
  std::memcpy(m_prime.data() + 8, m_hash.data(), h_len);
  std::memcpy(m_prime.data() + 8 + h_len, db.data() + i + 1, s_len);
  const bytes h2 = digest(hash, m_prime);
  return std::equal(h2.begin(), h2.end(), h.begin(), h.end());
}

std::size_t oaep_max_message(HashAlgorithm hash, std::size_t k) {
  const std::size_t h = digest_size(hash);
  return k >= 2 * h + 2 ? k - 2 * h - 2 : 0;
}
std::size_t pkcs1v15_max_message(std::size_t k) { return k >= 11 ? k - 11 : 0; }

void eme_oaep_encode(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view label, bytes_view msg, std::uint8_t* em,
                     std::size_t k) {
  const std::size_t h_len = digest_size(hash);
  if (k < 2 * h_len + 2 || msg.size() > k - 2 * h_len - 2) throw InvalidArgument("rsa: message too long for the key and OAEP");
  const std::size_t db_len = k - h_len - 1;
  std::uint8_t* seed = em + 1;
  std::uint8_t* db = em + 1 + h_len;
  std::memset(em, 0, k);
  const bytes l_hash = digest(hash, label);
  std::memcpy(db, l_hash.data(), h_len);
  db[db_len - msg.size() - 1] = 0x01;
  std::memcpy(db + db_len - msg.size(), msg.data(), msg.size());
  random_bytes(seed, h_len);
  mgf1_xor(mgf_hash, bytes_view(seed, h_len), db, db_len);
  mgf1_xor(mgf_hash, bytes_view(db, db_len), seed, h_len);
}

void eme_pkcs1v15_encode(bytes_view msg, std::uint8_t* em, std::size_t k) {
  if (k < 11 || msg.size() > k - 11) throw InvalidArgument("rsa: message too long for the key and PKCS#1 v1.5");
  em[0] = 0x00, em[1] = 0x02;
  const std::size_t ps = k - msg.size() - 3;
  random_bytes(em + 2, ps);
  for (std::size_t i = 0; i < ps; ++i)  // nonzero padding bytes: redraw the zeros
    while (em[2 + i] == 0) random_bytes(em + 2 + i, 1);
  em[2 + ps] = 0x00;
  copy_bytes(em + 3 + ps, msg.data(), msg.size());
}

Decoded eme_oaep_decode(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view label, const std::uint8_t* em,
                        std::size_t k, std::uint8_t* out) {
  const std::size_t h_len = digest_size(hash);
  if (k < 2 * h_len + 2) return {};
  const std::size_t db_len = k - h_len - 1;
  SecretBuffer seed(h_len), db(db_len);
  std::memcpy(seed.data.data(), em + 1, h_len);
  std::memcpy(db.data.data(), em + 1 + h_len, db_len);
  mgf1_xor(mgf_hash, db.data, seed.data.data(), h_len);
  mgf1_xor(mgf_hash, seed.data, db.data.data(), db_len);
  const bytes l_hash = digest(hash, label);
  std::size_t good = ct_is_zero(em[0]);
  std::size_t diff = 0;
  for (std::size_t i = 0; i < h_len; ++i) diff |= db.data[i] ^ l_hash[i];
  good &= ct_is_zero(diff);
  // The first 0x01 after lHash ends the zero padding; every byte before it must be zero.
  std::size_t found = 0, one_index = 0;
  for (std::size_t i = h_len; i < db_len; ++i) {
    const std::size_t is_one = ct_eq(db.data[i], 1), is_zero = ct_is_zero(db.data[i]);
    one_index = ct_select(~found & is_one, i, one_index);
    found |= is_one;
    good &= found | is_zero;
  }
  good &= found;
  // The message is db[one_index + 1 ..]: move it to the start of the region after lHash (length max message).
  std::uint8_t* region = db.data.data() + h_len + 1;
  const std::size_t region_len = db_len - h_len - 1;
  const std::size_t msg_len = db_len - one_index - 1;
  ct_shift_left(region, region_len, (one_index - h_len) & ct_select(good, ~std::size_t{0}, 0));
  return release(region, region_len, msg_len, good, out);
}

Decoded eme_pkcs1v15_decode(const std::uint8_t* em, std::size_t k, std::uint8_t* out) {
  if (k < 11) return {};
  std::size_t good = ct_is_zero(em[0]) & ct_eq(em[1], 2);
  std::size_t found = 0, zero_index = 0;
  for (std::size_t i = 2; i < k; ++i) {
    const std::size_t is_zero = ct_is_zero(em[i]);
    zero_index = ct_select(~found & is_zero, i, zero_index);
    found |= is_zero;
  }
  good &= found & ~ct_lt(zero_index, 10);  // at least 8 padding bytes
  SecretBuffer region(k - 11);
  std::memcpy(region.data.data(), em + 11, k - 11);
  const std::size_t msg_len = k - zero_index - 1;
  ct_shift_left(region.data.data(), k - 11, (zero_index - 10) & ct_select(good, ~std::size_t{0}, 0));
  return release(region.data.data(), k - 11, msg_len, good, out);
}

}  // namespace cryptaccel::rsa

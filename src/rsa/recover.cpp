// verify_recover (include/cryptaccel/rsa.hpp): what was signed, recovered from a signature with the public key.
#include <algorithm>
#include <string>

#include "cryptaccel/error.hpp"
#include "cryptaccel/rsa.hpp"

namespace cryptaccel::rsa {
namespace {

/// PKCS#1 v1.5 type 1 unpadding (RFC 8017 9.2 / OpenSSL's RSA_padding_check_PKCS1_type_1): em = 00 01 PS 00 D with
/// PS at least 8 bytes of FF; returns D. Everything here is public (a signature), so no constant-time care.
bytes unpad_type1(const bytes& em) {
  constexpr std::size_t kMinPadding = 8;
  if (em.size() < 11) throw Error("signature recovery failed: the key is too small for PKCS#1 v1.5");
  if (em[0] != 0x00 || em[1] != 0x01) throw Error("signature recovery failed: not PKCS#1 v1.5 type 1 padding");
  const auto zero = std::find_if(em.begin() + 2, em.end(), [](std::uint8_t b) { return b != 0xff; });
  if (zero == em.end() || *zero != 0x00)
    throw Error("signature recovery failed: bad PKCS#1 v1.5 padding (no 00 after the FF bytes)");
  if (static_cast<std::size_t>(zero - (em.begin() + 2)) < kMinPadding)
    throw Error("signature recovery failed: bad PKCS#1 v1.5 padding (fewer than 8 FF bytes)");
  return bytes(zero + 1, em.end());
}

}  // namespace

bytes verify_recover(const PublicKey& key, bytes_view signature, const RecoverOptions& options,
                     const BatchOptions& batch) {
  const std::size_t k = key.size();
  if (signature.size() > k)
    throw InvalidArgument("the signature is longer than the key (" + std::to_string(signature.size()) + " bytes, " +
                          std::to_string(k) + "-byte modulus)");
  bytes s(k - signature.size(), 0);  // as a k-byte number, for the comparison with n
  s.insert(s.end(), signature.begin(), signature.end());
  const bytes n = key.n();
  if (!std::lexicographical_compare(s.begin(), s.end(), n.begin(), n.end()))
    throw InvalidArgument("the signature is not less than the modulus");
  const bytes_view base(s);
  const bytes e = key.e();
  bytes em = std::move(modexp_batch(std::span<const bytes_view>(&base, 1), e, n, batch).front());
  if (options.raw) return em;
  bytes data = unpad_type1(em);
  if (!options.digest) return data;
  // As openssl's ossl_rsa_verify: the digest is the last bytes, and the whole must be its DigestInfo encoding. The
  // library's PKCS#1 v1.5 verification of that digest checks exactly that (it builds the encoding and compares).
  const std::size_t hlen = digest_size(*options.digest);
  if (data.size() < hlen) throw Error("signature recovery failed: shorter than a " + digest_name(*options.digest) +
                                      " digest");
  bytes digest(data.end() - static_cast<std::ptrdiff_t>(hlen), data.end());
  SignOptions so;
  so.padding = SignaturePadding::pkcs1v15;
  so.hash = *options.digest;
  so.prehashed = true;
  so.engine = batch.engine;
  if (!verify(key, digest, s, so))
    throw Error("signature recovery failed: not a " + digest_name(*options.digest) + " DigestInfo");
  return digest;
}

}  // namespace cryptaccel::rsa

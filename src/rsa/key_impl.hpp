// What a PublicKey / PrivateKey holds: the numbers as limbs with their Montgomery constants (so that every operation
// starts from precomputed R^2), the CRT parameters, and the blinding state. Built from OpenSSL's key objects
// (src/rsa/keys.cpp); read by the engines' raw operations.
#pragma once
#include <memory>
#include <mutex>

#include <openssl/evp.h>

#include "cryptaccel/rsa.hpp"
#include "rsa/modulus.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::rsa {

/// Frees an EVP_PKEY (OpenSSL clears RSA private components when it frees them).

/// Base blinding factors of a private key, Montgomery form mod n: a = r^e * R, ai = r^-1 * R. Refreshed from a new
/// random r every kRefresh uses and squared (a^2, ai^2 still pair up) between refreshes, as OpenSSL's BN_BLINDING.
/// The random r come from a pool of kPool values inverted together (Montgomery's simultaneous inversion: one
/// constant-time modular inverse and 3 (kPool - 1) products instead of kPool inverses). A 2048-bit
/// BN_mod_inverse takes ~0.6 ms, about half a signature, so one per refresh cost ~1.5 % of every signature.
struct Blinding {
  static constexpr unsigned kRefresh = 32;
  static constexpr unsigned kPool = 32;
  std::mutex mutex;
  Limbs a, ai;
  unsigned uses = 0;  ///< 0: needs a fresh r
  /// Unused r R and r^-1 R, kPool entries of the key's limb count each; entries [0, pool_left) are still unused
  /// (a used entry is wiped).
  Limbs pool_r, pool_ri;
  unsigned pool_left = 0;
};

}  // namespace cryptaccel::rsa

struct cryptaccel::rsa::PublicKey::Impl {
  std::size_t bits = 0;
  bytes n_be;          ///< size() bytes
  bytes e_be;          ///< no leading zeros
  Modulus mod;         ///< n in the smallest supported limb count
  Limbs e;             ///< e in mod.limbs limbs (e < n)
  PkeyPtr pkey;        ///< public-only OpenSSL key (for to_pem)
  /// The cpu engine's OpenSSL Montgomery context for this key (src/cpu/rsa_openssl.cpp), made once on first use.
  mutable std::once_flag cpu_once;
  mutable std::shared_ptr<const void> cpu_state;
  std::size_t size() const { return n_be.size(); }
};

struct cryptaccel::rsa::PrivateKey::Impl {
  PublicKey pub;
  bool crt = false;         ///< two primes, each fitting half the limbs: CRT; otherwise the exponent d
  Limbs d;                  ///< mod.limbs limbs
  Modulus p, q;             ///< mod.limbs / 2 limbs each (when crt)
  Limbs dp, dq, qinv;       ///< mod.limbs / 2 limbs each (when crt)
  PkeyPtr pkey;             ///< OpenSSL's copy (for to_pem), freed with clearing
  mutable Blinding blinding;
  /// The cpu engine's constant-time OpenSSL CRT values for this key (src/cpu/rsa_openssl.cpp), made once on first use.
  mutable std::once_flag cpu_once;
  mutable std::shared_ptr<const void> cpu_state;
  explicit Impl(PublicKey p_) : pub(std::move(p_)) {}
  const PublicKey::Impl& pubi() const { return pub.impl(); }
};

// See bn_limbs.hpp.
#include "rsa/bn_limbs.hpp"

#include <bit>

#include "cryptaccel/error.hpp"

namespace cryptaccel::rsa {

// Limbs are little-endian 64-bit words, so on a little-endian host their bytes are the number's little-endian bytes:
// BN_lebin2bn / BN_bn2lebinpad convert without a byte-reversed copy.
static_assert(std::endian::native == std::endian::little);

BIGNUM* bn_from_limbs(const limb* v, std::size_t limbs, bool secret) {
  BIGNUM* b = secret ? BN_secure_new() : BN_new();
  if (!b || !BN_lebin2bn(reinterpret_cast<const unsigned char*>(v), static_cast<int>(8 * limbs), b)) {
    BN_clear_free(b);
    throw Error("rsa: out of memory");
  }
  if (secret) BN_set_flags(b, BN_FLG_CONSTTIME);
  return b;
}

void bn_to_limbs(const BIGNUM* b, limb* v, std::size_t limbs) {
  if (BN_bn2lebinpad(b, reinterpret_cast<unsigned char*>(v), static_cast<int>(8 * limbs)) < 0)
    throw Error("rsa: result out of range");
}

}  // namespace cryptaccel::rsa

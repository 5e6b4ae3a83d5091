// Moduli with their Montgomery constants, and limb conversion.
#include "rsa/modulus.hpp"

namespace cryptaccel::rsa {

std::size_t bit_length(bytes_view be) {
  for (std::size_t i = 0; i < be.size(); ++i)
    if (be[i]) {
      std::size_t b = 0;
      for (unsigned v = be[i]; v; v >>= 1) ++b;
      return 8 * (be.size() - i - 1) + b;
    }
  return 0;
}

Limbs limbs_from_bytes(bytes_view be, std::size_t limbs) {
  // Leading zero bytes beyond the limbs are allowed (DER-style numbers); they carry no value.
  std::size_t skip = 0;
  while (be.size() - skip > 8 * limbs && be[skip] == 0) ++skip;
  if (be.size() - skip > 8 * limbs) throw InvalidArgument("rsa: number too large for its modulus size");
  Limbs out(limbs);
  with_limbs(limbs, [&](auto L) { bn::from_bytes<decltype(L)::value>(out.data(), be.data() + skip, be.size() - skip); });
  return out;
}

Modulus make_modulus(bytes_view n_be, std::size_t limbs) {
  Modulus m;
  m.limbs = limbs;
  m.bits = bit_length(n_be);
  if (m.bits < 2 || (n_be.back() & 1) == 0) throw InvalidArgument("rsa: the modulus must be odd and greater than 1");
  m.n = limbs_from_bytes(n_be, limbs);
  m.rr = Limbs(limbs);
  m.one = Limbs(limbs);
  m.n0 = bn::mont_n0(m.n.v[0]);
  with_limbs(limbs, [&](auto L) { bn::mont_constants<decltype(L)::value>(m.one.data(), m.rr.data(), m.n.data()); });
  return m;
}

}  // namespace cryptaccel::rsa

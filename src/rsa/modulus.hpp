// Internal RSA building blocks: a modulus with its Montgomery constants, limb storage that wipes itself, and the
// dispatch from a run-time limb count to the compile-time sizes the arithmetic (src/algo/montgomery.hpp) is
// instantiated for.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "algo/montgomery.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::rsa {

namespace bn = algo::bn;
using bn::limb;

/// Limbs that may hold a secret: wiped when destroyed or reassigned.
struct Limbs {
  std::vector<limb> v;
  Limbs() = default;
  explicit Limbs(std::size_t n) : v(n) {}
  Limbs(const Limbs&) = default;
  Limbs& operator=(const Limbs& o) {
    if (this != &o) { wipe(); v = o.v; }
    return *this;
  }
  ~Limbs() { wipe(); }
  void wipe() { if (!v.empty()) secure_wipe(v.data(), v.size() * sizeof(limb)); }
  limb* data() { return v.data(); }
  const limb* data() const { return v.data(); }
  std::size_t size() const { return v.size(); }
};

/// An odd modulus of `limbs` limbs and its Montgomery constants (R = 2^(64*limbs)). For a CRT prime the modulus is
/// secret, hence Limbs (wiped).
struct Modulus {
  std::size_t limbs = 0;
  std::size_t bits = 0;  ///< significant bits of n
  Limbs n, rr, one;
  limb n0 = 0;
  bn::MontView view() const { return {n.data(), rr.data(), one.data(), n0}; }
};

/// The limb counts the arithmetic is compiled for: full moduli (1024..8192 bits) and CRT halves.
inline constexpr std::size_t kModulusLimbs[] = {16, 32, 48, 64, 128};

/// The smallest full-modulus limb count holding `bits`, or 0 when more than 8192 bits.
inline std::size_t limbs_for_bits(std::size_t bits) {
  for (std::size_t l : kModulusLimbs)
    if (bits <= 64 * l) return l;
  return 0;
}

/// Calls f(std::integral_constant<size_t, L>) for the run-time limb count `limbs` (one of 8, 16, 24, 32, 48, 64,
/// 128); throws InvalidArgument for any other.
template <class F>
decltype(auto) with_limbs(std::size_t limbs, F&& f) {
  switch (limbs) {
    case 8: return f(std::integral_constant<std::size_t, 8>{});
    case 16: return f(std::integral_constant<std::size_t, 16>{});
    case 24: return f(std::integral_constant<std::size_t, 24>{});
    case 32: return f(std::integral_constant<std::size_t, 32>{});
    case 48: return f(std::integral_constant<std::size_t, 48>{});
    case 64: return f(std::integral_constant<std::size_t, 64>{});
    case 128: return f(std::integral_constant<std::size_t, 128>{});
    default: throw InvalidArgument("rsa: unsupported operand size");
  }
}

/// Number of significant bits of a big-endian value.
std::size_t bit_length(bytes_view be);

/// The modulus `n_be` (big-endian, odd, > 1, at most 64*limbs bits) in `limbs` limbs with its constants.
Modulus make_modulus(bytes_view n_be, std::size_t limbs);

/// Big-endian bytes into `limbs` limbs (the value must fit).
Limbs limbs_from_bytes(bytes_view be, std::size_t limbs);

}  // namespace cryptaccel::rsa

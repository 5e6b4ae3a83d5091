// The raw RSA operations of the host engines (`ref`, `cpu`) for a span of jobs, templated on the Montgomery kernels:
// big-endian bytes to limbs, raw_ops.hpp at the key's limb count, back to bytes; intermediates wiped.
#pragma once
#include <span>

#include "engine/engine.hpp"
#include "rsa/raw_ops.hpp"

namespace cryptaccel::rsa {

template <class Ops>
void host_rsa_private(std::span<const engine::RsaPrivateJob> jobs) {
  for (const engine::RsaPrivateJob& j : jobs) {
    const PrivateKey::Impl& k = j.key->impl();
    with_limbs(k.pubi().mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value;
      limb c[N], m[N];
      bn::from_bytes<N>(c, j.in, k.pubi().size());
      private_exp<N, Ops>(k, c, m);
      bn::to_bytes<N>(j.out, k.pubi().size(), m);
      secure_wipe(m, sizeof m);
    });
  }
}

template <class Ops>
void host_rsa_public(std::span<const engine::RsaPublicJob> jobs) {
  for (const engine::RsaPublicJob& j : jobs) {
    const PublicKey::Impl& k = j.key->impl();
    with_limbs(k.mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value;
      limb x[N];
      bn::from_bytes<N>(x, j.in, k.size());
      public_exp<N, Ops>(k, x, x);
      bn::to_bytes<N>(j.out, k.size(), x);
    });
  }
}

template <class Ops>
void host_modexp(const Modulus& mod, bytes_view exponent, std::span<const engine::ModexpJob> jobs) {
  const std::size_t e_limbs = std::max<std::size_t>(1, (exponent.size() + 7) / 8);
  Limbs e(e_limbs);
  for (std::size_t k = 0; k < exponent.size(); ++k)
    e.v[k / 8] |= static_cast<limb>(exponent[exponent.size() - 1 - k]) << (8 * (k % 8));
  const std::size_t len = (mod.bits + 7) / 8;
  for (const engine::ModexpJob& j : jobs)
    with_limbs(mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value;
      limb x[N];
      bn::from_bytes<N>(x, j.base, len);
      modexp<N, Ops>(mod, e.data(), e_limbs, 8 * exponent.size(), x, x);
      bn::to_bytes<N>(j.out, len, x);
      secure_wipe(x, sizeof x);
    });
}

/// The `ref` engine's raw operations (portable Montgomery kernels); src/rsa/ref_rsa.cpp.
void ref_rsa_private(std::span<const engine::RsaPrivateJob> jobs);
void ref_rsa_public(std::span<const engine::RsaPublicJob> jobs);
void ref_modexp(const Modulus& mod, bytes_view exponent, std::span<const engine::ModexpJob> jobs);

}  // namespace cryptaccel::rsa

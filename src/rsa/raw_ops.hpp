// The raw RSA integer operations every host engine runs, templated on the limb count and on the Montgomery kernels
// (bn::PortableMont for `ref`, MULX/ADX for `cpu`): the public operation, the CRT private operation (constant time:
// fixed-window exponents over a public bit count, masked selects), and raw modexp. Blinding and the result check
// are not here: src/rsa/private_op.cpp wraps every engine's private operation with them.
#pragma once
#include <cstdint>

#include "rsa/key_impl.hpp"

namespace cryptaccel::rsa {

/// out = in^e mod n for in < n (limbs of the key's size N); e is public, so the time may depend on it.
template <std::size_t N, class Ops>
void public_exp(const PublicKey::Impl& k, const limb* in, limb* out) {
  const bn::MontView m = k.mod.view();
  limb x[N];
  bn::to_mont<N>(x, in, m);
  bn::mont_exp_public<N, Ops>(x, x, k.e.data(), N, m);
  bn::from_mont<N>(out, x, m);
}

/// out = c^d mod n for c < n by CRT (Garner: m1 = c^dp mod p, m2 = c^dq mod q, h = qinv (m1 - m2) mod p,
/// m = m2 + h q), or with d when the key has no usable CRT form. Constant time in the secret values.
template <std::size_t N, class Ops>
void private_exp(const PrivateKey::Impl& k, const limb* c, limb* out) {
  if (!k.crt) {
    const bn::MontView m = k.pubi().mod.view();
    limb x[N];
    bn::to_mont<N>(x, c, m);
    bn::mont_exp_ct<N, Ops>(x, x, k.d.data(), N, 64 * N, m);
    bn::from_mont<N>(out, x, m);
    secure_wipe(x, sizeof x);
    return;
  }
  constexpr std::size_t H = N / 2;
  const bn::MontView mp = k.p.view(), mq = k.q.view();
  limb t[N], xp[H], xq[H];
  // c mod p in Montgomery form: REDC(c) = c R^-1 (valid since c < n = p q < p R), then two products with R^2.
  for (std::size_t i = 0; i < N; ++i) t[i] = c[i];
  bn::redc<H>(xp, t, mp.n, mp.n0);
  bn::mont_mul<H>(xp, xp, mp.rr, mp.n, mp.n0);
  bn::mont_mul<H>(xp, xp, mp.rr, mp.n, mp.n0);
  for (std::size_t i = 0; i < N; ++i) t[i] = c[i];
  bn::redc<H>(xq, t, mq.n, mq.n0);
  bn::mont_mul<H>(xq, xq, mq.rr, mq.n, mq.n0);
  bn::mont_mul<H>(xq, xq, mq.rr, mq.n, mq.n0);
  bn::mont_exp_ct<H, Ops>(xp, xp, k.dp.data(), H, 64 * H, mp);  // m1 R mod p
  bn::mont_exp_ct<H, Ops>(xq, xq, k.dq.data(), H, 64 * H, mq);  // m2 R mod q
  limb m2[H], m2p[H], h[H];
  bn::from_mont<H>(m2, xq, mq);                         // m2 < q
  bn::mont_mul<H>(m2p, m2, mp.rr, mp.n, mp.n0);         // m2 R mod p (m2 < q < R keeps the product in range)
  bn::mod_sub<H>(h, xp, m2p, mp.n);                     // (m1 - m2) R mod p
  bn::mont_mul<H>(h, h, k.qinv.data(), mp.n, mp.n0);    // h = (m1 - m2) qinv mod p
  bn::mul_full<H>(t, h, mq.n);                          // h q < n
  limb m2w[N] = {};
  for (std::size_t i = 0; i < H; ++i) m2w[i] = m2[i];
  bn::add<N>(out, t, m2w);
  secure_wipe(t, sizeof t), secure_wipe(xp, sizeof xp), secure_wipe(xq, sizeof xq);
  secure_wipe(m2, sizeof m2), secure_wipe(m2p, sizeof m2p), secure_wipe(h, sizeof h), secure_wipe(m2w, sizeof m2w);
}

/// out = base^exponent mod n (base < n); the exponent (e_limbs limbs, `bits` significant at most) is secret.
template <std::size_t N, class Ops>
void modexp(const Modulus& mod, const limb* exponent, std::size_t e_limbs, std::size_t bits, const limb* base,
            limb* out) {
  const bn::MontView m = mod.view();
  limb x[N];
  bn::to_mont<N>(x, base, m);
  bn::mont_exp_ct<N, Ops>(x, x, exponent, e_limbs, bits, m);
  bn::from_mont<N>(out, x, m);
}

}  // namespace cryptaccel::rsa

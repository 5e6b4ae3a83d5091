// The raw RSA integer operations every host engine runs, templated on the limb count and on the Montgomery kernels
// (bn::PortableMont for `ref`, MULX/ADX for `cpu`): the public operation, the CRT private operation (constant time:
// fixed-window exponents over a public bit count, masked selects), and raw modexp. Blinding and the result check
// are not here: src/rsa/private_op.cpp wraps every engine's private operation with them.
#pragma once
#include <cstdint>
#include <utility>

#include "rsa/key_impl.hpp"

namespace cryptaccel::rsa {

/// r = a R^-1 mod n (out of Montgomery form) by Ops's REDC alone: half the products of bn::from_mont's product
/// with 1.
template <std::size_t N, class Ops>
void leave_mont(limb* r, const limb* a, const bn::MontView& m) {
  limb t[2 * N] = {};
  for (std::size_t i = 0; i < N; ++i) t[i] = a[i];
  Ops::template redc<N>(r, t, m.n, m.n0);
  secure_wipe(t, sizeof t);
}

/// out = in^e mod n for in < n (limbs of the key's size N); e is public, so the time may depend on it.
/// For odd e (every RSA key) the last product takes the plain input: (in^(e-1) R) in R^-1 = in^e, already out of
/// Montgomery form, so no REDC at the end (e = 1 works too: in^0 R = R).
template <std::size_t N, class Ops>
void public_exp(const PublicKey::Impl& k, const limb* in, limb* out) {
  const bn::MontView m = k.mod.view();
  limb x[N];
  bn::to_mont<N, Ops>(x, in, m);
  if (k.e.data()[0] & 1) {
    limb e_minus_1[N];
    for (std::size_t i = 0; i < N; ++i) e_minus_1[i] = k.e.data()[i];
    e_minus_1[0] ^= 1;
    bn::mont_exp_public<N, Ops>(x, x, e_minus_1, N, m);
    Ops::template mul<N>(out, x, in, m.n, m.n0);
  } else {
    bn::mont_exp_public<N, Ops>(x, x, k.e.data(), N, m);
    leave_mont<N, Ops>(out, x, m);
  }
  secure_wipe(x, sizeof x);  // an encryption's padded message
}

/// The CRT inputs of c < n in Montgomery form: xp = c R mod p, xq = c R mod q (REDC(c) = c R^-1 is valid since
/// c < n = p q < p R; two products with R^2 follow). Constant time.
template <std::size_t N, class Ops = bn::PortableMont>
void crt_inputs(const PrivateKey::Impl& k, const limb* c, limb* xp, limb* xq) {
  constexpr std::size_t H = N / 2;
  limb t[N];
  for (const auto& [x, mod] : {std::pair{xp, &k.p}, std::pair{xq, &k.q}}) {
    const bn::MontView m = mod->view();
    for (std::size_t i = 0; i < N; ++i) t[i] = c[i];
    Ops::template redc<H>(x, t, m.n, m.n0);
    Ops::template mul<H>(x, x, m.rr, m.n, m.n0);
    Ops::template mul<H>(x, x, m.rr, m.n, m.n0);
  }
  secure_wipe(t, sizeof t);
}

/// Garner's recombination m = m2 + q (qinv (m1 - m2) mod p) from m1 R mod p (Montgomery form) and m2 < q (normal
/// form). Constant time.
template <std::size_t N, class Ops = bn::PortableMont>
void crt_combine(const PrivateKey::Impl& k, const limb* m1_mont, const limb* m2, limb* out) {
  constexpr std::size_t H = N / 2;
  const bn::MontView mp = k.p.view(), mq = k.q.view();
  limb m2p[H], h[H], t[N], m2w[N] = {};
  Ops::template mul<H>(m2p, m2, mp.rr, mp.n, mp.n0);       // m2 R mod p (m2 < q < R keeps the product in range)
  bn::mod_sub<H>(h, m1_mont, m2p, mp.n);                // (m1 - m2) R mod p
  Ops::template mul<H>(h, h, k.qinv.data(), mp.n, mp.n0);  // h = (m1 - m2) qinv mod p
  bn::mul_full<H>(t, h, mq.n);                          // h q < n
  for (std::size_t i = 0; i < H; ++i) m2w[i] = m2[i];
  bn::add<N>(out, t, m2w);
  secure_wipe(m2p, sizeof m2p), secure_wipe(h, sizeof h), secure_wipe(t, sizeof t), secure_wipe(m2w, sizeof m2w);
}

/// out = c^d mod n for c < n by CRT (Garner: m1 = c^dp mod p, m2 = c^dq mod q, h = qinv (m1 - m2) mod p,
/// m = m2 + h q), or with d when the key has no usable CRT form. Constant time in the secret values.
template <std::size_t N, class Ops>
void private_exp(const PrivateKey::Impl& k, const limb* c, limb* out) {
  if (!k.crt) {
    const bn::MontView m = k.pubi().mod.view();
    limb x[N];
    bn::to_mont<N, Ops>(x, c, m);
    bn::mont_exp_ct<N, Ops>(x, x, k.d.data(), N, 64 * N, m);
    leave_mont<N, Ops>(out, x, m);
    secure_wipe(x, sizeof x);
    return;
  }
  constexpr std::size_t H = N / 2;
  const bn::MontView mp = k.p.view(), mq = k.q.view();
  limb xp[H], xq[H];
  crt_inputs<N, Ops>(k, c, xp, xq);
  bn::mont_exp_ct<H, Ops>(xp, xp, k.dp.data(), H, 64 * H, mp);  // m1 R mod p
  bn::mont_exp_ct<H, Ops>(xq, xq, k.dq.data(), H, 64 * H, mq);  // m2 R mod q
  leave_mont<H, Ops>(xq, xq, mq);                               // m2 < q
  crt_combine<N, Ops>(k, xp, xq, out);
  secure_wipe(xp, sizeof xp), secure_wipe(xq, sizeof xq);
}

/// out = base^exponent mod n (base < n); the exponent (e_limbs limbs, `bits` significant at most) is secret.
template <std::size_t N, class Ops>
void modexp(const Modulus& mod, const limb* exponent, std::size_t e_limbs, std::size_t bits, const limb* base,
            limb* out) {
  const bn::MontView m = mod.view();
  limb x[N];
  bn::to_mont<N, Ops>(x, base, m);
  bn::mont_exp_ct<N, Ops>(x, x, exponent, e_limbs, bits, m);
  leave_mont<N, Ops>(out, x, m);
}

}  // namespace cryptaccel::rsa

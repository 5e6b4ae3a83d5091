// See rsa_openssl.hpp.
#include "cpu/rsa_openssl.hpp"

#include <openssl/bn.h>

#include "cpu/mont_mulx.hpp"
#include "cpu/rsa_ifma.hpp"
#include "rsa/bn_limbs.hpp"
#include "rsa/host_mont.hpp"
#include "rsa/host_ops.hpp"

namespace cryptaccel::cpu {
namespace {

using rsa::limb;
namespace bn = algo::bn;

struct CtxFree {
  void operator()(BN_CTX* c) const { BN_CTX_free(c); }
};

/// This thread's BN_CTX (secure heap: it holds intermediates of private operations).
BN_CTX* thread_ctx() {
  thread_local std::unique_ptr<BN_CTX, CtxFree> ctx(BN_CTX_secure_new());
  if (!ctx) throw Error("rsa: out of memory");
  return ctx.get();
}

using rsa::bn_from_limbs;
using rsa::bn_to_limbs;

/// OpenSSL's view of one modulus and exponent: the numbers and the Montgomery context.
struct ExpState {
  BIGNUM* n = nullptr;
  BIGNUM* e = nullptr;
  BN_MONT_CTX* mont = nullptr;
  ExpState(const rsa::Modulus& mod, const limb* exponent, std::size_t e_limbs, bool secret) {
    n = bn_from_limbs(mod.n.data(), mod.limbs, secret);
    e = bn_from_limbs(exponent, e_limbs, secret);
    mont = BN_MONT_CTX_new();
    if (!mont || BN_MONT_CTX_set(mont, n, thread_ctx()) != 1) throw Error("rsa: cannot set up Montgomery arithmetic");
  }
  ExpState(const ExpState&) = delete;
  ExpState& operator=(const ExpState&) = delete;
  ~ExpState() {
    BN_clear_free(n), BN_clear_free(e);
    BN_MONT_CTX_free(mont);
  }
  /// out (limbs) = in^e mod n; constant time when `secret`.
  void exp(const limb* in, limb* out, std::size_t limbs, bool secret) const {
    BIGNUM* x = bn_from_limbs(in, limbs, secret);
    BIGNUM* r = secret ? BN_secure_new() : BN_new();
    BN_CTX* ctx = thread_ctx();
    const int ok = secret ? BN_mod_exp_mont_consttime(r, x, e, n, ctx, mont) : BN_mod_exp_mont(r, x, e, n, ctx, mont);
    if (ok == 1) bn_to_limbs(r, out, limbs);
    BN_clear_free(x), BN_clear_free(r);
    if (ok != 1) throw Error("rsa: modular exponentiation failed");
  }
};

struct CrtState {
  ExpState p, q;
  /// RSA-2048 (two primes of at most 1024 bits) where the CPU has AVX-512 IFMA: both CRT exponentiations at once
  /// on IFMA (rsa_ifma.hpp) instead of OpenSSL's one after the other.
  std::unique_ptr<IfmaModulus1024> ifma_p, ifma_q;
  explicit CrtState(const rsa::PrivateKey::Impl& k)
      : p(k.p, k.dp.data(), k.dp.size(), true), q(k.q, k.dq.data(), k.dq.size(), true) {
    if (ifma_available() && k.p.limbs == 16 && k.q.limbs == 16 && k.dp.size() == 16 && k.dq.size() == 16) {
      ifma_p = std::make_unique<IfmaModulus1024>(k.p.n.data());
      ifma_q = std::make_unique<IfmaModulus1024>(k.q.n.data());
    }
  }
};

template <class Impl, class State, class Make>
const State& state_of(const Impl& k, Make make) {
  std::call_once(k.cpu_once, [&] { k.cpu_state = std::shared_ptr<const State>(make()); });
  return *static_cast<const State*>(k.cpu_state.get());
}

}  // namespace

void cpu_rsa_private(std::span<const engine::RsaPrivateJob> jobs) {
  for (const engine::RsaPrivateJob& j : jobs) {
    const rsa::PrivateKey::Impl& k = j.key->impl();
    if (!k.crt) {  // keys without a usable CRT form: the portable constant-time path
      rsa::ref_rsa_private({&j, 1});
      continue;
    }
    const CrtState& s = state_of<rsa::PrivateKey::Impl, CrtState>(k, [&] { return new CrtState(k); });
    rsa::with_host_mont(false, [&](auto ops) {
      using Ops = decltype(ops);
      rsa::with_limbs(k.pubi().mod.limbs, [&](auto L) {
        constexpr std::size_t N = decltype(L)::value, H = N / 2;
        limb c[N], xp[H], xq[H], m[N];
        bn::from_bytes<N>(c, j.in, k.pubi().size());
        rsa::crt_inputs<N, Ops>(k, c, xp, xq);
        rsa::leave_mont<H, Ops>(xp, xp, k.p.view());  // c mod p, c mod q
        rsa::leave_mont<H, Ops>(xq, xq, k.q.view());
        if constexpr (H == 16) {
          if (s.ifma_p) {  // m1 = (c mod p)^dp mod p and m2 = (c mod q)^dq mod q together
            ifma_mod_exp_1024_x2(xp, xp, k.dp.data(), *s.ifma_p, xq, xq, k.dq.data(), *s.ifma_q);
          } else {
            s.p.exp(xp, xp, H, true);
            s.q.exp(xq, xq, H, true);
          }
        } else {
          s.p.exp(xp, xp, H, true);                   // m1 = (c mod p)^dp mod p
          s.q.exp(xq, xq, H, true);                   // m2 = (c mod q)^dq mod q
        }
        bn::to_mont<H, Ops>(xp, xp, k.p.view());      // m1 R mod p
        rsa::crt_combine<N, Ops>(k, xp, xq, m);
        bn::to_bytes<N>(j.out, k.pubi().size(), m);
        secure_wipe(c, sizeof c), secure_wipe(xp, sizeof xp), secure_wipe(xq, sizeof xq), secure_wipe(m, sizeof m);
      });
    });
  }
}

void cpu_rsa_public(std::span<const engine::RsaPublicJob> jobs) {
  if (mulx_adx_available()) {  // no BIGNUM conversions, no BN_CTX: faster than BN_mod_exp_mont at every size
    rsa::host_rsa_public<MulxMont>(jobs);
    return;
  }
  for (const engine::RsaPublicJob& j : jobs) {
    const rsa::PublicKey::Impl& k = j.key->impl();
    const ExpState& s =
        state_of<rsa::PublicKey::Impl, ExpState>(k, [&] { return new ExpState(k.mod, k.e.data(), k.e.size(), false); });
    rsa::with_limbs(k.mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value;
      limb x[N];
      bn::from_bytes<N>(x, j.in, k.size());
      s.exp(x, x, N, false);
      bn::to_bytes<N>(j.out, k.size(), x);
    });
  }
}

void cpu_modexp(const rsa::Modulus& mod, bytes_view exponent, std::span<const engine::ModexpJob> jobs) {
  const std::size_t e_limbs = std::max<std::size_t>(1, (exponent.size() + 7) / 8);
  rsa::Limbs e(e_limbs);
  for (std::size_t k = 0; k < exponent.size(); ++k)
    e.v[k / 8] |= static_cast<limb>(exponent[exponent.size() - 1 - k]) << (8 * (k % 8));
  const ExpState s(mod, e.data(), e_limbs, true);
  const std::size_t len = (mod.bits + 7) / 8;
  for (const engine::ModexpJob& j : jobs)
    rsa::with_limbs(mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value;
      limb x[N];
      bn::from_bytes<N>(x, j.base, len);
      s.exp(x, x, N, true);
      bn::to_bytes<N>(j.out, len, x);
      secure_wipe(x, sizeof x);
    });
}

}  // namespace cryptaccel::cpu

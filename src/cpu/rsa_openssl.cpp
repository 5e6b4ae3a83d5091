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

/// RSA-2048, -3072 and -4096 (two primes of at most 1024, 1536, 2048 bits) where the CPU has AVX-512 IFMA: both CRT
/// exponentiations at once on IFMA (rsa_ifma.hpp) instead of OpenSSL's one after the other.
template <std::size_t Bits>
struct IfmaCrt {
  IfmaModulus<Bits> p, q;
  explicit IfmaCrt(const rsa::PrivateKey::Impl& k) : p(k.p.n.data()), q(k.q.n.data()) {}
};

struct CrtState {
  ExpState p, q;
  std::unique_ptr<IfmaCrt<1024>> ifma1024;
  std::unique_ptr<IfmaCrt<1536>> ifma1536;
  std::unique_ptr<IfmaCrt<2048>> ifma2048;
  explicit CrtState(const rsa::PrivateKey::Impl& k)
      : p(k.p, k.dp.data(), k.dp.size(), true), q(k.q, k.dq.data(), k.dq.size(), true) {
    const std::size_t h = k.p.limbs;
    if (!ifma_available() || k.q.limbs != h || k.dp.size() != h || k.dq.size() != h) return;
    if (h == 16) ifma1024 = std::make_unique<IfmaCrt<1024>>(k);
    if (h == 24) ifma1536 = std::make_unique<IfmaCrt<1536>>(k);
    if (h == 32) ifma2048 = std::make_unique<IfmaCrt<2048>>(k);
  }
  /// The IFMA state for H-limb halves, or nullptr.
  template <std::size_t H>
  const void* ifma() const {
    if constexpr (H == 16) return ifma1024.get();
    if constexpr (H == 24) return ifma1536.get();
    if constexpr (H == 32) return ifma2048.get();
    return nullptr;
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
        if (const void* fast = s.ifma<H>()) {  // m1 = (c mod p)^dp mod p and m2 = (c mod q)^dq mod q together
          if constexpr (H == 16 || H == 24 || H == 32) {
            const auto& crt = *static_cast<const IfmaCrt<64 * H>*>(fast);
            ifma_mod_exp_x2<64 * H>(xp, xp, k.dp.data(), crt.p, xq, xq, k.dq.data(), crt.q);
          }
        } else {
          s.p.exp(xp, xp, H, true);  // m1 = (c mod p)^dp mod p
          s.q.exp(xq, xq, H, true);  // m2 = (c mod q)^dq mod q
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

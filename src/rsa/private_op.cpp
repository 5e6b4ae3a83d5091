// Blinding, unblinding and the result check around every engine's raw private operation; the dispatcher
// (engine/dispatch.hpp) decides how a batch is spread over host threads or handed to the engine whole. The arithmetic
// is the host's fastest Montgomery kernels (MULX/ADX where the CPU has them), portable around the reference engine.
#include "rsa/private_op.hpp"

#include <openssl/bn.h>

#include <algorithm>
#include <vector>

#include "engine/dispatch.hpp"
#include "rsa/bn_limbs.hpp"
#include "rsa/ct_declassify.hpp"
#include "rsa/host_mont.hpp"
#include "rsa/raw_ops.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::rsa {
namespace {

/// Fills the key's pool with Blinding::kPool fresh random r (OpenSSL's DRBG, 0 < r < n) and their inverses, all in
/// Montgomery form, at the price of one constant-time modular inverse (OpenSSL's): with prefix products
/// P_i = r_0 ... r_i, inv = P_last^-1 gives r_i^-1 = inv P_(i-1) and then inv <- inv r_i, walking back. Every step
/// is a constant-time Montgomery product; the inverse fails only when gcd(P_last, n) != 1 (a factor of n drawn:
/// probability ~2^-1000), and then the pool is drawn again.
template <std::size_t N, class Ops>
void refill_pool(const PublicKey::Impl& pub, Blinding& b) {
  constexpr std::size_t K = Blinding::kPool;
  BnCtxPtr ctx(BN_CTX_secure_new());
  if (!ctx) throw Error("rsa: out of memory");
  const BnPtr n(bn_from_limbs(pub.mod.n.data(), N, false));
  BnPtr r(BN_secure_new()), inv;
  if (!r) throw Error("rsa: out of memory");
  const bn::MontView m = pub.mod.view();
  b.pool_r = Limbs(K * N), b.pool_ri = Limbs(K * N);
  Limbs prefix(K * N);  // P_i R
  limb x[N];
  for (int attempt = 0; !inv; ++attempt) {
    if (attempt == 4) throw Error("rsa: cannot draw blinding factors");
    for (std::size_t i = 0; i < K; ++i) {
      do {
        if (BN_priv_rand_range(r.get(), n.get()) != 1) throw Error("rsa: cannot draw a blinding factor");
      } while (BN_is_zero(r.get()));
      bn_to_limbs(r.get(), x, N);
      limb* ri = b.pool_r.data() + i * N;
      bn::to_mont<N, Ops>(ri, x, m);
      if (i == 0)
        for (std::size_t j = 0; j < N; ++j) prefix.v[j] = ri[j];
      else
        Ops::template mul<N>(prefix.data() + i * N, prefix.data() + (i - 1) * N, ri, m.n, m.n0);
    }
    bn::from_mont<N, Ops>(x, prefix.data() + (K - 1) * N, m);
    const BnPtr product(bn_from_limbs(x, N, true));
    inv.reset(BN_mod_inverse(nullptr, product.get(), n.get(), ctx.get()));
  }
  limb acc[N];  // (r_0 ... r_i)^-1 R
  bn_to_limbs(inv.get(), x, N);
  bn::to_mont<N, Ops>(acc, x, m);
  for (std::size_t i = K; i-- > 1;) {
    Ops::template mul<N>(b.pool_ri.data() + i * N, acc, prefix.data() + (i - 1) * N, m.n, m.n0);  // r_i^-1 R
    Ops::template mul<N>(acc, acc, b.pool_r.data() + i * N, m.n, m.n0);
  }
  for (std::size_t j = 0; j < N; ++j) b.pool_ri.v[j] = acc[j];
  b.pool_left = K;
  secure_wipe(x, sizeof x), secure_wipe(acc, sizeof acc);
}

/// New blinding factors from the pool's next r (refilled when empty): a = r^e R mod n, ai = r^-1 R mod n.
template <std::size_t N, class Ops>
void refresh_blinding(const PublicKey::Impl& pub, Blinding& b) {
  if (b.pool_left == 0) refill_pool<N, Ops>(pub, b);
  const std::size_t i = --b.pool_left;
  limb* r = b.pool_r.data() + i * N;
  limb* ri = b.pool_ri.data() + i * N;
  b.a = Limbs(N), b.ai = Limbs(N);
  bn::mont_exp_public<N, Ops>(b.a.data(), r, pub.e.data(), N, pub.mod.view());
  for (std::size_t j = 0; j < N; ++j) b.ai.v[j] = ri[j];
  secure_wipe(r, N * sizeof(limb)), secure_wipe(ri, N * sizeof(limb));
}

/// This operation's blinding pair (copies into a, ai); advances the key's pair (squares both) or refreshes it.
template <std::size_t N, class Ops>
void take_blinding(const PrivateKey::Impl& k, limb* a, limb* ai) {
  Blinding& b = k.blinding;
  std::lock_guard<std::mutex> lock(b.mutex);
  const bn::MontView m = k.pubi().mod.view();
  if (b.uses == 0) refresh_blinding<N, Ops>(k.pubi(), b);
  for (std::size_t i = 0; i < N; ++i) a[i] = b.a.v[i], ai[i] = b.ai.v[i];
  Ops::template sqr<N>(b.a.data(), b.a.data(), m.n, m.n0);
  Ops::template sqr<N>(b.ai.data(), b.ai.data(), m.n, m.n0);
  b.uses = (b.uses + 1) % Blinding::kRefresh;
}

/// Per-item scratch between the phases: the blinded input, then the raw result; and the unblinding factor.
struct Scratch {
  std::vector<std::uint8_t> blinded;
  Limbs ai;
};

template <std::size_t N, class Ops>
void blind(const PrivateItem& item, Scratch& s) {
  const PrivateKey::Impl& k = item.key->impl();
  const bn::MontView m = k.pubi().mod.view();
  const std::size_t len = k.pubi().size();
  limb c[N], a[N];
  s.ai = Limbs(N);
  take_blinding<N, Ops>(k, a, s.ai.data());
  bn::from_bytes<N>(c, item.in, len);
  Ops::template mul<N>(c, c, a, m.n, m.n0);  // c r^e
  s.blinded.assign(len, 0);
  bn::to_bytes<N>(s.blinded.data(), len, c);
  secure_wipe(a, sizeof a);
}

template <std::size_t N, class Ops>
bool unblind_and_check(const PrivateItem& item, Scratch& s) {
  const PrivateKey::Impl& k = item.key->impl();
  const PublicKey::Impl& pub = k.pubi();
  const bn::MontView m = pub.mod.view();
  const std::size_t len = pub.size();
  limb r[N], c[N], v[N];
  bn::from_bytes<N>(r, s.blinded.data(), len);
  Ops::template mul<N>(r, r, s.ai.data(), m.n, m.n0);  // s' r^-1
  // A signature is public from here on (tests/ct's analysis may treat it so); a decryption result stays secret and
  // only the check's verdict (fault or not) is public.
  if (item.publish) declassify(r, sizeof r);
  public_exp<N, Ops>(pub, r, v);
  bn::from_bytes<N>(c, item.in, len);
  limb same = bn::equal_mask<N>(v, c);
  declassify(&same, sizeof same);
  const bool ok = same != 0;
  if (ok)
    bn::to_bytes<N>(item.out, len, r);
  else
    secure_wipe(item.out, len);
  secure_wipe(r, sizeof r), secure_wipe(s.blinded.data(), s.blinded.size());
  return ok;
}

}  // namespace

bool less_than_modulus(const PublicKey::Impl& key, const std::uint8_t* x) {
  return with_limbs(key.mod.limbs, [&](auto L) {
    constexpr std::size_t N = decltype(L)::value;
    limb v[N];
    bn::from_bytes<N>(v, x, key.size());
    return bn::less_than<N>(v, key.mod.n.data()) != 0;
  });
}

void run_private(const engine::Engine& engine, std::span<PrivateItem> items, std::size_t threads) {
  std::vector<Scratch> scratch(items.size());
  // Blinding and the check run on the host's fastest Montgomery kernels, except around the portable reference
  // engine, which asks for portable ones (host_mont.hpp).
  const bool portable = engine.portable_reference();
  const auto blind_one = [&](std::size_t i) {
    with_host_mont(portable, [&](auto ops) {
      with_limbs(items[i].key->impl().pubi().mod.limbs,
                 [&](auto L) { blind<decltype(L)::value, decltype(ops)>(items[i], scratch[i]); });
    });
    return engine::RsaPrivateJob{items[i].key, scratch[i].blinded.data(), scratch[i].blinded.data()};
  };
  const auto finish_one = [&](std::size_t i) {
    items[i].ok = with_host_mont(portable, [&](auto ops) {
      return with_limbs(items[i].key->impl().pubi().mod.limbs, [&](auto L) {
        return unblind_and_check<decltype(L)::value, decltype(ops)>(items[i], scratch[i]);
      });
    });
  };
  engine::run_rsa_private_jobs(engine, items.size(), threads, blind_one, finish_one);
}

void run_public(const engine::Engine& engine, std::span<PublicItem> items, std::size_t threads) {
  std::vector<engine::RsaPublicJob> jobs;
  jobs.reserve(items.size());
  for (const PublicItem& item : items) jobs.push_back(engine::RsaPublicJob{item.key, item.in, item.out});
  engine::run_rsa_public_jobs(engine, jobs, threads);
}

}  // namespace cryptaccel::rsa

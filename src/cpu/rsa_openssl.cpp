// See rsa_openssl.hpp.
#include "cpu/rsa_openssl.hpp"

#include <openssl/bn.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "rsa/mont_mulx.hpp"
#include "cpu/rsa_ifma.hpp"
#include "cpu/rsa_ifma_mb.hpp"
#include "rsa/bn_limbs.hpp"
#include "rsa/host_mont.hpp"
#include "rsa/host_ops.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::cpu {
namespace {

using rsa::limb;
namespace bn = algo::bn;

/// This thread's BN_CTX (secure heap: it holds intermediates of private operations).
BN_CTX* thread_ctx() {
  thread_local BnCtxPtr ctx(BN_CTX_secure_new());
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

/// A public key's state: its modulus prepared for the IFMA kernel (RSA-2048/3072/4096 where the CPU has IFMA), else
/// OpenSSL's (made on first use, for CPUs without MULX/ADX).
struct PublicState {
  std::unique_ptr<IfmaModulus<2048>> ifma2048;
  std::unique_ptr<IfmaModulus<3072>> ifma3072;
  std::unique_ptr<IfmaModulus<4096>> ifma4096;

  explicit PublicState(const rsa::PublicKey::Impl& k) : key_(k) {
    if (!ifma_available()) return;
    const std::size_t n = k.mod.limbs;
    if (n == 32) ifma2048 = std::make_unique<IfmaModulus<2048>>(k.mod.n.data());
    if (n == 48) ifma3072 = std::make_unique<IfmaModulus<3072>>(k.mod.n.data());
    if (n == 64) ifma4096 = std::make_unique<IfmaModulus<4096>>(k.mod.n.data());
  }
  /// Job j (its key is this one) on the IFMA kernel; call only when one of the moduli is set.
  void ifma_public(const engine::RsaPublicJob& j) const {
    auto run = [&](const auto& mod) {
      constexpr std::size_t N = std::remove_reference_t<decltype(mod)>::kLimbs64;
      limb x[N];
      bn::from_bytes<N>(x, j.in, key_.size());
      ifma_mod_exp_public(x, x, key_.e.data(), key_.e.size(), mod);
      bn::to_bytes<N>(j.out, key_.size(), x);
      secure_wipe(x, sizeof x);  // an encryption's padded message
    };
    if (ifma2048) run(*ifma2048);
    else if (ifma3072) run(*ifma3072);
    else run(*ifma4096);
  }
  /// OpenSSL's exponentiation with this key's e.
  const ExpState& openssl() const {
    std::call_once(openssl_once_, [&] { openssl_ = std::make_unique<ExpState>(key_.mod, key_.e.data(), key_.e.size(), false); });
    return *openssl_;
  }

 private:
  const rsa::PublicKey::Impl& key_;
  mutable std::once_flag openssl_once_;
  mutable std::unique_ptr<ExpState> openssl_;
};

template <class Impl, class State, class Make>
const State& state_of(const Impl& k, Make make) {
  std::call_once(k.cpu_once, [&] { k.cpu_state = std::shared_ptr<const State>(make()); });
  return *static_cast<const State*>(k.cpu_state.get());
}

/// The CRT inputs of job j in normal form: xp = c mod p, xq = c mod q (H = N / 2 limbs each). Constant time.
template <std::size_t N, class Ops>
void crt_split(const rsa::PrivateKey::Impl& k, const engine::RsaPrivateJob& j, limb* xp, limb* xq) {
  constexpr std::size_t H = N / 2;
  limb c[N];
  bn::from_bytes<N>(c, j.in, k.pubi().size());
  rsa::crt_inputs<N, Ops>(k, c, xp, xq);
  rsa::leave_mont<H, Ops>(xp, xp, k.p.view());  // c mod p, c mod q
  rsa::leave_mont<H, Ops>(xq, xq, k.q.view());
  secure_wipe(c, sizeof c);
}

/// Job j's result from m1 = c^dp mod p (in xp, overwritten) and m2 = c^dq mod q: Garner's recombination into j.out.
template <std::size_t N, class Ops>
void crt_finish(const rsa::PrivateKey::Impl& k, const engine::RsaPrivateJob& j, limb* xp, const limb* xq) {
  constexpr std::size_t H = N / 2;
  limb m[N];
  bn::to_mont<H, Ops>(xp, xp, k.p.view());  // m1 R mod p
  rsa::crt_combine<N, Ops>(k, xp, xq, m);
  bn::to_bytes<N>(j.out, k.pubi().size(), m);
  secure_wipe(m, sizeof m);
}

const CrtState& crt_state(const rsa::PrivateKey::Impl& k) {
  return state_of<rsa::PrivateKey::Impl, CrtState>(k, [&] { return new CrtState(k); });
}

/// One job on its own: both CRT halves on the IFMA x2 kernel where the key has one, else OpenSSL's; keys without a
/// usable CRT form on the portable constant-time path.
void private_one(const engine::RsaPrivateJob& j) {
  const rsa::PrivateKey::Impl& k = j.key->impl();
  if (!k.crt) {
    rsa::ref_rsa_private({&j, 1});
    return;
  }
  const CrtState& s = crt_state(k);
  rsa::with_host_mont(false, [&](auto ops) {
    using Ops = decltype(ops);
    rsa::with_limbs(k.pubi().mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value, H = N / 2;
      limb xp[H], xq[H];
      crt_split<N, Ops>(k, j, xp, xq);
      if (const void* fast = s.ifma<H>()) {  // m1 = (c mod p)^dp mod p and m2 = (c mod q)^dq mod q together
        if constexpr (H == 16 || H == 24 || H == 32) {
          const auto& crt = *static_cast<const IfmaCrt<64 * H>*>(fast);
          ifma_mod_exp_x2<64 * H>(xp, xp, k.dp.data(), crt.p, xq, xq, k.dq.data(), crt.q);
        }
      } else {
        s.p.exp(xp, xp, H, true);  // m1 = (c mod p)^dp mod p
        s.q.exp(xq, xq, H, true);  // m2 = (c mod q)^dq mod q
      }
      crt_finish<N, Ops>(k, j, xp, xq);
      secure_wipe(xp, sizeof xp), secure_wipe(xq, sizeof xq);
    });
  });
}

/// Signatures per multi-buffer call: the p- and q-halves of four jobs fill its eight lanes.
constexpr std::size_t kMbJobs = kIfmaMbLanes / 2;
/// The fewest jobs of one size (H-limb primes) worth a multi-buffer call with lanes left unused; fewer go to the x2
/// kernel one by one. One mb8 call costs about 1.5 x2 calls at 1024 bits, 2.2 at 1536 and 2.7 at 2048 (min of 300
/// calls each on the Xeon of bench/results/2026-11-28-xeon-2c-ifma-vaes/rsa-mb).
template <std::size_t H>
constexpr std::size_t kMbMinJobs = H == 16 ? 2 : 3;

/// The jobs `idx` (keys with IFMA CRT halves of H limbs) through ifma_mod_exp_mb8, four per call (eight CRT halves,
/// lanes p0 q0 p1 q1 ...); a last group of fewer than kMbMinJobs<H> one by one. Blinding and the result check stay
/// around this, in src/rsa/private_op.cpp, as for the per-job path.
template <std::size_t H>
void private_mb(std::span<const engine::RsaPrivateJob> jobs, const std::vector<std::size_t>& idx) {
  constexpr std::size_t N = 2 * H, Bits = 64 * H;
  rsa::with_host_mont(false, [&](auto ops) {
    using Ops = decltype(ops);
    limb xp[kMbJobs][H], xq[kMbJobs][H];
    for (std::size_t first = 0; first < idx.size(); first += kMbJobs) {
      const std::size_t n = std::min(kMbJobs, idx.size() - first);
      if (n < kMbMinJobs<H>) {
        for (std::size_t i = first; i < idx.size(); ++i) private_one(jobs[idx[i]]);
        break;
      }
      limb* out[kIfmaMbLanes] = {};
      const limb* base[kIfmaMbLanes] = {};
      const limb* exp[kIfmaMbLanes] = {};
      const IfmaModulus<Bits>* mod[kIfmaMbLanes] = {};
      for (std::size_t g = 0; g < n; ++g) {
        const engine::RsaPrivateJob& j = jobs[idx[first + g]];
        const rsa::PrivateKey::Impl& k = j.key->impl();
        const auto& crt = *static_cast<const IfmaCrt<Bits>*>(crt_state(k).template ifma<H>());
        crt_split<N, Ops>(k, j, xp[g], xq[g]);
        out[2 * g] = xp[g], base[2 * g] = xp[g], exp[2 * g] = k.dp.data(), mod[2 * g] = &crt.p;
        out[2 * g + 1] = xq[g], base[2 * g + 1] = xq[g], exp[2 * g + 1] = k.dq.data(), mod[2 * g + 1] = &crt.q;
      }
      ifma_mod_exp_mb8<Bits>(out, base, exp, mod);
      for (std::size_t g = 0; g < n; ++g) {
        const engine::RsaPrivateJob& j = jobs[idx[first + g]];
        crt_finish<N, Ops>(j.key->impl(), j, xp[g], xq[g]);
      }
    }
    secure_wipe(xp, sizeof xp), secure_wipe(xq, sizeof xq);
  });
}

}  // namespace

void cpu_rsa_private(std::span<const engine::RsaPrivateJob> jobs) {
  if (jobs.size() < 2 || !ifma_available()) {
    for (const engine::RsaPrivateJob& j : jobs) private_one(j);
    return;
  }
  // Jobs whose keys have IFMA CRT halves, by size (1024-, 1536-, 2048-bit primes), on the multi-buffer kernel; the
  // others one by one. Which path a job takes depends on its key's sizes only (public).
  std::vector<std::size_t> by_size[3];
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const rsa::PrivateKey::Impl& k = jobs[i].key->impl();
    const std::size_t n = k.pubi().mod.limbs;
    if (!k.crt || k.p.limbs != n / 2) {
      private_one(jobs[i]);
      continue;
    }
    const CrtState& s = crt_state(k);
    if (n == 32 && s.ifma<16>())
      by_size[0].push_back(i);
    else if (n == 48 && s.ifma<24>())
      by_size[1].push_back(i);
    else if (n == 64 && s.ifma<32>())
      by_size[2].push_back(i);
    else
      private_one(jobs[i]);
  }
  private_mb<16>(jobs, by_size[0]);
  private_mb<24>(jobs, by_size[1]);
  private_mb<32>(jobs, by_size[2]);
}

void cpu_rsa_public(std::span<const engine::RsaPublicJob> jobs) {
  for (const engine::RsaPublicJob& j : jobs) {
    const rsa::PublicKey::Impl& k = j.key->impl();
    const PublicState& s = state_of<rsa::PublicKey::Impl, PublicState>(k, [&] { return new PublicState(k); });
    if (s.ifma2048 || s.ifma3072 || s.ifma4096) {
      s.ifma_public(j);
      continue;
    }
    // No BIGNUM conversions, no BN_CTX: without IFMA ahead of BN_mod_exp_mont at 2048 bits (1.11-1.12x verify),
    // level at 3072 and 4096 (0.96-1.03x; the MULX product is ~12 % slower than OpenSSL's mulx4x, which the saved
    // conversions and REDC make up for): bench/results/2026-11-28c-xeon-2c-fresh-output.
    if (rsa::mulx_adx_available()) {
      rsa::host_rsa_public<rsa::MulxMont>({&j, 1});
      continue;
    }
    rsa::with_limbs(k.mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value;
      limb x[N];
      bn::from_bytes<N>(x, j.in, k.size());
      s.openssl().exp(x, x, N, false);
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

// See rsa_jobs.hpp. Per-job scratch (the CRT halves, the operands) is held in rsa::Limbs, wiped when released.
#include "cuda/rsa/rsa_jobs.hpp"

#include <algorithm>
#include <vector>

#include "engine/thread_pool.hpp"
#include "rsa/host_ops.hpp"
#include "rsa/key_impl.hpp"
#include "rsa/raw_ops.hpp"

namespace cryptaccel::cuda {

namespace bn = algo::bn;
using rsa::limb;

void rsa_private_jobs(std::span<const engine::RsaPrivateJob> jobs, const RsaRunner& run) {
  // Per job: N limbs of scratch (CRT: c mod p in the low half, c mod q in the high half; otherwise c).
  std::vector<rsa::Limbs> scratch(jobs.size());
  std::vector<RsaTask> tasks(2 * jobs.size());
  std::vector<std::uint8_t> crt_task(jobs.size());
  engine::parallel_for(jobs.size(), 0, [&](std::size_t i) {
    const rsa::PrivateKey::Impl& k = jobs[i].key->impl();
    const rsa::Modulus& mod = k.pubi().mod;
    scratch[i] = rsa::Limbs(mod.limbs);
    limb* s = scratch[i].data();
    rsa::with_limbs(mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value, H = N / 2;
      limb c[N];
      bn::from_bytes<N>(c, jobs[i].in, k.pubi().size());
      if (k.crt) {
        rsa::crt_inputs<N>(k, c, s, s + H);       // c R mod p, c R mod q
        bn::from_mont<H>(s, s, k.p.view());       // c mod p
        bn::from_mont<H>(s + H, s + H, k.q.view());  // c mod q
        tasks[2 * i] = RsaTask{&k.p, k.dp.data(), H, 64 * H, RsaExpKind::secret, s, s};
        tasks[2 * i + 1] = RsaTask{&k.q, k.dq.data(), H, 64 * H, RsaExpKind::secret, s + H, s + H};
        crt_task[i] = 1;
      } else {
        for (std::size_t t = 0; t < N; ++t) s[t] = c[t];
        tasks[2 * i] = RsaTask{&mod, k.d.data(), N, 64 * N, RsaExpKind::secret, s, s};
      }
      secure_wipe(c, sizeof c);
    });
  });
  std::vector<RsaTask> todo;  // CRT jobs contribute two tasks, the others one
  todo.reserve(tasks.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    todo.push_back(tasks[2 * i]);
    if (crt_task[i]) todo.push_back(tasks[2 * i + 1]);
  }
  run(todo);
  engine::parallel_for(jobs.size(), 0, [&](std::size_t i) {
    const rsa::PrivateKey::Impl& k = jobs[i].key->impl();
    limb* s = scratch[i].data();
    rsa::with_limbs(k.pubi().mod.limbs, [&](auto L) {
      constexpr std::size_t N = decltype(L)::value, H = N / 2;
      limb m[N];
      if (crt_task[i]) {
        bn::to_mont<H>(s, s, k.p.view());  // m1 R mod p
        rsa::crt_combine<N>(k, s, s + H, m);
      } else {
        for (std::size_t t = 0; t < N; ++t) m[t] = s[t];
      }
      bn::to_bytes<N>(jobs[i].out, k.pubi().size(), m);
      secure_wipe(m, sizeof m);
    });
    scratch[i].wipe();
  });
}

void rsa_public_jobs(std::span<const engine::RsaPublicJob> jobs, const RsaRunner& run) {
  std::vector<rsa::Limbs> values(jobs.size());
  std::vector<RsaTask> tasks(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const rsa::PublicKey::Impl& k = jobs[i].key->impl();
    values[i] = rsa::Limbs(k.mod.limbs);
    rsa::with_limbs(k.mod.limbs, [&](auto L) { bn::from_bytes<decltype(L)::value>(values[i].data(), jobs[i].in, k.size()); });
    tasks[i] = RsaTask{&k.mod, k.e.data(), k.e.size(), 0, RsaExpKind::public_e, values[i].data(), values[i].data()};
  }
  run(tasks);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const rsa::PublicKey::Impl& k = jobs[i].key->impl();
    rsa::with_limbs(k.mod.limbs, [&](auto L) { bn::to_bytes<decltype(L)::value>(jobs[i].out, k.size(), values[i].data()); });
  }
}

void rsa_modexp_jobs(const rsa::Modulus& mod, bytes_view exponent, std::span<const engine::ModexpJob> jobs,
                     const RsaRunner& run) {
  const std::size_t e_limbs = std::max<std::size_t>(1, (exponent.size() + 7) / 8);
  if (e_limbs > mod.limbs) {  // the device keeps exponents of at most the modulus' size: these run on the host, in
    // the shared portable code (an engine never calls another engine)
    rsa::host_modexp<bn::PortableMont>(mod, exponent, jobs);
    return;
  }
  rsa::Limbs e(e_limbs);
  for (std::size_t k = 0; k < exponent.size(); ++k)
    e.v[k / 8] |= static_cast<limb>(exponent[exponent.size() - 1 - k]) << (8 * (k % 8));
  const std::size_t len = (mod.bits + 7) / 8;
  std::vector<rsa::Limbs> values(jobs.size());
  std::vector<RsaTask> tasks(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    values[i] = rsa::Limbs(mod.limbs);
    rsa::with_limbs(mod.limbs, [&](auto L) { bn::from_bytes<decltype(L)::value>(values[i].data(), jobs[i].base, len); });
    tasks[i] = RsaTask{&mod, e.data(), e_limbs, 8 * exponent.size(), RsaExpKind::secret, values[i].data(),
                       values[i].data()};
  }
  run(tasks);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    rsa::with_limbs(mod.limbs, [&](auto L) { bn::to_bytes<decltype(L)::value>(jobs[i].out, len, values[i].data()); });
}

}  // namespace cryptaccel::cuda

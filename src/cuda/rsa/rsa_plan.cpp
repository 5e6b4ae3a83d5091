// See rsa_plan.hpp. 64-bit host limb i is 32-bit device words 2i (low half) and 2i+1; R = 2^(64 L) = 2^(32 N) for
// N = 2L, so the host's R^2 mod n serves the device unchanged, and -n^-1 mod 2^32 is the low word of -n^-1 mod 2^64.
#include "cuda/rsa/rsa_plan.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace cryptaccel::cuda {
namespace {

/// Significant 64-bit limbs of v (at least 1).
std::size_t significant_limbs(const rsa::limb* v, std::size_t limbs) {
  while (limbs > 1 && v[limbs - 1] == 0) --limbs;
  return limbs;
}

/// 32-bit word k of a value of `limbs` 64-bit limbs (0 beyond its end).
rsa_word word_of(const rsa::limb* v, std::size_t limbs, std::size_t k) {
  const std::size_t i = k / 2;
  if (i >= limbs) return 0;
  return static_cast<rsa_word>(v[i] >> (32 * (k % 2)));
}

}  // namespace

void check_rsa_words(std::size_t words) {
  if (!rsa_dispatch_words(words, [](auto) {}))
    throw InvalidArgument("rsa: no GPU kernel for a " + std::to_string(32 * words) + "-bit operand");
}

std::vector<RsaLaunch> rsa_plan(std::span<const RsaTask> tasks, std::size_t max_jobs, RsaKernel kernel) {
  if (max_jobs == 0) max_jobs = 1;
  using Key = std::tuple<std::size_t, int, std::uint32_t>;  // words, kind, e_bits (0 for public)
  std::map<Key, std::size_t> group_of;                       // key -> index of its first group
  std::vector<std::vector<std::size_t>> groups;
  std::vector<RsaLaunch> shapes;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const RsaTask& task = tasks[t];
    const std::size_t words = 2 * task.modulus->limbs;
    check_rsa_words(words);
    if (task.exponent_limbs > task.modulus->limbs)
      throw InvalidArgument("rsa: exponent longer than its modulus for the GPU");
    const std::uint32_t e_bits =
        task.kind == RsaExpKind::secret ? static_cast<std::uint32_t>(task.exponent_bits) : 0;
    const Key key{words, static_cast<int>(task.kind), e_bits};
    auto [it, fresh] = group_of.try_emplace(key, groups.size());
    if (fresh) {
      groups.emplace_back();
      RsaLaunch shape;
      shape.words = words;
      shape.kind = task.kind;
      shape.e_bits = e_bits;
      shape.e_words = task.kind == RsaExpKind::secret ? static_cast<std::uint32_t>(words) : 1;
      shape.kernel = rsa_kernel_supports(kernel, words) ? kernel : RsaKernel::thread;
      shapes.push_back(shape);
    }
    RsaLaunch& shape = shapes[it->second];
    if (task.kind == RsaExpKind::public_e)  // public: the longest significant exponent of the group
      shape.e_words = std::max<std::uint32_t>(
          shape.e_words, static_cast<std::uint32_t>(2 * significant_limbs(task.exponent, task.exponent_limbs)));
    groups[it->second].push_back(t);
  }
  std::vector<RsaLaunch> launches;
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t begin = 0; begin < groups[g].size(); begin += max_jobs) {
      RsaLaunch l = shapes[g];
      const std::size_t end = std::min(groups[g].size(), begin + max_jobs);
      l.tasks.assign(groups[g].begin() + static_cast<std::ptrdiff_t>(begin),
                     groups[g].begin() + static_cast<std::ptrdiff_t>(end));
      launches.push_back(std::move(l));
    }
  return launches;
}

void rsa_pack(const RsaLaunch& launch, std::span<const RsaTask> tasks, rsa_word* buffer) {
  const std::uint64_t c = launch.count(), N = launch.words, E = launch.e_words;
  const RsaLayout l = RsaLayout::of(c, N, E);
  for (std::uint64_t j = 0; j < c; ++j) {
    const RsaTask& t = tasks[launch.tasks[j]];
    const rsa::Modulus& m = *t.modulus;
    for (std::uint64_t k = 0; k < N; ++k) {
      buffer[l.x + k * c + j] = word_of(t.base, m.limbs, k);
      buffer[l.n + k * c + j] = word_of(m.n.data(), m.limbs, k);
      buffer[l.rr + k * c + j] = word_of(m.rr.data(), m.limbs, k);
    }
    for (std::uint64_t k = 0; k < E; ++k) buffer[l.e + k * c + j] = word_of(t.exponent, t.exponent_limbs, k);
    buffer[l.n0 + j] = static_cast<rsa_word>(m.n0);
  }
}

void rsa_unpack(const RsaLaunch& launch, std::span<const RsaTask> tasks, const rsa_word* buffer) {
  const std::uint64_t c = launch.count(), N = launch.words;
  const RsaLayout l = RsaLayout::of(c, N, launch.e_words);
  for (std::uint64_t j = 0; j < c; ++j) {
    const RsaTask& t = tasks[launch.tasks[j]];
    for (std::uint64_t i = 0; i < N / 2; ++i)
      t.out[i] = static_cast<rsa::limb>(buffer[l.x + (2 * i) * c + j]) |
                 static_cast<rsa::limb>(buffer[l.x + (2 * i + 1) * c + j]) << 32;
  }
}

RsaModexpArgs rsa_launch_args(const RsaLaunch& launch, rsa_word* buffer) {
  return rsa_args(buffer, launch.count(), launch.words, launch.e_words, launch.e_bits);
}

void rsa_emulate(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind) {
  check_rsa_words(words);
  rsa_dispatch_words(words, [&](auto W) {
    rsa_emulate_jobs(a, kind, [&](auto K, std::uint64_t j) {
      rsa_modexp_thread<decltype(W)::value, decltype(K)::value>(a, j);
    });
  });
}

}  // namespace cryptaccel::cuda

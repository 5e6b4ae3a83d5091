// The fp64 RSA kernel variant without a GPU (src/algo/montgomery_fp64.hpp, src/cuda/rsa/rsa_fp64_ops.hpp): the host's fma
// is a real fused multiply-add and the two-FMA product halves are exact; the radix conversions round trip; the
// Montgomery product and square against OpenSSL's BN (a b R^-1 mod n for R = 2^(B M)) on random and edge operands and
// moduli for every supported size; the kernel's per-thread body (through rsa_emulate_fp64, as EmulatedDevice runs it)
// against BN_mod_exp for secret and public exponents. The variant through the plan, executor and engine paths is
// covered by tests/cpp/test_rsa_cuda_plan.cpp (Kernels/RsaCudaEmulated.*/fp64).
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bn_test_util.hpp"
#include "algo/montgomery_fp64.hpp"
#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_fp64_ops.hpp"
#include "cuda/rsa/rsa_kernel_variant.hpp"

namespace cryptaccel {
namespace {

namespace bn = algo::bn;
namespace fp = algo::bn::fp64;
using u64 = std::uint64_t;

using test::Bn;
using test::Ctx;
using test::CtxDel;

Bn bn_new() { return Bn(BN_new()); }

/// The number whose little-endian digits of `bits` bits are d.
template <class T>
Bn digits_to_bn(const T* d, std::size_t count, unsigned bits) {
  Bn r = bn_new(), t = bn_new();
  BN_zero(r.get());
  for (std::size_t k = count; k-- > 0;) {
    BN_lshift(r.get(), r.get(), static_cast<int>(bits));
    BN_set_word(t.get(), static_cast<BN_ULONG>(d[k]));
    BN_add(r.get(), r.get(), t.get());
  }
  return r;
}

/// The `count` little-endian digits of `bits` bits of b (which must fit).
template <class T>
std::vector<T> bn_to_digits(const BIGNUM* b, std::size_t count, unsigned bits) {
  std::vector<T> out(count);
  for (std::size_t k = 0; k < count; ++k)
    for (unsigned i = 0; i < bits; ++i)
      if (BN_is_bit_set(b, static_cast<int>(k * bits + i))) out[k] |= T{1} << i;
  EXPECT_LE(BN_num_bits(b), static_cast<int>(count * bits));
  return out;
}

Bn pow2(int e) {
  Bn r = bn_new();
  BN_zero(r.get());
  BN_set_bit(r.get(), e);
  return r;
}

// --- the floating-point ground ---

TEST(Fp64Radix, HostFmaIsFused) {
  // (2^27 + 1)^2 = 2^54 + 2^28 + 1 needs 55 bits: a rounded product loses the 1, a fused one keeps it.
  volatile double va = 134217729.0, vc = -18014398777917440.0;  // volatile: no compile-time folding
  const double a = va, c = vc;
  EXPECT_EQ(fp::fma_rn(a, a, c), 1.0);
  EXPECT_EQ(std::fma(a, a, c), 1.0);
}

TEST(Fp64Radix, ShapesAndConstants) {
  EXPECT_EQ(fp::Shape<16>::limbs, 11u);
  EXPECT_EQ(fp::Shape<16>::bits, 47u);
  EXPECT_EQ(fp::Shape<32>::limbs, 21u);
  EXPECT_EQ(fp::Shape<32>::bits, 49u);
  EXPECT_EQ(fp::Shape<48>::limbs, 31u);
  EXPECT_EQ(fp::Shape<48>::bits, 50u);
  EXPECT_EQ(fp::Shape<64>::limbs, 41u);
  EXPECT_EQ(fp::Shape<64>::bits, 50u);
  EXPECT_EQ(fp::Shape<64>::slack, 2u);
  EXPECT_EQ(fp::Shape<48>::slack, 14u);
  using R = fp::Radix<50>;
  EXPECT_EQ(fp::bits_of(R::c_hi), fp::bits_of(std::ldexp(1.0, 102)));
  EXPECT_EQ(R::hi_bits, fp::bits_of(std::ldexp(1.0, 102)));
  EXPECT_EQ(R::lo_bits, fp::bits_of(std::ldexp(1.0, 52) + std::ldexp(1.0, 50)));
  EXPECT_EQ(R::c_lo - R::c_hi, R::k_lo);  // C + K is exact
  for (u64 v : {u64{0}, u64{1}, u64{12345}, (u64{1} << 52) - 1}) {
    EXPECT_EQ(fp::to_double(v), static_cast<double>(v)) << v;
    EXPECT_EQ(fp::to_integer(static_cast<double>(v)), v) << v;
  }
}

/// mul_acc's halves of a * b recombine to the exact product, with |lo| <= 2^(B-1) and H = round(a b / 2^B).
template <unsigned B>
void check_halves(std::mt19937_64& rng) {
  SCOPED_TRACE("radix bits " + std::to_string(B));
  using R = fp::Radix<B>;
  std::vector<std::pair<u64, u64>> cases = {{0, 0}, {1, 1}, {R::mask, R::mask}, {2 * R::mask, R::mask}, {R::mask, 1}};
  for (int i = 0; i < 2000; ++i) cases.push_back({rng() & R::mask, rng() & R::mask});
  for (int i = 0; i < 500; ++i) cases.push_back({(rng() & R::mask) << 1, rng() & R::mask});  // a doubled limb
  for (const auto& [a, b] : cases) {
    u64 lo = 0, hi = 0;
    fp::mul_acc<B>(static_cast<double>(a), static_cast<double>(b), lo, hi);
    const auto l = static_cast<std::int64_t>(lo - R::lo_bits);
    const u64 h = hi - R::hi_bits;
    const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
    ASSERT_EQ(static_cast<__int128>(h) * (__int128{1} << B) + l, static_cast<__int128>(p)) << a << " * " << b;
    ASSERT_LE(l < 0 ? -l : l, std::int64_t{1} << (B - 1)) << a << " * " << b;
  }
}

TEST(Fp64Radix, ProductHalvesAreExact) {
  std::mt19937_64 rng(4711);
  check_halves<47>(rng);
  check_halves<49>(rng);
  check_halves<50>(rng);
}

// --- conversions ---

template <std::size_t N>
void check_round_trip(std::mt19937_64& rng) {
  using S = fp::Shape<N>;
  SCOPED_TRACE("words " + std::to_string(N));
  for (int trial = 0; trial < 20; ++trial) {
    std::uint32_t w[N], back[N];
    for (auto& v : w) v = static_cast<std::uint32_t>(rng());
    if (trial == 0)
      for (auto& v : w) v = 0xffffffffu;
    if (trial == 1)
      for (auto& v : w) v = 0;
    u64 limbs[S::limbs];
    fp::words_to_limbs<N, S::limbs, S::bits>(limbs, w);
    for (u64 l : limbs) ASSERT_EQ(l >> S::bits, 0u);
    EXPECT_EQ(BN_cmp(digits_to_bn(limbs, S::limbs, S::bits).get(), digits_to_bn(w, N, 32).get()), 0) << trial;
    fp::limbs_to_words<N, S::limbs, S::bits>(back, limbs);
    for (std::size_t k = 0; k < N; ++k) ASSERT_EQ(back[k], w[k]) << trial << " word " << k;
  }
}

TEST(Fp64Convert, WordsToLimbsRoundTrip) {
  std::mt19937_64 rng(5);
  check_round_trip<16>(rng);
  check_round_trip<32>(rng);
  check_round_trip<48>(rng);
  check_round_trip<64>(rng);
}

// --- Montgomery product and square ---

/// The test moduli of a 32N-bit slot: random full-length and shorter ones, just above and just below powers of two,
/// all ones.
std::vector<Bn> test_moduli(std::mt19937_64& rng, int bits) {
  std::vector<Bn> out;
  for (int len : {bits, bits - 3, bits / 2 + 7}) {  // odd, exactly len bits, from rng (reproducible)
    Bn n = bn_new();
    BN_zero(n.get());
    for (int i = 0; i < len - 1; ++i)
      if (rng() & 1) BN_set_bit(n.get(), i);
    BN_set_bit(n.get(), len - 1);
    BN_set_bit(n.get(), 0);
    out.push_back(std::move(n));
  }
  auto plus = [](Bn base, long d) {
    Bn t = bn_new();
    BN_set_word(t.get(), static_cast<BN_ULONG>(d < 0 ? -d : d));
    if (d < 0)
      BN_sub(base.get(), base.get(), t.get());
    else
      BN_add(base.get(), base.get(), t.get());
    return base;
  };
  out.push_back(plus(pow2(bits - 1), 1));                   // just above a power of two
  out.push_back(plus(pow2(bits - 1), 0x1234567));           // a little further
  out.push_back(plus(pow2(bits), -1));                      // all ones: just below 2^bits
  out.push_back(plus(pow2(bits), -(long{1} << 33) - 1));    // just below, a zero in the second word
  out.push_back(plus(pow2(bits - 40), -1));                 // all ones, shorter
  return out;
}

template <std::size_t N>
void check_mont(std::mt19937_64& rng) {
  using S = fp::Shape<N>;
  constexpr std::size_t M = S::limbs;
  constexpr unsigned B = S::bits;
  SCOPED_TRACE("words " + std::to_string(N));
  Ctx ctx(BN_CTX_new());
  const Bn r = pow2(static_cast<int>(B * M)), radix = pow2(static_cast<int>(B));
  for (const Bn& bnn : test_moduli(rng, static_cast<int>(32 * N))) {
    SCOPED_TRACE("n of " + std::to_string(BN_num_bits(bnn.get())) + " bits");
    const auto n_int = bn_to_digits<u64>(bnn.get(), M, B);
    u64 n[M];
    fp::limbs_as_doubles<M>(n, n_int.data());
    const u64 n0 = bn::mont_n0(n_int[0]) & fp::Radix<B>::mask;
    Bn want = bn_new(), t = bn_new();
    BN_mod_inverse(t.get(), bnn.get(), radix.get(), ctx.get());  // n^-1 mod 2^B
    BN_sub(want.get(), radix.get(), t.get());
    EXPECT_EQ(n0, bn_to_digits<u64>(want.get(), 1, B)[0]) << "n0";
    Bn rinv(BN_mod_inverse(nullptr, r.get(), bnn.get(), ctx.get()));
    // Operands: 0, 1, 2, n-1, n-2, all ones below the top bit of n, random.
    std::vector<Bn> ops;
    for (long d : {0L, 1L, 2L}) {
      ops.push_back(bn_new());
      BN_set_word(ops.back().get(), static_cast<BN_ULONG>(d));
    }
    for (long d : {1L, 2L}) {
      ops.push_back(Bn(BN_dup(bnn.get())));
      BN_sub_word(ops.back().get(), static_cast<BN_ULONG>(d));
    }
    ops.push_back(pow2(BN_num_bits(bnn.get()) - 1));
    BN_sub_word(ops.back().get(), 1);
    for (int i = 0; i < 6; ++i) {
      ops.push_back(bn_new());
      BN_rand_range(ops.back().get(), bnn.get());
    }
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const auto a = bn_to_digits<u64>(ops[i].get(), M, B);
      u64 s[M];
      fp::Mont<B>::template sqr<M>(s, a.data(), n, n0);
      BN_mod_mul(want.get(), ops[i].get(), ops[i].get(), bnn.get(), ctx.get());
      BN_mod_mul(want.get(), want.get(), rinv.get(), bnn.get(), ctx.get());
      for (u64 l : s) ASSERT_EQ(l >> B, 0u) << "square of operand " << i << " not normalised";
      EXPECT_EQ(BN_cmp(want.get(), digits_to_bn(s, M, B).get()), 0) << "square of operand " << i;
      for (std::size_t k = 0; k < ops.size(); k += 3) {
        const auto b = bn_to_digits<u64>(ops[(i + k) % ops.size()].get(), M, B);
        u64 p[M];
        fp::Mont<B>::template mul<M>(p, a.data(), b.data(), n, n0);
        BN_mod_mul(want.get(), ops[i].get(), ops[(i + k) % ops.size()].get(), bnn.get(), ctx.get());
        BN_mod_mul(want.get(), want.get(), rinv.get(), bnn.get(), ctx.get());
        EXPECT_EQ(BN_cmp(want.get(), digits_to_bn(p, M, B).get()), 0) << "product of operands " << i << ", " << k;
      }
    }
    // Aliasing, as the exponentiations call it: r = a.
    const auto a = bn_to_digits<u64>(ops.back().get(), M, B);
    u64 x[M], y[M];
    for (std::size_t k = 0; k < M; ++k) x[k] = a[k];
    fp::Mont<B>::template mul<M>(y, x, x, n, n0);
    fp::Mont<B>::template mul<M>(x, x, x, n, n0);
    for (std::size_t k = 0; k < M; ++k) EXPECT_EQ(x[k], y[k]) << k;
  }
}

TEST(Fp64Mont, ProductAndSquareAgainstBn) {
  std::mt19937_64 rng(2024);
  check_mont<16>(rng);
  check_mont<32>(rng);
  check_mont<48>(rng);
  check_mont<64>(rng);
}

// --- the per-thread body ---

/// Jobs of one launch in the interleaved layout (rsa_ops.hpp), built from BN values.
struct Launch {
  std::size_t N, E;
  std::vector<Bn> n, base, e;
  std::vector<cuda::rsa_word> buffer;
  cuda::RsaModexpArgs args;

  void pack(std::uint32_t e_bits) {
    const std::size_t count = n.size();
    const auto l = cuda::RsaLayout::of(count, N, E);
    buffer.assign(l.words, 0);
    args = cuda::rsa_args(buffer.data(), count, N, static_cast<std::uint32_t>(E), e_bits);
    Ctx ctx(BN_CTX_new());
    for (std::size_t j = 0; j < count; ++j) {
      Bn rr = pow2(static_cast<int>(64 * N));
      BN_mod(rr.get(), rr.get(), n[j].get(), ctx.get());
      const auto nw = bn_to_digits<std::uint32_t>(n[j].get(), N, 32);
      const auto rw = bn_to_digits<std::uint32_t>(rr.get(), N, 32);
      const auto xw = bn_to_digits<std::uint32_t>(base[j].get(), N, 32);
      const auto ew = bn_to_digits<std::uint32_t>(e[j].get(), E, 32);
      for (std::size_t k = 0; k < N; ++k) {
        buffer[l.n + k * count + j] = nw[k];
        buffer[l.rr + k * count + j] = rw[k];
        buffer[l.x + k * count + j] = xw[k];
      }
      for (std::size_t k = 0; k < E; ++k) buffer[l.e + k * count + j] = ew[k];
      buffer[l.n0 + j] = bn::mont_n0(nw[0]);
    }
  }
  /// Job j's result against BN_mod_exp.
  void check(std::size_t j, const char* what) const {
    Ctx ctx(BN_CTX_new());
    Bn want = bn_new();
    BN_mod_exp(want.get(), base[j].get(), e[j].get(), n[j].get(), ctx.get());
    std::vector<std::uint32_t> got(N);
    for (std::size_t k = 0; k < N; ++k) got[k] = args.x[k * n.size() + j];
    EXPECT_EQ(BN_cmp(want.get(), digits_to_bn(got.data(), N, 32).get()), 0) << what << " job " << j;
  }
};

template <std::size_t N>
void check_modexp(std::mt19937_64& rng, int secret_bits) {
  SCOPED_TRACE("words " + std::to_string(N));
  const int bits = static_cast<int>(32 * N);
  auto rand_below = [](const Bn& n) {
    Bn r = bn_new();
    BN_rand_range(r.get(), n.get());
    return r;
  };
  // Secret exponents: mixed moduli (full length, shorter, all ones), edge bases, an exponent of 0.
  Launch s{N, N, {}, {}, {}, {}, {}};
  const std::vector<Bn> mods = test_moduli(rng, bits);
  for (std::size_t j = 0; j < 6; ++j) {
    s.n.push_back(Bn(BN_dup(mods[(j * 3) % mods.size()].get())));
    s.base.push_back(rand_below(s.n.back()));
    s.e.push_back(bn_new());
    BN_rand(s.e.back().get(), secret_bits, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
  }
  BN_zero(s.base[1].get());                                               // 0^e
  BN_sub(s.base[2].get(), s.n[2].get(), BN_value_one());                  // (n-1)^e
  BN_one(s.base[3].get());                                                // 1^e
  BN_zero(s.e[4].get());                                                  // x^0
  s.pack(static_cast<std::uint32_t>(secret_bits));
  cuda::rsa_emulate(s.args, N, cuda::RsaExpKind::secret, cuda::RsaKernel::fp64);
  for (std::size_t j = 0; j < s.n.size(); ++j) s.check(j, "secret");
  // Public exponents: 65537, 3, 1 and a two-word one, in a launch of E = 2 words.
  Launch p{N, 2, {}, {}, {}, {}, {}};
  for (const u64 e : {u64{65537}, u64{3}, u64{1}, u64{0x1ffffffff}}) {
    p.n.push_back(Bn(BN_dup(mods[p.n.size()].get())));
    p.base.push_back(rand_below(p.n.back()));
    p.e.push_back(bn_new());
    BN_set_word(p.e.back().get(), static_cast<BN_ULONG>(e));
  }
  p.pack(0);
  cuda::rsa_emulate(p.args, N, cuda::RsaExpKind::public_e, cuda::RsaKernel::fp64);
  for (std::size_t j = 0; j < p.n.size(); ++j) p.check(j, "public");
}

TEST(Fp64Exp, PerThreadBodyAgainstBnModExp) {
  std::mt19937_64 rng(77);
  check_modexp<16>(rng, 512);
  check_modexp<32>(rng, 1024);
  check_modexp<48>(rng, 700);  // shorter secret exponents above 1024 bits: the emulation is plain C++
  check_modexp<64>(rng, 600);
}

TEST(Fp64Exp, SupportedSizes) {
  for (std::size_t words : {16, 32, 48, 64}) EXPECT_TRUE(cuda::rsa_fp64_supports(words)) << words;
  for (std::size_t words : {0, 8, 15, 96, 128, 256}) EXPECT_FALSE(cuda::rsa_fp64_supports(words)) << words;
  EXPECT_THROW(cuda::rsa_emulate_fp64(cuda::RsaModexpArgs{}, 96, cuda::RsaExpKind::secret), InvalidArgument);
}

}  // namespace
}  // namespace cryptaccel

// The vector crypto instructions against the algorithms they implement, as whole hand-assembled kernels: AES-128
// encryption of 4 blocks (vaeskf1, vaesz/vaesem/vaesef .vs, one instruction on 4 element groups) and AES-256
// decryption (vaeskf2, vaesdm/vaesdf) against OpenSSL; SHA-256 and SHA-512 compressions (vsha2ms/ch/cl) against
// algo::sha256_blocks / sha512_blocks; SM4 (vsm4k, vsm4r) and SM3 (vsm3me, vsm3c) against algo's; GHASH (vghsh,
// vgmul) against algo::Ghash. Plus the element-group legality rules (illegal-instruction stops with the reason) and
// the vector timing model's parameters.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <random>

#include "algo/aes_key_schedule.hpp"
#include "algo/bits.hpp"
#include "algo/ghash.hpp"
#include "algo/sha256.hpp"
#include "algo/sha512.hpp"
#include "algo/sm3.hpp"
#include "algo/sm4.hpp"
#include "cryptaccel/rv.hpp"
#include "rv_vector_test_util.hpp"

namespace cryptaccel::test {
namespace {

using namespace rvv;
using rv::StopReason;

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

std::vector<std::uint8_t> openssl_ecb(const EVP_CIPHER* cipher, bool encrypt, const std::vector<std::uint8_t>& key,
                                      const std::vector<std::uint8_t>& in) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  std::vector<std::uint8_t> out(in.size());
  int n = 0;
  EXPECT_EQ(EVP_CipherInit_ex(ctx, cipher, nullptr, key.data(), nullptr, encrypt ? 1 : 0), 1);
  EVP_CIPHER_CTX_set_padding(ctx, 0);
  EXPECT_EQ(EVP_CipherUpdate(ctx, out.data(), &n, in.data(), static_cast<int>(in.size())), 1);
  EVP_CIPHER_CTX_free(ctx);
  return out;
}

TEST(RvVectorCrypto, Aes128EncryptsFourBlocksWithOneInstructionPerRound) {
  VecMachine m(128);
  const auto key = random_bytes(16, 1), pt = random_bytes(64, 2);
  m.poke(kData, key);
  m.poke(kData + 0x100, pt);
  m.machine().set_reg(10, kData);
  m.machine().set_reg(11, kData + 0x100);
  std::vector<std::uint32_t> p = {vsetivli(0, 4, vtypei(32, 0)), vle(32, 1, 10)};
  for (unsigned r = 1; r <= 10; ++r) p.push_back(vaeskf1(1 + r, r, r));  // round key r in v(1 + r)
  p.insert(p.end(), {vsetivli(0, 16, vtypei(32, 2)), vle(32, 12, 11), vaesz_vs(12, 1)});
  for (unsigned r = 1; r <= 9; ++r) p.push_back(vaesem_vs(12, 1 + r));
  p.insert(p.end(), {vaesef_vs(12, 11), vse(32, 12, 11)});
  m.run_ok(p);
  EXPECT_EQ(m.peek(kData + 0x100, 64), openssl_ecb(EVP_aes_128_ecb(), true, key, pt));
  algo::AesRoundKeys rk;
  algo::aes_expand_key(key.data(), 16, rk);
  for (unsigned r = 0; r <= 10; ++r)
    EXPECT_EQ(m.vreg(1 + r), std::vector<std::uint8_t>(rk.bytes[r], rk.bytes[r] + 16)) << "round key " << r;
}

TEST(RvVectorCrypto, Aes256KeyScheduleAndDecryption) {
  VecMachine m(256);
  const auto key = random_bytes(32, 3), ct = random_bytes(64, 4);
  m.poke(kData, key);
  m.poke(kData + 0x100, ct);
  m.machine().set_reg(10, kData);
  m.machine().set_reg(11, kData + 0x100);
  std::vector<std::uint32_t> p = {vsetivli(0, 4, vtypei(32, 0)), vle(32, 1, 10), addi(10, 10, 16), vle(32, 2, 10)};
  for (unsigned i = 2; i <= 14; ++i) p.insert(p.end(), {vmv_v_v(i + 1, i - 1), vaeskf2(i + 1, i, i)});
  p.insert(p.end(), {vsetivli(0, 16, vtypei(32, 1)), vle(32, 16, 11), vaesz_vs(16, 15)});
  for (unsigned r = 13; r >= 1; --r) p.push_back(vaesdm_vs(16, r + 1));
  p.insert(p.end(), {vaesdf_vs(16, 1), vse(32, 16, 11)});
  m.run_ok(p);
  EXPECT_EQ(m.peek(kData + 0x100, 64), openssl_ecb(EVP_aes_256_ecb(), false, key, ct));
  algo::AesRoundKeys rk;
  algo::aes_expand_key(key.data(), 32, rk);
  for (unsigned r = 0; r <= 14; ++r) {
    const auto v = m.vreg(1 + r);
    EXPECT_EQ(std::vector<std::uint8_t>(v.begin(), v.begin() + 16), std::vector<std::uint8_t>(rk.bytes[r], rk.bytes[r] + 16))
        << "round key " << r;
  }
}

/// SHA-2 compression of one block with Zvknh: v1 = {f, e, b, a} (element 0 first), v2 = {h, g, d, c}; message
/// words in v3..v6 (loaded big-endian with vle + vrev8), K from memory at x12. `eew` 32 (SHA-256) or 64.
template <class T>
std::array<T, 8> sha2_block(unsigned vlen, unsigned eew, const std::array<T, 8>& h, const std::uint8_t* block,
                            const T* k, unsigned rounds) {
  VecMachine m(vlen);
  const unsigned wb = eew / 8;
  m.poke(kData, std::vector<std::uint8_t>(block, block + 16 * wb));
  std::vector<std::uint8_t> kb(rounds * wb);
  std::memcpy(kb.data(), k, kb.size());
  m.poke(kData + 0x400, kb);
  std::vector<std::uint8_t> abef(4 * wb), cdgh(4 * wb);
  const T abef_w[4] = {h[5], h[4], h[1], h[0]}, cdgh_w[4] = {h[7], h[6], h[3], h[2]};
  std::memcpy(abef.data(), abef_w, abef.size());
  std::memcpy(cdgh.data(), cdgh_w, cdgh.size());
  m.set_vreg(1, abef);
  m.set_vreg(2, cdgh);
  m.set_vreg(0, {0x01});
  m.machine().set_reg(10, kData);
  m.machine().set_reg(12, kData + 0x400);
  std::vector<std::uint32_t> p = {vsetivli(0, 4, vtypei(eew, 0))};
  for (unsigned i = 0; i < 4; ++i)
    p.insert(p.end(), {vle(eew, 3 + i, 10), vrev8_v(3 + i, 3 + i), addi(10, 10, static_cast<int>(4 * wb))});
  auto w = [](unsigned i) { return 3 + i % 4; };
  for (unsigned i = 0; i < rounds / 4; ++i) {
    p.insert(p.end(), {vle(eew, 9, 12), addi(12, 12, static_cast<int>(4 * wb)), vadd_vv(7, 9, w(i)), vsha2cl(2, 1, 7),
                       vsha2ch(1, 2, 7)});
    if (i < rounds / 4 - 4) p.insert(p.end(), {vmerge_vvm(8, w(i + 2), w(i + 1)), vsha2ms(w(i), 8, w(i + 3))});
  }
  m.run_ok(p);
  std::array<T, 8> out{};
  std::vector<std::uint8_t> a = m.vreg(1), c = m.vreg(2);
  T av[4], cv[4];
  std::memcpy(av, a.data(), sizeof av);
  std::memcpy(cv, c.data(), sizeof cv);
  const T fin[8] = {av[3], av[2], cv[3], cv[2], av[1], av[0], cv[1], cv[0]};
  for (int i = 0; i < 8; ++i) out[i] = h[i] + fin[i];
  return out;
}

TEST(RvVectorCrypto, Sha256CompressionMatchesTheLibrary) {
  const auto block = random_bytes(64, 5);
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<std::uint32_t, 8> expect = h;
  algo::sha256_blocks(expect.data(), block.data(), 1);
  for (unsigned vlen : {128u, 512u})
    EXPECT_EQ((sha2_block<std::uint32_t>(vlen, 32, h, block.data(), algo::kSha256K_host, 64)), expect) << "VLEN " << vlen;
}

TEST(RvVectorCrypto, Sha512CompressionMatchesTheLibrary) {
  const auto block = random_bytes(128, 6);
  std::array<std::uint64_t, 8> h = {0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull,
                                    0xa54ff53a5f1d36f1ull, 0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
                                    0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};
  std::array<std::uint64_t, 8> expect = h;
  algo::sha512_blocks(expect.data(), block.data(), 1);
  EXPECT_EQ((sha2_block<std::uint64_t>(256, 64, h, block.data(), algo::kSha512K_host, 80)), expect);
}

TEST(RvVectorCrypto, Sm4KeyScheduleAndEncryption) {
  VecMachine m(128);
  const auto key = random_bytes(16, 7), pt = random_bytes(16, 8);
  m.poke(kData, key);
  m.poke(kData + 0x40, pt);
  m.poke(kData + 0x80, le_words({0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu}));  // FK
  m.machine().set_reg(10, kData);
  m.machine().set_reg(11, kData + 0x40);
  m.machine().set_reg(12, kData + 0x80);
  std::vector<std::uint32_t> p = {vsetivli(0, 4, vtypei(32, 0)), vle(32, 1, 10), vrev8_v(1, 1), vle(32, 2, 12),
                                  opv(0x0b, IVV, 1, 1, 2) /* vxor.vv: K = MK ^ FK */};
  for (unsigned r = 0; r < 8; ++r) p.push_back(vsm4k(3 + r, r == 0 ? 1 : 2 + r, r));
  p.insert(p.end(), {vle(32, 11, 11), vrev8_v(11, 11)});
  for (unsigned r = 0; r < 8; ++r) p.push_back(vsm4r_vs(11, 3 + r));
  m.run_ok(p);
  algo::Sm4RoundKeys rk;
  algo::sm4_expand_key(key.data(), rk);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(m.vword(3 + i / 4, i % 4), rk.rk[i]) << "round key " << i;
  std::uint8_t expect[16], got[16];
  algo::sm4_crypt_blocks(rk, false, pt.data(), expect, 1);
  for (unsigned i = 0; i < 4; ++i) algo::store_be32(got + 4 * i, m.vword(11, 3 - i));  // R: X35, X34, X33, X32
  EXPECT_EQ(std::vector<std::uint8_t>(got, got + 16), std::vector<std::uint8_t>(expect, expect + 16));
}

TEST(RvVectorCrypto, Sm3CompressionMatchesTheLibrary) {
  VecMachine m(256);
  const auto block = random_bytes(64, 9);
  std::uint32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = algo::kSm3Init_host[i];
  std::vector<std::uint8_t> iv(32);
  for (int i = 0; i < 8; ++i) algo::store_be32(iv.data() + 4 * i, v[i]);
  m.poke(kData, block);
  m.set_vreg(1, iv);
  m.machine().set_reg(10, kData);
  std::vector<std::uint32_t> p = {vsetivli(0, 8, vtypei(32, 0)), vle(32, 2, 10), addi(10, 10, 32), vle(32, 3, 10)};
  for (unsigned g = 2; g < 9; ++g) p.push_back(vsm3me(g + 2, g + 1, g));  // W[8g-8 .. 8g-1] into v(g+2)
  for (unsigned r = 0; r < 32; ++r) {
    // v12 = W[2r .. 2r+7]: from v(2 + 2r/8) at offset 2r % 8, topped up from the next register.
    const unsigned reg = 2 + (2 * r) / 8, off = (2 * r) % 8;
    if (off == 0) {
      p.push_back(vmv_v_v(12, reg));
    } else {
      p.insert(p.end(), {addi(6, 0, static_cast<int>(off)), opv(0x0f, IVX, 12, reg, 6) /* vslidedown.vx */,
                         addi(6, 0, static_cast<int>(8 - off)), opv(0x0e, IVX, 12, reg + 1, 6) /* vslideup.vx */});
    }
    p.push_back(vsm3c(1, 12, r));
  }
  m.run_ok(p);
  algo::sm3_blocks(v, block.data(), 1);
  const auto out = m.vreg(1);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(algo::load_be32(out.data() + 4 * i) ^ algo::kSm3Init_host[i], v[i]) << "word " << i;
}

TEST(RvVectorCrypto, GhashAndGmulMatchTheLibrary) {
  VecMachine m(128);
  const auto h = random_bytes(16, 10), data = random_bytes(64, 11);
  m.poke(kData, data);
  m.set_vreg(2, h);
  m.set_vreg(1, std::vector<std::uint8_t>(16, 0));
  m.set_vreg(5, std::vector<std::uint8_t>(data.begin(), data.begin() + 16));
  m.machine().set_reg(10, kData);
  std::vector<std::uint32_t> p = {vsetivli(0, 4, vtypei(32, 0))};
  for (int b = 0; b < 4; ++b) p.insert(p.end(), {vle(32, 3, 10), addi(10, 10, 16), vghsh(1, 2, 3)});
  p.push_back(vgmul(5, 2));
  m.run_ok(p);
  algo::Ghash g;
  g.init(h.data());
  g.update_padded(data.data(), data.size());
  std::uint8_t expect[16];
  algo::gf128_store(g.y, expect);
  EXPECT_EQ(m.vreg(1), std::vector<std::uint8_t>(expect, expect + 16));
  algo::gf128_store(algo::gf128_mul(algo::gf128_load(data.data()), algo::gf128_load(h.data())), expect);
  EXPECT_EQ(m.vreg(5), std::vector<std::uint8_t>(expect, expect + 16));
}

/// Runs `body` after `vsetvli`; expects an illegal-instruction stop whose message contains `why`.
void expect_illegal(VecMachine& m, std::uint32_t vset, std::uint32_t insn, const std::string& why) {
  EXPECT_EQ(m.run({vset, insn}), StopReason::illegal_instruction) << why;
  EXPECT_NE(m.machine().last_message().find(why), std::string::npos) << m.machine().last_message();
}

TEST(RvVectorCrypto, ElementGroupRulesTrap) {
  VecMachine m(128);
  expect_illegal(m, vsetivli(0, 3, vtypei(32, 0)), vaesef_vv(1, 2), "vl = 3 is not a multiple of EGS = 4");
  expect_illegal(m, vsetivli(0, 2, vtypei(64, 0)), vaesef_vv(1, 2), "SEW must be 32");
  expect_illegal(m, vsetivli(0, 8, vtypei(32, 0)), vsm3c(1, 2, 0), "less than EGW = 256");
  expect_illegal(m, vsetivli(0, 4, vtypei(32, -1)), vaesef_vv(1, 2), "less than EGW = 128");
  expect_illegal(m, vsetivli(0, 4, vtypei(32, 0)), vaesef_vs(2, 2), "vd overlaps vs2");
  expect_illegal(m, vsetivli(0, 4, vtypei(32, 0)), vsha2ms(2, 2, 3), "vd overlaps vs2");
  expect_illegal(m, vsetivli(0, 8, vtypei(32, 1)), vaesef_vv(1, 2), "not aligned");
  VecMachine a(256, "rv64imcv_zvknha");
  expect_illegal(a, vsetivli(0, 4, vtypei(64, 0)), vsha2ms(1, 2, 3), "needs Zvknhb");
  // The legal configurations run (vl = 0 too).
  EXPECT_EQ(m.run({vsetivli(0, 0, vtypei(32, 0)), vaesef_vv(1, 2)}), StopReason::instruction_limit);
  EXPECT_EQ(m.run({vsetivli(0, 8, vtypei(32, 1)), vaesef_vv(2, 4)}), StopReason::instruction_limit);
  // Element groups past vl are untouched.
  m.set_vreg(4, std::vector<std::uint8_t>(16, 0x5A));
  m.set_vreg(5, std::vector<std::uint8_t>(16, 0x5A));
  m.run_ok({vsetivli(0, 4, vtypei(32, 1)), vaesz_vs(4, 1)});
  EXPECT_EQ(m.vreg(5), std::vector<std::uint8_t>(16, 0x5A));
  // Without the extension in the ISA string the instruction does not decode.
  VecMachine plain(128, "rv64imcv");
  EXPECT_EQ(plain.run({vsetivli(0, 4, vtypei(32, 0)), vaesef_vv(1, 2)}), StopReason::disabled_extension);
}

}  // namespace
}  // namespace cryptaccel::test

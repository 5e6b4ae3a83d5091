// Encrypts and decrypts with the installed library; exits 0 only when the round trip and a FIPS-197 vector hold.
#include <cryptaccel/cryptaccel.hpp>

#include <algorithm>
#include <cstdio>

int main() {
  using namespace cryptaccel;
  // FIPS-197 Appendix C.1: AES-128, key 00..0f, plaintext 00112233..ff.
  std::uint8_t key[16], pt[16];
  for (int i = 0; i < 16; ++i) key[i] = static_cast<std::uint8_t>(i), pt[i] = static_cast<std::uint8_t>(i * 0x11);
  const std::uint8_t expected[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                     0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
  CipherSpec spec = CipherSpec::parse("aes-128-ecb");
  spec.padding = false;
  std::string engine;
  const bytes ct = encrypt(spec, CipherParams{key}, pt, "auto", &engine);
  if (ct.size() != 16 || !std::equal(ct.begin(), ct.end(), expected)) return std::puts("wrong ciphertext"), 1;
  const bytes back = decrypt(spec, CipherParams{key}, ct);
  if (!std::equal(back.begin(), back.end(), pt)) return std::puts("wrong plaintext"), 1;
  std::printf("cryptaccel %s via find_package: FIPS-197 C.1 OK on engine %s\n", kVersion, engine.c_str());
  return 0;
}

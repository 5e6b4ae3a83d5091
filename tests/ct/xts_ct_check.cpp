// Constant-time check of the cpu engine's AES-NI XTS kernel (src/cpu/aes_xts_aesni.cpp) under valgrind memcheck:
// both XTS keys and the data are marked undefined, so memcheck reports every conditional branch and every memory
// address computed from them. Key expansion, whole blocks, ciphertext stealing (partial last blocks) and starting
// tweaks far into a data unit (T·α^j, j public) are run in both directions for AES-128-XTS and AES-256-XTS; the
// output, declassified, must decrypt back to the input.
//   xts_ct_check cpu            must run clean
//   xts_ct_check cpu --leaky    the same plus one deliberate key-dependent branch: must be reported
// Run by ctest through tests/ct/run_valgrind.sh; exits 77 (skipped) on a CPU without AES-NI.
#include <valgrind/memcheck.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "cpu/aes_xts_aesni.hpp"

using namespace cryptaccel;

int main(int argc, char** argv) {
  const bool leaky = argc > 2 && std::strcmp(argv[2], "--leaky") == 0;
  if (!cpu::aes_xts_aesni_available()) {
    std::puts("SKIPPED: this CPU lacks AES-NI");
    return 77;
  }
  int failures = 0;
  for (const std::size_t key_len : {std::size_t{32}, std::size_t{64}}) {
    std::vector<std::uint8_t> key(key_len), iv(16), in(16 * 40 + 15), out(in.size()), back(in.size());
    for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i * 13 + 1);
    for (std::size_t i = 0; i < iv.size(); ++i) iv[i] = static_cast<std::uint8_t>(i * 7);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(i * 31 + 5);
    VALGRIND_MAKE_MEM_UNDEFINED(key.data(), key.size());
    VALGRIND_MAKE_MEM_UNDEFINED(in.data(), in.size());
    cpu::AesXtsAesniKey k;
    cpu::aes_xts_aesni_init(k, key.data(), key.size());
    if (leaky && (key[0] & 1)) std::puts("(the deliberate leak: a branch on a key bit)");
    for (const std::size_t len : {std::size_t{16}, std::size_t{17}, std::size_t{31}, std::size_t{128},
                                  std::size_t{16 * 17 + 5}, in.size()}) {
      for (const std::uint64_t j : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{0x7000}}) {
        cpu::aes_xts_aesni_crypt(k, Direction::encrypt, iv.data(), j, in.data(), out.data(), len);
        cpu::aes_xts_aesni_crypt(k, Direction::decrypt, iv.data(), j, out.data(), back.data(), len);
        // Declassified only to compare (the test's own branch, not the kernel's).
        VALGRIND_MAKE_MEM_DEFINED(back.data(), len);
        std::vector<std::uint8_t> expected(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(len));
        VALGRIND_MAKE_MEM_DEFINED(expected.data(), len);
        if (std::memcmp(back.data(), expected.data(), len) != 0) {
          std::printf("FAILED: AES-%zu-XTS len %zu from block %llu does not decrypt back\n", key_len * 4, len,
                      static_cast<unsigned long long>(j));
          ++failures;
        }
      }
    }
  }
  return failures ? 1 : 0;
}

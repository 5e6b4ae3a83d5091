// Constant-time check of the RSA private-key path under valgrind memcheck: the key's secrets (d, p, q, dp, dq,
// qinv and the Montgomery constants of p and q) are marked undefined, so memcheck reports every conditional
// branch and every memory address computed from them ("Conditional jump or move depends on uninitialised value",
// "Use of uninitialised value of size 8"). Values the algorithm publishes anyway are declassified in the library
// (src/rsa/ct_declassify.hpp): a signature once computed, the fault-check verdict, a padding verdict and length.
//   rsa_ct_check <engine>           a PKCS#1 v1.5 signature, a PSS signature, an OAEP and a PKCS#1 v1.5 decryption
//                                   (valid and invalid ciphertexts) with a 1024-bit key: must run clean
//   rsa_ct_check <engine> --leaky   the same plus one deliberate secret-dependent branch: must be reported (shows
//                                   that the check can fail)
// Run by ctest under `valgrind --error-exitcode=1` (tests/CMakeLists.txt); skipped when valgrind is missing.
#include <valgrind/memcheck.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "cryptaccel/rsa.hpp"
#include "rsa/key_impl.hpp"

using namespace cryptaccel;

namespace {

void poison(const rsa::Limbs& l) { VALGRIND_MAKE_MEM_UNDEFINED(l.data(), l.size() * sizeof(rsa::limb)); }
void poison(const rsa::Modulus& m) {
  poison(m.n), poison(m.rr), poison(m.one);
  VALGRIND_MAKE_MEM_UNDEFINED(&m.n0, sizeof m.n0);
}

/// A decryption result is secret: the test declassifies it before comparing (its own branch is not the library's).
bytes reveal(bytes b) {
  VALGRIND_MAKE_MEM_DEFINED(b.data(), b.size());
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string engine = argc > 1 ? argv[1] : "ref";
  const bool leaky = argc > 2 && std::strcmp(argv[2], "--leaky") == 0;
  const rsa::PrivateKey key = rsa::PrivateKey::generate(1024);
  const rsa::PublicKey pub = key.public_key();
  // Public-key work first (encryptions for the decryption tests), before the secrets are poisoned.
  const bytes msg = {'c', 'o', 'n', 's', 't', 'a', 'n', 't'};
  rsa::EncryptOptions oaep;
  oaep.engine = engine;
  rsa::EncryptOptions pkcs1 = oaep;
  pkcs1.padding = rsa::EncryptionPadding::pkcs1v15;
  const bytes ct_oaep = rsa::encrypt(pub, msg, oaep);
  const bytes ct_pkcs1 = rsa::encrypt(pub, msg, pkcs1);
  bytes bad_oaep = ct_oaep;
  bad_oaep[7] ^= 1;

  const rsa::PrivateKey::Impl& k = key.impl();
  poison(k.d);
  if (k.crt) {
    poison(k.p), poison(k.q), poison(k.dp), poison(k.dq), poison(k.qinv);
  }
  int failures = 0;
  rsa::SignOptions sign;
  sign.engine = engine;
  const bytes sig = rsa::sign(key, msg, sign);
  failures += !rsa::verify(pub, msg, sig, sign);
  rsa::SignOptions pss = sign;
  pss.padding = rsa::SignaturePadding::pss;
  failures += !rsa::verify(pub, msg, rsa::sign(key, msg, pss), pss);
  failures += reveal(rsa::decrypt(key, ct_oaep, oaep)) != msg;
  failures += reveal(rsa::decrypt(key, ct_pkcs1, pkcs1)) != msg;
  try {
    (void)rsa::decrypt(key, bad_oaep, oaep);
    ++failures;
  } catch (const InvalidCiphertext&) {
  }
  if (leaky && (k.d.v[0] & 1)) std::puts("(the deliberate leak: a branch on a bit of d)");
  std::printf("rsa_ct_check %s: %s\n", engine.c_str(), failures ? "WRONG RESULTS" : "results correct");
  return failures ? 2 : 0;
}

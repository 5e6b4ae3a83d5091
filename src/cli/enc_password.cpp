#include "enc_password.hpp"

#include <openssl/rand.h>

#include <cstdio>
#include <cstring>

#include "cryptaccel/error.hpp"
#include "cryptaccel/hex.hpp"

namespace cryptaccel::cli {

namespace {

bytes salt_from_hex(const std::string& hex, const char* command) {
  bytes salt;
  try {
    salt = from_hex(hex.size() % 2 ? hex + "0" : hex);
  } catch (const std::exception& e) {
    throw InvalidArgument(std::string("invalid hex in -S: ") + e.what());
  }
  if (salt.size() < kOpensslSaltSize)
    std::fprintf(stderr, "cryptaccel %s: warning: hex string is too short, padding with zero bytes to length\n", command);
  if (salt.size() > kOpensslSaltSize)
    std::fprintf(stderr, "cryptaccel %s: warning: hex string is too long, ignoring excess\n", command);
  salt.resize(kOpensslSaltSize, 0);
  return salt;
}

}  // namespace

bytes encryption_salt(const PasswordOptions& o, bool& header, const char* command) {
  header = false;
  if (o.nosalt) return {};
  if (o.salt_hex) return salt_from_hex(*o.salt_hex, command);
  bytes salt(kOpensslSaltSize);
  if (RAND_bytes(salt.data(), static_cast<int>(salt.size())) != 1) throw Error("cannot draw a random salt");
  header = true;
  return salt;
}

bytes decryption_salt(const PasswordOptions& o, ByteSource& input, const char* command) {
  if (o.nosalt) return {};
  if (o.salt_hex) return salt_from_hex(*o.salt_hex, command);
  std::uint8_t head[16];
  const std::size_t got = input.read(mutable_bytes(head, sizeof head));
  if (got < sizeof head) throw BadDecrypt("error reading input file: no salt header (the input is shorter than 16 bytes)");
  if (std::memcmp(head, kOpensslSaltMagic.data(), kOpensslSaltMagic.size()) != 0)
    throw BadDecrypt("bad magic number: the input does not start with \"Salted__\" (encrypted with -nosalt or -S?)");
  return bytes(head + 8, head + 16);
}

PasswordKdf password_kdf(const PasswordOptions& o, const char* command) {
  PasswordKdf kdf;
  kdf.pbkdf2 = o.pbkdf2 || o.iterations.has_value();
  if (o.iterations) kdf.iterations = *o.iterations;
  if (o.digest) kdf.digest = *o.digest;
  if (!kdf.pbkdf2)
    std::fprintf(stderr, "cryptaccel %s: warning: deprecated key derivation used; -iter or -pbkdf2 would be better\n",
                 command);
  return kdf;
}

void print_key_material(bytes_view salt, bytes_view key, bytes_view iv) {
  if (!salt.empty()) std::printf("salt=%s\n", to_hex(salt, true).c_str());
  std::printf("key=%s\n", to_hex(key, true).c_str());
  if (!iv.empty()) std::printf("iv =%s\n", to_hex(iv, true).c_str());
  std::fflush(stdout);
}

}  // namespace cryptaccel::cli

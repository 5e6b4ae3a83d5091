// Fuzzes the age reader (armor, header, stanzas, payload): arbitrary bytes opened with a fixed X25519 identity, then
// with a passphrase. Anything but a cryptaccel::Error escaping, a crash or a sanitizer report is a bug; so is
// plaintext released for a file whose header did not verify. The input's tail is also sealed and opened again, which
// must give it back.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>

#include "cryptaccel/age.hpp"
#include "cryptaccel/error.hpp"

namespace age = cryptaccel::age;

namespace {

/// The identity and passphrase of the age test kit, whose files (tests/vectors/age-testkit) are the seed corpus.
const age::Identity& identity() {
  static const age::Identity id = age::Identity::parse(
      "AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0");
  return id;
}
constexpr const char* kPassphrase = "password";

void open(const cryptaccel::bytes_view file, age::DecryptOptions options) {
  options.max_scrypt_log2_n = 4;  // scrypt work stays small; larger factors are refused, which is also fuzzed
  options.run.engine = "cpu";
  options.run.threads = 1;
  std::size_t released = 0;
  try {
    age::decrypt([&, at = std::size_t{0}](cryptaccel::mutable_bytes out) mutable {
                   const std::size_t n = std::min(out.size(), file.size() - at);
                   std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(at), n, out.begin());
                   at += n;
                   return n;
                 },
                 [&](cryptaccel::bytes_view b) { released += b.size(); }, options);
  } catch (const age::MalformedFile& e) {
    if (released != 0) std::abort();  // nothing may be released before the header verified
  } catch (const age::OpenFailed& e) {
    if (released != 0 && e.failure() != age::Failure::payload) std::abort();
  } catch (const cryptaccel::InvalidArgument&) {  // a misuse (identities for a passphrase file, ...)
    if (released != 0) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const cryptaccel::bytes_view file(data, size);
  age::DecryptOptions with_identity;
  with_identity.identities.push_back(identity());
  open(file, with_identity);
  age::DecryptOptions with_passphrase;
  with_passphrase.passphrase = kPassphrase;
  open(file, with_passphrase);

  // Round trip of the last bytes of the input (at most 256: one chunk).
  const cryptaccel::bytes_view tail = file.subspan(size > 256 ? size - 256 : 0);
  age::EncryptOptions seal;
  seal.recipients.push_back(identity().recipient());
  seal.armor = size % 2 == 1;
  seal.run.engine = "cpu";
  seal.run.threads = 1;
  const cryptaccel::bytes sealed = age::encrypt(tail, seal);
  with_identity.run = seal.run;
  const cryptaccel::bytes opened = age::decrypt(sealed, with_identity);
  if (opened.size() != tail.size() || !std::equal(opened.begin(), opened.end(), tail.begin())) std::abort();
  return 0;
}

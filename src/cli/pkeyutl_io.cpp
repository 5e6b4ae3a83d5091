// `cryptaccel pkeyutl`: inputs and key files (see the header). The library decodes the key (rsa::decode_key); this
// file reads the file and the -passin password and words the error in the command line's terms.
#include "pkeyutl_io.hpp"

#include <string>

#include "cryptaccel/error.hpp"
#include "cryptaccel/file.hpp"
#include "password_source.hpp"

namespace cryptaccel::cli::pkeyutl {
namespace {

bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

/// Wipes a buffer that held a private key file when it goes.
struct Wiped {
  bytes data;
  ~Wiped() {
    if (!data.empty()) secure_wipe(data.data(), data.size());
  }
};

/// The reason decode_key gave, with the hint to the option that reads what the file holds, or to -passin / -keyform.
std::string load_error(const rsa::KeyDecodeError& e, KeySource source, KeyForm form, bool passin) {
  const std::string expected = source == KeySource::private_key  ? "not a private key"
                               : source == KeySource::public_key ? "not a public key"
                                                                 : "not a certificate";
  switch (e.failure()) {
    case rsa::KeyDecodeFailure::wrong_encoding:
      return form == KeyForm::der ? "-keyform DER given, but the file is PEM"
                                  : "-keyform PEM given, but the file has no PEM block (DER?)";
    case rsa::KeyDecodeFailure::other_kind:
      switch (e.holds().value_or(KeySource::private_key)) {
        case KeySource::certificate: return expected + ": it holds a certificate (use -certin for a certificate)";
        case KeySource::public_key: return expected + ": it holds a public key (add -pubin)";
        case KeySource::private_key:
          return expected + ": it holds a private key (leave out " +
                 (source == KeySource::public_key ? "-pubin" : "-certin") + ")";
      }
      break;
    case rsa::KeyDecodeFailure::not_found:
      if (!e.pem() && source == KeySource::private_key && !passin)
        return "not a private key in DER, or malformed (an encrypted key needs -passin)";
      break;
    case rsa::KeyDecodeFailure::needs_password:
      return "the key is encrypted: give its password with -passin (pass:X, env:VAR, file:PATH)";
    default: break;
  }
  return e.what();
}

}  // namespace

bytes read_input(const std::string& path) { return read_whole_file(is_stdio(path) ? "-" : path); }

KeyTraits key_traits(const LoadedKey& key) { return KeyTraits{key.public_key.bits(), key.rsa_pss, key.pss}; }

LoadedKey load_key(const std::string& path, KeySource source, KeyForm form,
                   const std::optional<std::string>& passin) {
  if (path.empty()) throw InvalidArgument("-inkey is required");
  const char* const what = source == KeySource::private_key  ? "private key"
                           : source == KeySource::public_key ? "public key"
                                                             : "certificate";
  Wiped file{read_input(path)};
  rsa::PasswordSource password;
  if (passin) password = [&] { return read_password(*passin, "-passin"); };
  const auto failed = [&](const std::string& why) {
    return InvalidArgument(std::string("cannot load ") + what + " from '" + path + "': " + why);
  };
  try {
    return rsa::decode_key(file.data, source, form, password);
  } catch (const rsa::KeyDecodeError& e) {
    throw failed(load_error(e, source, form, passin.has_value()));
  } catch (const InvalidArgument& e) {  // the -passin source
    throw failed(e.what());
  }
}

}  // namespace cryptaccel::cli::pkeyutl

// `cryptaccel pkeyutl`: reading inputs and key files (the decoding is the library's rsa::decode_key; passwords:
// password_source.hpp).
#pragma once
#include <optional>
#include <string>

#include "cryptaccel/rsa.hpp"
#include "cryptaccel/rsa_key_decode.hpp"
#include "cryptaccel/types.hpp"
#include "pkeyutl_options.hpp"

namespace cryptaccel::cli::pkeyutl {

/// All of a file ("" or "-": stdin). Throws std::runtime_error naming the file.
bytes read_input(const std::string& path);

/// A key as -inkey reads it: a private key (and its public half), a public key (-pubin) or a certificate's public key
/// (-certin). A private key's file may be given where only the public half is needed (verify, encrypt), as in
/// openssl. RSA and RSA-PSS keys; an RSA-PSS key's parameter restrictions come with it.
using LoadedKey = rsa::DecodedKey;

/// What sign_options(), encrypt_options() and recover_options() need to know of `key`.
KeyTraits key_traits(const LoadedKey& key);

/// Loads `path` ("" is refused: "-inkey is required") as `source` says, with the parser `form` names (detect: PEM
/// when the file has a "-----BEGIN " line, else DER). A PEM file may hold several blocks (a certificate and its key):
/// the first one of the kind asked for is read, as openssl does. `passin`: the -passin spec, for encrypted private
/// keys. Throws InvalidArgument with a one-line message naming the file, with a hint when the file holds another kind
/// of object than asked for ("use -certin for a certificate", "add -pubin") or is in the other encoding than -keyform.
LoadedKey load_key(const std::string& path, KeySource source, KeyForm form, const std::optional<std::string>& passin);

}  // namespace cryptaccel::cli::pkeyutl

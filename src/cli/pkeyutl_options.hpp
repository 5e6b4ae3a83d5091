// `cryptaccel pkeyutl`: the command line (openssl-pkeyutl-style single-dash options) and its translation into the
// options of include/cryptaccel/rsa.hpp. Shared by the one-operation mode and --batch (whose manifest lines override
// the same settings one by one).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/rsa.hpp"
#include "cryptaccel/rsa_key_decode.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cli::pkeyutl {

/// The operations. verifyrecover: the RSA public operation and PKCS#1 v1.5 type 1 unpadding (or none), giving back
/// what was signed (openssl's -verifyrecover).
enum class Op { sign, verify, verifyrecover, encrypt, decrypt };

/// Where -inkey's key comes from: a private key (the default), a public key (-pubin) or a certificate's public key
/// (-certin). The last of -pubin and -certin wins, as in openssl.
using KeySource = rsa::KeySource;

/// -keyform: the key file's encoding. detect (no -keyform): PEM when the file has a "-----BEGIN " line, else DER.
/// pem / der: only that parser is tried, as openssl 3.0 does (its help says "other values ignored", but it is not so).
using KeyForm = rsa::KeyEncoding;

/// The restrictions an RSA-PSS key carries (rsa_key_decode.hpp).
using PssRestrictions = rsa::PssRestrictions;

/// What the settings of an operation depend on in its key.
struct KeyTraits {
  std::size_t bits = 0;                ///< modulus size
  bool rsa_pss = false;                ///< an RSA-PSS key: PSS signatures only (no PKCS#1 v1.5, no encryption)
  std::optional<PssRestrictions> pss;  ///< an RSA-PSS key's restrictions (none: an unrestricted RSA-PSS key)
};

/// "sign", "verify", "verifyrecover", "encrypt", "decrypt".
std::string_view op_name(Op op);
/// Parses an operation name (as in the batch manifest); throws InvalidArgument.
Op parse_op(std::string_view name);

/// The cryptographic settings of one operation: what -pkeyopt, -digest and -rawin say.
struct CryptoSettings {
  /// rsa_padding_mode: pkcs1, pss, oaep or none (-verifyrecover only). Not given: pss for an RSA-PSS key, else pkcs1.
  std::optional<std::string> padding;
  bool rawin = false;                     ///< -rawin: the input is the message (hashed here); else it is the digest
  std::optional<std::string> digest;      ///< -digest (with -rawin) or -pkeyopt digest: (the digest given as input)
  std::optional<std::string> saltlen;     ///< rsa_pss_saltlen: N, digest, max, auto, auto-digestmax (or -1..-4)
  std::optional<std::string> oaep_md;     ///< rsa_oaep_md
  std::optional<std::string> mgf1_md;     ///< rsa_mgf1_md
  bytes oaep_label;                       ///< rsa_oaep_label (hex on the command line)
};

/// Everything the command line said.
struct Options {
  Op op = Op::sign;  ///< openssl's default operation is -sign too
  std::string key_path;                  ///< -inkey
  KeySource key_source = KeySource::private_key;  ///< -pubin, -certin
  KeyForm keyform = KeyForm::detect;     ///< -keyform PEM|DER
  std::optional<std::string> passin;     ///< -passin pass:X | env:VAR | file:PATH | fd:N | stdin
  std::string in_path;                   ///< -in ("" or "-": stdin)
  std::string out_path;                  ///< -out ("" or "-": stdout)
  std::string sig_path;                  ///< -sigfile (verify)
  CryptoSettings crypto;
  std::string engine = "auto";           ///< --engine
  std::string batch_path;                ///< --batch FILE (JSON lines)
  std::size_t threads = 0;               ///< --threads (batch)
  bool verbose = false;
  bool help = false;
};

/// Parses the arguments after `pkeyutl`. Throws InvalidArgument with a one-line message.
Options parse_args(const std::vector<std::string>& args);

/// Applies one "-pkeyopt NAME:VALUE" to `settings`; throws InvalidArgument for unknown names or bad values.
void apply_pkeyopt(CryptoSettings& settings, std::string_view name_value);

/// The SignOptions of `settings` for `key` and for signing (`signing` true) or verifying, with openssl 3.0's
/// defaults: PSS signs with the largest salt (`max`) and verifies any (`auto`); an RSA-PSS key with restrictions
/// signs and verifies with its own hash, MGF1 hash and minimum salt unless told otherwise, and refuses others.
/// `engine` is viewed by the result and must outlive it. Throws InvalidArgument (wrong padding for signatures or for
/// the key, salt too long or below the key's minimum, no digest named without -rawin, a digest the key forbids).
rsa::SignOptions sign_options(const CryptoSettings& settings, const KeyTraits& key, bool signing,
                              std::string_view engine);

/// The EncryptOptions of `settings`; `engine` and `settings.oaep_label` are viewed by the result. Throws
/// InvalidArgument for settings that are not for encryption and for an RSA-PSS key (signatures only, as openssl).
rsa::EncryptOptions encrypt_options(const CryptoSettings& settings, const KeyTraits& key, std::string_view engine);

/// How -verifyrecover unpads the result of the public operation (rsa_padding_mode:none: raw; -pkeyopt digest: the
/// DigestInfo is checked and stripped).
using RecoverOptions = rsa::RecoverOptions;

/// The RecoverOptions of `settings`. Throws InvalidArgument for what -verifyrecover cannot do, as openssl refuses it:
/// PSS or OAEP padding, -rawin, a digest with rsa_padding_mode:none, an RSA-PSS key.
RecoverOptions recover_options(const CryptoSettings& settings, const KeyTraits& key);

/// The usage text.
extern const char* const kUsage;

}  // namespace cryptaccel::cli::pkeyutl

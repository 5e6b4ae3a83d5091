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
#include "cryptaccel/types.hpp"

namespace cryptaccel::cli::pkeyutl {

/// The four operations.
enum class Op { sign, verify, encrypt, decrypt };

/// "sign", "verify", "encrypt", "decrypt".
std::string_view op_name(Op op);
/// Parses an operation name (as in the batch manifest); throws InvalidArgument.
Op parse_op(std::string_view name);

/// The cryptographic settings of one operation: what -pkeyopt, -digest and -rawin say.
struct CryptoSettings {
  std::string padding = "pkcs1";          ///< rsa_padding_mode: pkcs1, pss or oaep
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
  bool pubin = false;                    ///< -pubin: -inkey is a public key
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

/// The SignOptions of `settings` for a key of `bits` bits and for signing (`signing` true) or verifying. `engine` is
/// viewed by the result and must outlive it. Throws InvalidArgument (wrong padding for signatures, salt too long, no
/// digest named without -rawin).
rsa::SignOptions sign_options(const CryptoSettings& settings, std::size_t bits, bool signing, std::string_view engine);

/// The EncryptOptions of `settings`; `engine` and `settings.oaep_label` are viewed by the result.
rsa::EncryptOptions encrypt_options(const CryptoSettings& settings, std::string_view engine);

/// The usage text.
extern const char* const kUsage;

}  // namespace cryptaccel::cli::pkeyutl

// `cryptaccel pkeyutl`: command-line parsing and the translation of openssl's -pkeyopt settings (see the header).
#include "pkeyutl_options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <stdexcept>

#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "dash_option.hpp"
#include "cryptaccel/hex.hpp"

namespace cryptaccel::cli::pkeyutl {
namespace {

/// OpenSSL's default OAEP and MGF1 hash (RFC 8017's default too): kept so that `-pkeyopt rsa_padding_mode:oaep`
/// alone means the same here as in `openssl pkeyutl`.
constexpr std::string_view kDefaultOaepMd = "sha1";

enum class Id { sign, verify, verifyrecover, encrypt, decrypt, inkey, pubin, certin, keyform, passin, in, out, sigfile,
                rawin, digest, pkeyopt, engine, batch, threads, verbose, help };

struct OptionDef {
  std::string_view name;  // after one or two dashes
  Id id;
  bool takes_value;
};

constexpr OptionDef kOptions[] = {
    {"sign", Id::sign, false},       {"verify", Id::verify, false},   {"encrypt", Id::encrypt, false},
    {"decrypt", Id::decrypt, false}, {"inkey", Id::inkey, true},      {"pubin", Id::pubin, false},
    {"certin", Id::certin, false},   {"verifyrecover", Id::verifyrecover, false},
    {"keyform", Id::keyform, true},  {"passin", Id::passin, true},    {"in", Id::in, true},
    {"out", Id::out, true},          {"sigfile", Id::sigfile, true},  {"rawin", Id::rawin, false},
    {"digest", Id::digest, true},    {"pkeyopt", Id::pkeyopt, true},  {"engine", Id::engine, true},
    {"batch", Id::batch, true},      {"threads", Id::threads, true},  {"v", Id::verbose, false},
    {"verbose", Id::verbose, false}, {"h", Id::help, false},          {"help", Id::help, false},
};

// openssl pkeyutl options that this command does not offer, named in a clearer error than "unknown option".
constexpr std::string_view kUnsupported[] = {"derive", "peerkey", "peerform", "kdf", "kdflen", "asn1parse",
                                             "hexdump", "rev", "encap", "decap", "pkeyopt_passin",
                                             "propquery", "provider", "provider-path", "config"};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

HashAlgorithm parse_md(std::string_view name, std::string_view what) {
  try {
    return rsa::parse_digest(name);
  } catch (const InvalidArgument&) {
    throw InvalidArgument(std::string(what) + ": unknown or unsupported digest '" + std::string(name) + "'");
  }
}

/// The padding in effect: the one given, else openssl's default for the key (pss for an RSA-PSS key).
std::string padding_of(const CryptoSettings& s, const KeyTraits& key) {
  return s.padding.value_or(key.rsa_pss ? "pss" : "pkcs1");
}

/// openssl's refusal of an RSA-PSS key for `what`.
[[noreturn]] void refuse_rsa_pss(std::string_view what) {
  throw InvalidArgument("an RSA-PSS key (id-RSASSA-PSS) is for PSS signatures only, not for " + std::string(what) +
                        " (openssl refuses it too)");
}

}  // namespace

const char* const kUsage =
    "Usage: cryptaccel pkeyutl [-sign | -verify | -verifyrecover | -encrypt | -decrypt] -inkey FILE [options]\n"
    "       cryptaccel pkeyutl --batch MANIFEST.jsonl [options]\n"
    "RSA signatures and encryption like `openssl pkeyutl`, on cryptaccel's engines.\n"
    "\n"
    "  -sign                   sign the input (the default operation); output: the signature\n"
    "  -verify                 verify -sigfile against the input; prints \"Signature Verified Successfully\" (exit 0)\n"
    "                          or \"Signature Verification Failure\" (exit 1)\n"
    "  -verifyrecover          the input is a PKCS#1 v1.5 signature: output what was signed (the DigestInfo; with\n"
    "                          -pkeyopt digest:NAME the digest, checked; with rsa_padding_mode:none the raw value)\n"
    "  -encrypt, -decrypt      RSA encryption (PKCS#1 v1.5 or OAEP)\n"
    "  -inkey FILE             the key: PEM or DER; private (PKCS#1, PKCS#8, encrypted PKCS#8) unless -pubin or\n"
    "                          -certin; RSA or RSA-PSS (id-RSASSA-PSS: PSS only, within its restrictions)\n"
    "  -pubin                  -inkey is a public key (SPKI or PKCS#1)\n"
    "  -certin                 -inkey is an X.509 certificate: its public key (the last of -pubin, -certin wins)\n"
    "  -passin SPEC            password of an encrypted key: pass:X, env:VAR, file:PATH, fd:N or stdin\n"
    "  -in FILE, -out FILE     input and output (default or '-': stdin, stdout); the output is written only when\n"
    "                          the operation succeeded\n"
    "  -sigfile FILE           the signature to verify\n"
    "  -rawin                  the input is the message, hashed with -digest (default sha256); without -rawin the\n"
    "                          input is the digest, named with -pkeyopt digest:NAME\n"
    "  -digest NAME            the hash for -rawin: sha224, sha256, sha384, sha512, sha512-224, sha512-256, ...\n"
    "  -pkeyopt NAME:VALUE     rsa_padding_mode:pkcs1|pss|oaep|none (default pkcs1; pss for an RSA-PSS key; none:\n"
    "                          -verifyrecover only)\n"
    "                          rsa_pss_saltlen:N|digest|max|auto|auto-digestmax (default as openssl 3.0: sign max,\n"
    "                          verify auto; an RSA-PSS key with restrictions: its minimum salt for both)\n"
    "                          rsa_oaep_md:NAME (default sha1, as openssl), rsa_mgf1_md:NAME (default: the\n"
    "                          signature or OAEP digest), rsa_oaep_label:HEX, digest:NAME (the digest given as input)\n"
    "  -keyform PEM|DER        read -inkey with that parser only (default: PEM when it has a -----BEGIN line)\n"
    "  --engine NAME           auto (default), ref, cpu, cuda, ... (see `cryptaccel engines`)\n"
    "  --batch FILE            run every operation of a JSON-lines manifest in batches (see docs/cli.md); the\n"
    "                          options above are the defaults of every line\n"
    "  --threads N             host threads of a batch on CPU engines (default 0: all cores)\n"
    "  -v, --verbose           print the engine used to stderr\n"
    "  -h, --help              this help\n"
    "\n"
    "Every option may be written with one or two dashes. PKCS#1 v1.5 signatures and -verifyrecover's output are\n"
    "byte-identical to openssl's; PSS and the encryptions are randomised, and interoperate with openssl both ways.\n"
    "Examples:\n"
    "  cryptaccel pkeyutl -sign -inkey key.pem -rawin -digest sha256 -in msg -out msg.sig\n"
    "  cryptaccel pkeyutl -verify -pubin -inkey pub.pem -rawin -in msg -sigfile msg.sig \\\n"
    "      -pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:digest\n"
    "  cryptaccel pkeyutl -encrypt -pubin -inkey pub.pem -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256\n";

std::string_view op_name(Op op) {
  switch (op) {
    case Op::sign: return "sign";
    case Op::verify: return "verify";
    case Op::verifyrecover: return "verifyrecover";
    case Op::encrypt: return "encrypt";
    case Op::decrypt: return "decrypt";
  }
  return "?";
}

Op parse_op(std::string_view name) {
  const std::string n = lower(name);
  if (n == "sign") return Op::sign;
  if (n == "verify") return Op::verify;
  if (n == "verifyrecover") return Op::verifyrecover;
  if (n == "encrypt") return Op::encrypt;
  if (n == "decrypt") return Op::decrypt;
  throw InvalidArgument("unknown operation '" + std::string(name) +
                        "' (sign, verify, verifyrecover, encrypt or decrypt)");
}

void apply_pkeyopt(CryptoSettings& s, std::string_view name_value) {
  const auto colon = name_value.find(':');
  if (colon == std::string_view::npos)
    throw InvalidArgument("-pkeyopt '" + std::string(name_value) + "': expected NAME:VALUE");
  const std::string name = lower(name_value.substr(0, colon));
  const std::string value(name_value.substr(colon + 1));
  if (value.empty()) throw InvalidArgument("-pkeyopt " + name + ": empty value");
  if (name == "rsa_padding_mode") {
    const std::string v = lower(value);
    if (v != "pkcs1" && v != "pss" && v != "oaep" && v != "none")
      throw InvalidArgument("-pkeyopt rsa_padding_mode: '" + value + "' is not supported (pkcs1, pss, oaep or none)");
    s.padding = v;
  } else if (name == "rsa_pss_saltlen") {
    s.saltlen = lower(value);
  } else if (name == "rsa_oaep_md") {
    parse_md(value, "-pkeyopt rsa_oaep_md");
    s.oaep_md = value;
  } else if (name == "rsa_mgf1_md") {
    parse_md(value, "-pkeyopt rsa_mgf1_md");
    s.mgf1_md = value;
  } else if (name == "digest") {
    parse_md(value, "-pkeyopt digest");
    s.digest = value;
  } else if (name == "rsa_oaep_label") {
    try {
      s.oaep_label = from_hex(value);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(std::string("-pkeyopt rsa_oaep_label: ") + e.what());
    }
  } else {
    throw InvalidArgument("-pkeyopt: unknown or unsupported option '" + name +
                          "' (rsa_padding_mode, rsa_pss_saltlen, rsa_oaep_md, rsa_mgf1_md, rsa_oaep_label, digest)");
  }
}

Options parse_args(const std::vector<std::string>& args) {
  Options opt;
  std::optional<std::string> dash_digest;
  int ops = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const DashOption option = split_dash_option(arg);
    const std::string_view body = option.name;
    const auto def = std::find_if(std::begin(kOptions), std::end(kOptions),
                                  [&](const OptionDef& d) { return d.name == body; });
    if (def == std::end(kOptions)) {
      if (std::find(std::begin(kUnsupported), std::end(kUnsupported), body) != std::end(kUnsupported))
        throw InvalidArgument("option '" + arg + "' is not supported by cryptaccel pkeyutl (RSA sign, verify, "
                              "verifyrecover, encrypt and decrypt only)");
      throw InvalidArgument("unknown option '" + arg + "' (see --help)");
    }
    const std::string value = dash_option_value(args, i, arg, option, def->takes_value);

    switch (def->id) {
      case Id::sign: opt.op = Op::sign; ++ops; break;
      case Id::verify: opt.op = Op::verify; ++ops; break;
      case Id::verifyrecover: opt.op = Op::verifyrecover; ++ops; break;
      case Id::encrypt: opt.op = Op::encrypt; ++ops; break;
      case Id::decrypt: opt.op = Op::decrypt; ++ops; break;
      case Id::inkey: opt.key_path = value; break;
      case Id::pubin: opt.key_source = KeySource::public_key; break;
      case Id::certin: opt.key_source = KeySource::certificate; break;
      case Id::keyform: {
        const std::string f = lower(value);
        if (f == "pem") {
          opt.keyform = KeyForm::pem;
        } else if (f == "der") {
          opt.keyform = KeyForm::der;
        } else if (f == "engine" || f == "e") {
          throw InvalidArgument("-keyform ENGINE: engines are not supported; give the key as a PEM or DER file");
        } else if (f == "p12" || f == "pkcs12") {
          throw InvalidArgument("-keyform P12: not supported (openssl pkeyutl refuses it too); extract the key with "
                                "`openssl pkcs12 -nocerts -nodes` first");
        } else {
          throw InvalidArgument("-keyform: '" + value + "' is not PEM or DER");
        }
        break;
      }
      case Id::passin: opt.passin = value; break;
      case Id::in: opt.in_path = value; break;
      case Id::out: opt.out_path = value; break;
      case Id::sigfile: opt.sig_path = value; break;
      case Id::rawin: opt.crypto.rawin = true; break;
      case Id::digest:
        parse_md(value, "-digest");
        dash_digest = value;
        break;
      case Id::pkeyopt: apply_pkeyopt(opt.crypto, value); break;
      case Id::engine: opt.engine = value; break;
      case Id::batch: opt.batch_path = value; break;
      case Id::threads: {
        std::uint64_t n = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (value.empty() || ec != std::errc() || end != value.data() + value.size() || n > 4096)
          throw InvalidArgument("--threads: not an integer from 0 to 4096: '" + value + "'");
        opt.threads = static_cast<std::size_t>(n);
        break;
      }
      case Id::verbose: opt.verbose = true; break;
      case Id::help: opt.help = true; break;
    }
  }
  if (ops > 1) throw InvalidArgument("give only one of -sign, -verify, -verifyrecover, -encrypt, -decrypt");
  if (dash_digest) {
    if (!opt.crypto.rawin) throw InvalidArgument("-digest can only be used with -rawin (as in openssl pkeyutl)");
    if (opt.crypto.digest && lower(*opt.crypto.digest) != lower(*dash_digest))
      throw InvalidArgument("-digest and -pkeyopt digest: name different digests");
    opt.crypto.digest = dash_digest;
  }
  return opt;
}

rsa::SignOptions sign_options(const CryptoSettings& s, const KeyTraits& key, bool signing, std::string_view engine) {
  rsa::SignOptions o;
  o.engine = engine;
  const std::string padding = padding_of(s, key);
  const std::optional<PssRestrictions>& pss = key.pss;
  if (padding == "pkcs1") {
    if (key.rsa_pss)
      throw InvalidArgument("rsa_padding_mode:pkcs1 is not allowed with an RSA-PSS key (PSS signatures only, as in "
                            "openssl)");
    o.padding = rsa::SignaturePadding::pkcs1v15;
  } else if (padding == "pss") {
    o.padding = rsa::SignaturePadding::pss;
  } else if (padding == "none") {
    throw InvalidArgument("rsa_padding_mode:none is only for -verifyrecover (raw RSA signatures are not offered)");
  } else {
    throw InvalidArgument("rsa_padding_mode:" + padding + " is for encryption, not for signatures (pkcs1 or pss)");
  }
  // The digest: the one named; else a restricted RSA-PSS key's own (openssl's default for such a key), else
  // sha256 for -rawin. A prehashed input needs a name (or a restricted key) to build the DigestInfo / M'.
  if (s.digest) {
    o.hash = parse_md(*s.digest, s.rawin ? "-digest" : "-pkeyopt digest");
  } else if (pss) {
    o.hash = pss->hash;
  } else if (s.rawin) {
    o.hash = HashAlgorithm::sha256;
  } else {
    throw InvalidArgument("without -rawin the input is a digest: name its algorithm with -pkeyopt digest:NAME (raw "
                          "signatures without a DigestInfo are not supported), or give -rawin -digest NAME");
  }
  o.prehashed = !s.rawin;
  if (pss && o.hash != pss->hash)
    throw InvalidArgument("digest " + rsa::digest_name(o.hash) + " is not allowed by the RSA-PSS key's parameters "
                          "(they require " + rsa::digest_name(pss->hash) + ")");
  if (s.mgf1_md) o.mgf_hash = parse_md(*s.mgf1_md, "-pkeyopt rsa_mgf1_md");
  if (s.oaep_md) throw InvalidArgument("-pkeyopt rsa_oaep_md is only for OAEP encryption");

  if (o.padding == rsa::SignaturePadding::pkcs1v15) {
    if (s.saltlen) throw InvalidArgument("-pkeyopt rsa_pss_saltlen needs rsa_padding_mode:pss");
    if (s.mgf1_md) throw InvalidArgument("-pkeyopt rsa_mgf1_md needs rsa_padding_mode:pss or oaep");
    return o;
  }
  if (pss) {
    if (o.mgf_hash && *o.mgf_hash != pss->mgf1_hash)
      throw InvalidArgument("rsa_mgf1_md:" + rsa::digest_name(*o.mgf_hash) + " is not allowed by the RSA-PSS key's "
                            "parameters (they require MGF1 with " + rsa::digest_name(pss->mgf1_hash) + ")");
    o.mgf_hash = pss->mgf1_hash;
  }
  const std::size_t max = rsa::max_pss_salt(key.bits, o.hash);
  // openssl 3.0's defaults: sign with the largest salt ("auto" is its default and signs with "max"), verify any;
  // a key with restrictions signs and verifies with its minimum salt, exactly.
  const std::string v = s.saltlen.value_or(pss ? std::to_string(pss->min_salt) : signing ? "max" : "auto");
  try {
    rsa::set_pss_salt(o, v);
  } catch (const InvalidArgument&) {
    throw InvalidArgument("-pkeyopt rsa_pss_saltlen: '" + v + "' is not a number, digest, max, auto or auto-digestmax");
  }
  if (!signing && pss && (o.salt == rsa::PssSalt::auto_max || o.salt == rsa::PssSalt::auto_digestmax))
    throw InvalidArgument("rsa_pss_saltlen:" + v + " cannot verify with an RSA-PSS key that has restrictions "
                          "(openssl refuses it too): give the salt length, or none for the key's minimum (" +
                          std::to_string(pss->min_salt) + ")");
  const std::optional<std::size_t> salt = rsa::pss_salt_length(o, key.bits, signing);
  if (pss && salt && *salt < pss->min_salt)
    throw InvalidArgument("-pkeyopt rsa_pss_saltlen: " + std::to_string(*salt) + " bytes is below the "
                          "RSA-PSS key's minimum salt length (" + std::to_string(pss->min_salt) + ")");
  if (salt && *salt > max)
    throw InvalidArgument("-pkeyopt rsa_pss_saltlen: " + std::to_string(*salt) + " bytes is too long for a " +
                          std::to_string(key.bits) + "-bit key with " + rsa::digest_name(o.hash) +
                          " (at most " + std::to_string(max) + ")");
  return o;
}

rsa::EncryptOptions encrypt_options(const CryptoSettings& s, const KeyTraits& key, std::string_view engine) {
  rsa::EncryptOptions o;
  o.engine = engine;
  if (key.rsa_pss) refuse_rsa_pss("encryption");
  if (s.rawin || s.digest) throw InvalidArgument("-rawin and -digest are only for -sign and -verify");
  if (s.saltlen) throw InvalidArgument("-pkeyopt rsa_pss_saltlen is only for PSS signatures");
  const std::string padding = padding_of(s, key);
  if (padding == "oaep") {
    o.padding = rsa::EncryptionPadding::oaep;
    o.hash = parse_md(s.oaep_md.value_or(std::string(kDefaultOaepMd)), "-pkeyopt rsa_oaep_md");
    if (s.mgf1_md) o.mgf_hash = parse_md(*s.mgf1_md, "-pkeyopt rsa_mgf1_md");
    o.label = s.oaep_label;
  } else if (padding == "pkcs1") {
    if (s.oaep_md || s.mgf1_md || !s.oaep_label.empty())
      throw InvalidArgument("-pkeyopt rsa_oaep_md, rsa_mgf1_md and rsa_oaep_label need rsa_padding_mode:oaep");
    o.padding = rsa::EncryptionPadding::pkcs1v15;
  } else if (padding == "none") {
    throw InvalidArgument("rsa_padding_mode:none is only for -verifyrecover (raw RSA encryption is not offered)");
  } else {
    throw InvalidArgument("rsa_padding_mode:" + padding + " is for signatures, not for encryption (pkcs1 or oaep)");
  }
  return o;
}

RecoverOptions recover_options(const CryptoSettings& s, const KeyTraits& key) {
  if (key.rsa_pss) refuse_rsa_pss("-verifyrecover");
  // openssl's own message for -rawin here
  if (s.rawin) throw InvalidArgument("-rawin can only be used with -sign or -verify");
  if (s.saltlen || s.mgf1_md || s.oaep_md || !s.oaep_label.empty())
    throw InvalidArgument("-verifyrecover takes rsa_padding_mode:pkcs1 or none and digest:NAME only (no PSS or OAEP "
                          "settings)");
  const std::string padding = padding_of(s, key);
  RecoverOptions o;
  if (padding == "pss")
    throw InvalidArgument("rsa_padding_mode:pss cannot recover what was signed (PSS only verifies): use -verify");
  if (padding == "oaep") throw InvalidArgument("rsa_padding_mode:oaep is for encryption, not for -verifyrecover");
  if (padding == "none") {
    if (s.digest)
      throw InvalidArgument("-pkeyopt digest: needs rsa_padding_mode:pkcs1 with -verifyrecover (none recovers the raw "
                            "value; openssl refuses it too)");
    o.raw = true;
  } else if (s.digest) {
    o.digest = parse_md(*s.digest, "-pkeyopt digest");
  }
  return o;
}

}  // namespace cryptaccel::cli::pkeyutl

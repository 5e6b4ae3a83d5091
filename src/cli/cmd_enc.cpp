// `cryptaccel enc` / `cryptaccel dec`: openssl-enc-compatible encryption with a raw key (-K/-iv) or a password
// (-pass, -k, -kfile with -pbkdf2/-iter/-md, the "Salted__" header: enc_password.hpp), streamed in bounded memory,
// with GCM (--aad, --taglen) and XTS (--xts-unit, --xts-sector) extensions. The library does the cryptography.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "cryptaccel/atomic_output.hpp"
#include "command_errors.hpp"
#include "commands.hpp"
#include "dash_option.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hex.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/types.hpp"
#include "cryptaccel/stream.hpp"
#include "base64_stream.hpp"
#include "enc_password.hpp"
#include "cryptaccel/spool_file.hpp"
#include "password_source.hpp"
#include "stream_input.hpp"

namespace cryptaccel::cli {
namespace {

/// Everything the command line said, before any checking against the cipher.
struct EncOptions {
  std::optional<CipherSpec> spec;
  Direction dir = Direction::encrypt;
  std::string in_path;   // "" or "-": stdin
  std::string out_path;  // "" or "-": stdout
  std::optional<std::string> key_hex;
  std::optional<std::string> iv_hex;
  bool nopad = false;
  std::string engine = "auto";
  std::optional<std::string> aad_path;
  std::optional<std::size_t> tag_len;
  std::optional<std::size_t> xts_unit;
  std::optional<std::uint64_t> xts_sector;
  bool verbose = false;
  bool help = false;
  bool list = false;             // -list, -ciphers: print the ciphers and stop
  bool base64 = false;           // -a, -base64: the ciphertext is base64 text
  bool base64_one_line = false;  // -A: on one line
  PasswordOptions password;
};

enum class Opt {
  in, out, key, iv, nopad, nosalt, salt, cipher, engine, aad, taglen, xts_unit, xts_sector, enc, dec, verbose, help,
  pass, k, kfile, pbkdf2, iter, md, salt_hex, print_key, print_key_only, base64, base64_one_line, list
};

struct OptionDef {
  std::string_view name;  // spelled after one or two dashes
  Opt id;
  bool takes_value;
};

constexpr OptionDef kOptions[] = {
    {"in", Opt::in, true},           {"out", Opt::out, true},          {"K", Opt::key, true},
    {"key", Opt::key, true},         {"iv", Opt::iv, true},            {"nopad", Opt::nopad, false},
    {"nosalt", Opt::nosalt, false},  {"cipher", Opt::cipher, true},    {"engine", Opt::engine, true},
    {"aad", Opt::aad, true},         {"taglen", Opt::taglen, true},    {"xts-unit", Opt::xts_unit, true},
    {"xts-sector", Opt::xts_sector, true}, {"e", Opt::enc, false},     {"d", Opt::dec, false},
    {"v", Opt::verbose, false},      {"verbose", Opt::verbose, false}, {"h", Opt::help, false},
    {"help", Opt::help, false},      {"pass", Opt::pass, true},        {"k", Opt::k, true},
    {"kfile", Opt::kfile, true},     {"pbkdf2", Opt::pbkdf2, false},   {"iter", Opt::iter, true},
    {"md", Opt::md, true},           {"S", Opt::salt_hex, true},       {"salt", Opt::salt, false},
    {"p", Opt::print_key, false},    {"P", Opt::print_key_only, false},
    {"a", Opt::base64, false},       {"base64", Opt::base64, false},   {"A", Opt::base64_one_line, false},
    {"list", Opt::list, false},      {"ciphers", Opt::list, false},
};

/// openssl's short cipher names (`openssl list -cipher-algorithms`: aes128 => AES-128-CBC, ..., sm4 => SM4-CBC).
constexpr std::pair<std::string_view, std::string_view> kCipherAliases[] = {
    {"aes128", "aes-128-cbc"}, {"aes192", "aes-192-cbc"}, {"aes256", "aes-256-cbc"}, {"sm4", "sm4-cbc"}};

constexpr const char* kUsage =
    "Usage: cryptaccel %s -CIPHER (-K HEX [-iv HEX] | -pass ARG [-pbkdf2] [-iter N]) [options]\n"
    "Encrypt or decrypt like `openssl enc`, with a raw key or a password, in bounded memory.\n"
    "\n"
    "  -CIPHER, -cipher NAME   cipher, e.g. -aes-128-cbc, -sm4-ctr, -aes-256-gcm, -aes-256-xts,\n"
    "                          -chacha20-poly1305 (read whole: one tag over the message); openssl's\n"
    "                          aliases -aes128, -aes192, -aes256, -sm4 are CBC\n"
    "  -list, -ciphers         print the supported ciphers (as `openssl enc -list`) and stop\n"
    "  -e, -d                  encrypt (default for enc) or decrypt (default for dec)\n"
    "  -K, --key HEX           key, exactly the cipher's key size (XTS: both halves)\n"
    "  -iv, --iv HEX           IV: 16 bytes for CBC, CTR and XTS (the tweak); GCM: any non-zero length;\n"
    "                          ignored with a warning for ECB\n"
    "  -in, --in FILE          input file (default or '-': stdin)\n"
    "  -out, --out FILE        output file (default or '-': stdout); written only when everything succeeded\n"
    "  -nopad                  no PKCS#7 padding (ECB/CBC): the input length must be a multiple of 16\n"
    "  -pass ARG               password: pass:PASSWORD, env:VAR, file:PATH, fd:N or stdin (first line)\n"
    "  -k PASSWORD, -kfile F   the same as -pass pass:PASSWORD, -pass file:F\n"
    "  -pbkdf2, -iter N        PBKDF2-HMAC (default 10000 iterations) instead of the legacy EVP_BytesToKey\n"
    "  -md NAME                digest of the key derivation (default sha256)\n"
    "  -S HEX, -salt, -nosalt  salt: given (no header written), random (default: \"Salted__\" header), none\n"
    "  -p, -P                  print the salt, key and IV (-P: and stop)\n"
    "  -a, -base64, -A         the ciphertext is base64 (64-character lines; -A: one line)\n"
    "  --engine NAME           auto (default), ref, cpu, cuda, ... (see `cryptaccel engines`)\n"
    "  --aad FILE              GCM: additional authenticated data\n"
    "  --taglen N              GCM: tag length in bytes, 4..16 (default 16); output is ciphertext || tag\n"
    "  --xts-unit N            XTS: data-unit size in bytes (default 0: the whole input is one unit)\n"
    "  --xts-sector N          XTS: tweak = data-unit number N (instead of -iv)\n"
    "  -v, --verbose           print the engine used to stderr\n"
    "  -h, --help              this help\n"
    "\n"
    "Every option may be written with one or two dashes; -name=value and --name=value work too.\n"
    "Ciphers: %s\n";

std::string join_cipher_names() {
  std::string out;
  for (const std::string& name : cipher_names()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::uint64_t parse_number(std::string_view text, std::string_view option) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw InvalidArgument(std::string(option) + ": not a non-negative integer: '" + std::string(text) + "'");
  }
  return value;
}

CipherSpec parse_cipher(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& [alias, full] : kCipherAliases)
    if (lower == alias) return CipherSpec::parse(full);
  try {
    return CipherSpec::parse(name);
  } catch (const InvalidArgument&) {
    throw InvalidArgument("unknown cipher '" + std::string(name) + "' (supported: " + join_cipher_names() + ")");
  }
}

bool starts_with_cipher_family(std::string_view body) {
  std::string lower(body.substr(0, 8));
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.rfind("aes", 0) == 0 || lower.rfind("sm4", 0) == 0 || lower == "chacha20";
}

void set_cipher(EncOptions& opt, const CipherSpec& spec) {
  if (opt.spec && *opt.spec != spec) throw InvalidArgument("more than one cipher given");
  opt.spec = spec;
}

EncOptions parse_args(const std::vector<std::string>& args, bool decrypt_by_default) {
  EncOptions opt;
  if (decrypt_by_default) opt.dir = Direction::decrypt;

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const DashOption option = split_dash_option(arg);
    const std::string_view body = option.name;
    const std::optional<std::string>& inline_value = option.inline_value;

    const auto def = std::find_if(std::begin(kOptions), std::end(kOptions),
                                  [&](const OptionDef& d) { return d.name == body; });
    if (def == std::end(kOptions)) {
      if (!inline_value && starts_with_cipher_family(body)) {
        set_cipher(opt, parse_cipher(body));
        continue;
      }
      throw InvalidArgument("unknown option '" + arg + "' (see --help)");
    }

    const std::string value = dash_option_value(args, i, arg, option, def->takes_value);

    switch (def->id) {
      case Opt::in: opt.in_path = value; break;
      case Opt::out: opt.out_path = value; break;
      case Opt::key: opt.key_hex = value; break;
      case Opt::iv: opt.iv_hex = value; break;
      case Opt::nopad: opt.nopad = true; break;
      case Opt::nosalt: opt.password.nosalt = true; break;
      case Opt::salt: opt.password.nosalt = false; break;
      case Opt::pass: opt.password.source = value; break;
      case Opt::k: opt.password.source = "pass:" + value; break;
      case Opt::kfile: opt.password.source = "file:" + value; break;
      case Opt::pbkdf2: opt.password.pbkdf2 = true; break;
      case Opt::iter: {
        const std::uint64_t n = parse_number(value, "-iter");
        if (n == 0 || n > 0x7fffffff) throw InvalidArgument("-iter must be between 1 and 2147483647");
        opt.password.iterations = static_cast<unsigned>(n);
        break;
      }
      case Opt::md: opt.password.digest = value; break;
      case Opt::salt_hex: opt.password.salt_hex = value; break;
      case Opt::print_key: opt.password.print = true; break;
      case Opt::print_key_only: opt.password.print_only = true; break;
      case Opt::base64: opt.base64 = true; break;
      case Opt::base64_one_line: opt.base64_one_line = true; break;
      case Opt::cipher: set_cipher(opt, parse_cipher(value)); break;
      case Opt::engine: opt.engine = value; break;
      case Opt::aad: opt.aad_path = value; break;
      case Opt::taglen: opt.tag_len = parse_number(value, "--taglen"); break;
      case Opt::xts_unit: opt.xts_unit = parse_number(value, "--xts-unit"); break;
      case Opt::xts_sector: opt.xts_sector = parse_number(value, "--xts-sector"); break;
      case Opt::enc: opt.dir = Direction::encrypt; break;
      case Opt::dec: opt.dir = Direction::decrypt; break;
      case Opt::verbose: opt.verbose = true; break;
      case Opt::help: opt.help = true; break;
      case Opt::list: opt.list = true; return opt;  // as openssl: the rest of the line is not looked at
    }
  }
  return opt;
}

/// -list / -ciphers: every name -CIPHER takes (the aliases included), sorted as strcmp does, in `openssl enc -list`'s
/// layout: a heading, then "-NAME" padded to 26 columns, three to a line, and an empty line at the end.
void print_cipher_list() {
  std::vector<std::string> names = cipher_names();
  for (const auto& [alias, full] : kCipherAliases) names.emplace_back(alias);
  std::sort(names.begin(), names.end());
  std::printf("Supported ciphers:\n");
  std::size_t column = 0;
  for (const std::string& name : names) {
    std::printf("-%-25s", name.c_str());
    column = (column + 1) % 3;
    std::fputs(column == 0 ? "\n" : " ", stdout);
  }
  std::printf("\n");
}

bytes decode_hex_option(const std::string& hex, std::string_view option) {
  try {
    return from_hex(hex);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument("invalid hex in " + std::string(option) + ": " + e.what());
  }
}

std::string byte_count(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes") + " (" + std::to_string(2 * n) + " hex digits)";
}

bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

/// Wipes a key buffer when the command ends, however it ends.
struct WipeOnExit {
  bytes& data;
  ~WipeOnExit() { secure_wipe(data.data(), data.size()); }
};

/// Stream tuning for the CLI: chunks of `CRYPTACCEL_ENC_CHUNK_KIB` KiB (default 1024), `CRYPTACCEL_ENC_CHUNKS`
/// chunks per batch (default two per core, at most 16) and `CRYPTACCEL_ENC_BUFFERS` batch buffers in flight
/// (default 4): for measuring other shapes without rebuilding (as `CRYPTACCEL_ENC_NO_MMAP` reads a regular input
/// file instead of mapping it, in run_streaming).
StreamOptions stream_options(const std::string& engine) {
  const auto env_number = [](const char* name, std::size_t fallback) -> std::size_t {
    const char* text = std::getenv(name);
    return text && *text ? static_cast<std::size_t>(parse_number(text, name)) : fallback;
  };
  StreamOptions so;
  so.engine = engine;
  so.chunk_bytes = std::max<std::size_t>(env_number("CRYPTACCEL_ENC_CHUNK_KIB", 1024), 1) << 10;
  so.chunks_per_batch =
      env_number("CRYPTACCEL_ENC_CHUNKS", std::min<std::size_t>(2 * std::max(1u, std::thread::hardware_concurrency()), 16));
  so.pipeline_buffers = env_number("CRYPTACCEL_ENC_BUFFERS", 4);
  return so;
}

/// Encrypts or decrypts the rest of `input` to `output` (after `header`) in bounded memory: CipherStream::pipe reads,
/// processes (batches of chunks spread over the engine's cores) and writes on three threads. The output is published
/// only when the whole stream succeeded (a file: its temporary file renamed; stdout, with `spool`: the stream goes
/// to the spool file first and is copied out only then); returns the engine used.
std::string run_streaming(const CipherSpec& spec, const EncOptions& opt, const CipherParams& params,
                          ByteSource& input, StreamInput* file, AtomicOutput& output, bytes_view header,
                          SpoolFile* spool) {
  // In place (-in F -out F) works: the output goes to a temporary file that replaces F only when complete, and the
  // input is read through its own open descriptor (or mapping) until then.
  const StreamOptions options = stream_options(opt.engine);
  CipherStream stream(spec, opt.dir, params, options);
  const StopOnSignal stop_on_signal;
  if (!spool) output.begin();
  const StreamSink to_output = [&](bytes_view piece) { spool ? spool->write(piece) : output.write(piece); };
  // Encrypting with -a: everything written, the header included, goes through the base64 encoder.
  std::optional<Base64Sink> base64;
  if (opt.base64 && opt.dir == Direction::encrypt) base64.emplace(to_output, opt.base64_one_line);
  const StreamSink write = [&](bytes_view piece) { base64 ? base64->write(piece) : to_output(piece); };
  write(header);  // the password mode's "Salted__" || salt, or nothing
  if (file && !std::getenv("CRYPTACCEL_ENC_NO_MMAP")) {
    // A file (not under base64 decoding): a regular one is mapped, no copy on the way in; a signal is seen between
    // batches and at an interrupted read.
    stream.pipe_fd(file->fd(), file->name(), write, [](std::uint64_t) { StopOnSignal::throw_if_requested(); });
  } else {
    stream.pipe([&](mutable_bytes buffer) { return input.read(buffer); }, write);
  }
  if (base64) base64->finish();
  StopOnSignal::throw_if_requested();
  if (spool) {  // verified: now it may go out
    output.begin();
    spool->copy_to([&](bytes_view piece) { output.write(piece); });
  }
  output.finish();
  return stream.engine_used().empty() ? resolve_engine(opt.engine, spec, opt.dir) : stream.engine_used();
}

/// A source whose first bytes were already read (to look at them): hands them back first, then the rest.
class ReplaySource : public ByteSource {
 public:
  ReplaySource(bytes head, ByteSource& rest) : head_(std::move(head)), rest_(rest) {}
  std::size_t read(mutable_bytes buffer) override {
    std::size_t n = std::min(buffer.size(), head_.size() - at_);
    std::copy_n(head_.begin() + static_cast<std::ptrdiff_t>(at_), n, buffer.begin());
    at_ += n;
    if (n < buffer.size()) n += rest_.read(buffer.subspan(n));
    return n;
  }

 private:
  bytes head_;
  std::size_t at_ = 0;
  ByteSource& rest_;
};

/// The line said when a decryption given -K reads an input that opens with openssl's password header.
constexpr const char* kSaltedHint =
    "the input starts with \"Salted__\": it looks encrypted with a password; decrypt with -pass, -k or -kfile "
    "instead of -K";

/// Whether `input` (`file`, or `decoded` from it) opens with "Salted__". A regular file is looked at without being
/// read (pread at its offset: the stream maps it from there as before); anything else (a pipe, base64) is read, and
/// `replay` set to hand those bytes back: the stream must then read `*replay` instead of the descriptor.
bool starts_with_salt_header(StreamInput& file, ByteSource& input, bool decoded, std::optional<ReplaySource>& replay) {
  bytes head(kOpensslSaltMagic.size());
  const auto salted = [&](std::size_t got) {
    return got == kOpensslSaltMagic.size() && std::equal(head.begin(), head.begin() + got, kOpensslSaltMagic.begin());
  };
  struct stat st {};
  if (!decoded && ::fstat(file.fd(), &st) == 0 && S_ISREG(st.st_mode)) {
    if (const off_t at = ::lseek(file.fd(), 0, SEEK_CUR); at >= 0) {
      ssize_t n;
      do n = ::pread(file.fd(), head.data(), head.size(), at); while (n < 0 && errno == EINTR);
      return n > 0 && salted(static_cast<std::size_t>(n));  // a read error shows again when the stream reads
    }
  }
  const std::size_t got = input.read(head);
  head.resize(got);
  const bool result = salted(got);
  replay.emplace(std::move(head), input);
  return result;
}

/// Runs the command; `failure_hint` gets a hint to add to a decryption failure's message (success prints it itself).
void run(const EncOptions& opt, const char* command, std::string& failure_hint) {
  if (!opt.spec) throw InvalidArgument("no cipher given (e.g. -aes-128-cbc or -cipher NAME; see --help)");
  CipherSpec spec = *opt.spec;
  spec.padding = !opt.nopad;
  const std::string name = spec.name();
  const bool gcm = spec.mode == Mode::gcm;
  const bool aead = spec.is_aead();  // GCM, ChaCha20-Poly1305
  const bool xts = spec.mode == Mode::xts;

  const bool with_password = opt.password.source.has_value();
  if (!opt.key_hex && !with_password)
    throw InvalidArgument("a key is required: -K HEX, or a password (-pass, -k, -kfile)");
  if (opt.key_hex && with_password) throw InvalidArgument("-K and a password are mutually exclusive");
  if (with_password && aead)
    throw InvalidArgument(name + " takes no password (openssl enc has no AEAD password mode): give -K and -iv");
  if (!with_password && (opt.password.pbkdf2 || opt.password.iterations || opt.password.digest ||
                         opt.password.salt_hex || opt.password.print || opt.password.print_only))
    throw InvalidArgument("-pbkdf2, -iter, -md, -S, -p and -P need a password (-pass, -k or -kfile)");
  bytes key;
  const WipeOnExit wipe_key{key};
  if (opt.key_hex) {
    key = decode_hex_option(*opt.key_hex, "-K");
    if (key.size() != spec.key_size()) {
      throw InvalidArgument("-K must be " + byte_count(spec.key_size()) + " for " + name + ", got " +
                            byte_count(key.size()));
    }
  }

  if (opt.aad_path && !aead) throw InvalidArgument("--aad is only valid with GCM ciphers and chacha20-poly1305");
  if (opt.tag_len && !aead) throw InvalidArgument("--taglen is only valid with GCM ciphers and chacha20-poly1305");
  if ((opt.xts_unit || opt.xts_sector) && !xts) {
    throw InvalidArgument(std::string(opt.xts_unit ? "--xts-unit" : "--xts-sector") + " is only valid with XTS ciphers");
  }
  if (opt.tag_len && (*opt.tag_len < 4 || *opt.tag_len > 16)) {
    throw InvalidArgument("--taglen must be between 4 and 16, got " + std::to_string(*opt.tag_len));
  }

  bytes iv;
  if (opt.iv_hex) iv = decode_hex_option(*opt.iv_hex, "-iv");
  const bool iv_ignored = spec.mode == Mode::ecb && opt.iv_hex;
  if (spec.mode == Mode::ecb) {
    iv.clear();
  } else if (xts && opt.xts_sector) {
    if (opt.iv_hex) throw InvalidArgument("-iv and --xts-sector are mutually exclusive");
    const auto tweak = xts_tweak(*opt.xts_sector);
    iv.assign(tweak.begin(), tweak.end());
  } else if (!opt.iv_hex) {
    if (!with_password)  // with a password the IV is derived too
      throw InvalidArgument(xts ? "-iv (the tweak) or --xts-sector is required for " + name
                                : "-iv is required for " + name);
  } else if (gcm) {
    if (iv.empty()) throw InvalidArgument("-iv must not be empty for " + name);
  } else if (iv.size() != spec.iv_size()) {
    throw InvalidArgument("-iv must be " + byte_count(spec.iv_size()) + " for " + name + ", got " +
                          byte_count(iv.size()));
  }

  if (opt.aad_path && is_stdio(*opt.aad_path) && is_stdio(opt.in_path)) {
    throw InvalidArgument("--aad and the input cannot both be stdin");
  }

  resolve_engine(opt.engine, spec, opt.dir);  // fail before reading a large input
  // Opened before the salt: a decryption's "Salted__" header is the input's first 16 bytes (after base64 decoding
  // with -a).
  if (opt.base64_one_line && !opt.base64) throw InvalidArgument("-A goes with -a (or -base64)");
  StreamInput file_input(opt.in_path);
  std::optional<Base64Source> base64_input;
  if (opt.base64 && opt.dir == Direction::decrypt) base64_input.emplace(file_input);
  ByteSource& input = base64_input ? static_cast<ByteSource&>(*base64_input) : file_input;
  AtomicOutput output(opt.out_path);
  bytes header;
  std::optional<ReplaySource> replay;  // what the stream reads instead of `input` once its start was looked at
  bool salted_hint = false;
  if (!with_password && opt.dir == Direction::decrypt) {
    // -K given, but the input looks like openssl's password mode: decrypted as asked (and failing or not as before),
    // with a hint on stderr.
    salted_hint = starts_with_salt_header(file_input, input, base64_input.has_value(), replay);
    if (salted_hint) failure_hint = kSaltedHint;
  }
  ByteSource& source = replay ? static_cast<ByteSource&>(*replay) : input;
  StreamInput* const source_file = base64_input || replay ? nullptr : &file_input;  // pipe_fd reads it directly
  if (with_password) {
    const PasswordKdf kdf = password_kdf(opt.password, command);
    std::string password = read_password(*opt.password.source, "-pass");
    bool write_header = false;
    const bytes salt = opt.dir == Direction::encrypt ? encryption_salt(opt.password, write_header, command)
                                                     : decryption_salt(opt.password, input, command);
    DerivedKey derived = derive_openssl_enc_key(spec, password, salt, kdf);
    secure_wipe(password.data(), password.size());
    key = derived.key;
    if (!opt.iv_hex && !(xts && opt.xts_sector)) iv = derived.iv;  // an explicit -iv wins, as in openssl
    if (opt.password.print || opt.password.print_only) print_key_material(salt, key, iv);
    if (opt.password.print_only) return;
    if (write_header) {
      header.assign(kOpensslSaltMagic.begin(), kOpensslSaltMagic.end());
      header.insert(header.end(), salt.begin(), salt.end());
    }
  }
  CipherParams params;
  params.key = key;
  params.iv = iv;
  params.tag_len = opt.tag_len.value_or(16);
  params.xts_unit = opt.xts_unit.value_or(0);

  std::string engine_used;
  bytes aad;
  if (opt.aad_path) {
    StreamInput aad_input(*opt.aad_path);
    aad = read_rest(aad_input);
  }
  params.aad = aad;
  // A GCM decryption's plaintext is unverified until the end of the stream: into a file it goes to the temporary file
  // published only after the tag checks; to stdout, to a spool file in $TMPDIR copied out only after the check.
  const bool streaming = streamable(spec, params.xts_unit, opt.engine);
  std::optional<SpoolFile> spool;
  if (streaming && gcm && opt.dir == Direction::decrypt && is_stdio(opt.out_path)) spool.emplace();
  if (streaming) {
    engine_used = run_streaming(spec, opt, params, source, source_file, output, header, spool ? &*spool : nullptr);
  } else {
    // GCM or single-unit XTS on an engine without the building blocks to stream it (cuda), and ChaCha20-Poly1305 (one
    // tag over the whole message): the whole input in memory, and a decryption verified before anything is written.
    bytes data = read_rest(source);
    const WipeOnExit wipe_data{data};
    bytes result = opt.dir == Direction::encrypt ? encrypt(spec, params, data, opt.engine, &engine_used)
                                                 : decrypt(spec, params, data, opt.engine, &engine_used);
    result.insert(result.begin(), header.begin(), header.end());
    const WipeOnExit wipe_result{result};
    if (opt.base64 && opt.dir == Direction::encrypt) {
      bytes text;
      Base64Sink encoder([&](bytes_view t) { text.insert(text.end(), t.begin(), t.end()); }, opt.base64_one_line);
      encoder.write(result);
      encoder.finish();
      output.commit(text);
    } else {
      output.commit(result);
    }
  }
  if (opt.verbose) std::fprintf(stderr, "engine: %s\n", engine_used.c_str());
  // Warned only on success, so that a failure is always exactly one line.
  if (iv_ignored) std::fprintf(stderr, "cryptaccel %s: warning: iv not used by this cipher\n", command);
  if (salted_hint) std::fprintf(stderr, "cryptaccel %s: hint: %s\n", command, kSaltedHint);
}

}  // namespace

int run_enc(const std::vector<std::string>& args, bool decrypt_by_default) {
  const char* command = decrypt_by_default ? "dec" : "enc";
  std::string hint;  // set by run() for a decryption failure's message
  const auto body = [&] {
    const EncOptions opt = parse_args(args, decrypt_by_default);
    if (opt.help) {
      std::printf(kUsage, command, join_cipher_names().c_str());
      return 0;
    }
    if (opt.list) {
      print_cipher_list();
      return 0;
    }
    run(opt, command, hint);
    return 0;
  };
  // A failed padding or tag check of an input that looked password-encrypted: the hint says why it may have failed.
  const auto describe = [&](const std::exception& e) {
    const bool check_failed = dynamic_cast<const BadDecrypt*>(&e) || dynamic_cast<const AuthenticationFailed*>(&e);
    return check_failed && !hint.empty() ? std::string(e.what()) + " (hint: " + hint + ")" : std::string(e.what());
  };
  return run_reporting_errors(command, 1, body, describe);
}

}  // namespace cryptaccel::cli

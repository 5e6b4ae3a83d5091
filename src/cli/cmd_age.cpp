// `cryptaccel seal` / `open` / `keygen`: the age file format with age's and age-keygen's flags, on the library's
// cryptaccel::age (include/cryptaccel/age.hpp). Output goes through AtomicOutput: a file appears only once complete;
// a failed open to stdout has written the verified chunks before its one error line.
#include <termios.h>
#include <unistd.h>
#include <fcntl.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cryptaccel/atomic_output.hpp"
#include "command_errors.hpp"
#include "commands.hpp"
#include "cryptaccel/age.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/file.hpp"
#include "password_source.hpp"
#include "stream_input.hpp"

namespace cryptaccel::cli {
namespace {

constexpr const char* kSealUsage =
    "Usage: cryptaccel seal (-r RECIPIENT | -R PATH)... [-a] [-o OUTPUT] [INPUT]\n"
    "       cryptaccel seal -p [--pass SPEC] [-a] [-o OUTPUT] [INPUT]\n"
    "Encrypt INPUT (default: stdin) to an age file (age-encryption.org/v1), readable by age, rage and pyrage.\n"
    "\n"
    "  -r, --recipient AGE1...    encrypt to this X25519 recipient (repeatable)\n"
    "  -R, --recipients-file PATH encrypt to the recipients listed in PATH, one per line, '#' comments (repeatable)\n"
    "  -p, --passphrase           encrypt with a passphrase (scrypt), asked on the terminal unless --pass gives it\n"
    "      --pass SPEC            the passphrase: pass:TEXT, env:VAR, file:PATH, fd:N or stdin\n"
    "      --work-factor N        scrypt work factor log2(N) for -p (default 18, as age)\n"
    "  -a, --armor                write the PEM-like ASCII armor\n"
    "  -o, --output PATH          write to PATH (atomically: complete or not at all; default stdout)\n"
    "      --engine E             engine for the ChaCha20-Poly1305 chunks: auto (default), cpu, ref\n"
    "      --threads N            host threads (default: all cores)\n"
    "\n"
    "Examples:\n"
    "  cryptaccel keygen -o key.txt\n"
    "  cryptaccel seal -r age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p -o backup.tar.age backup.tar\n"
    "  tar c dir | cryptaccel seal -R recipients.txt -a > dir.tar.age\n";

constexpr const char* kOpenUsage =
    "Usage: cryptaccel open [-i PATH]... [--pass SPEC] [-o OUTPUT] [INPUT]\n"
    "Decrypt an age file (binary or armored) from INPUT (default: stdin). Each 64 KiB chunk is released only after\n"
    "its tag verified; to a file, nothing is written unless the whole file verified.\n"
    "\n"
    "  -i, --identity PATH        an identity file (age-keygen's format; repeatable)\n"
    "      --pass SPEC            the passphrase of a passphrase-encrypted file (else asked on the terminal)\n"
    "      --max-work-factor N    refuse scrypt work factors above 2^N (default 22, as age)\n"
    "  -o, --output PATH          write to PATH (default stdout)\n"
    "      --engine E, --threads N  as for seal\n"
    "\n"
    "Examples:\n"
    "  cryptaccel open -i key.txt -o backup.tar backup.tar.age\n"
    "  cryptaccel open --pass env:PASSPHRASE < notes.age\n";

constexpr const char* kKeygenUsage =
    "Usage: cryptaccel keygen [-o OUTPUT]\n"
    "       cryptaccel keygen -y [-o OUTPUT] [INPUT]\n"
    "Generate an age X25519 identity (age-keygen's format), or with -y print the recipients of an identity file.\n"
    "\n"
    "  -o, --output PATH  write to PATH, created with mode 0600 (an existing file is not overwritten); the public key\n"
    "                     is printed on stderr\n"
    "  -y                 convert the identity file INPUT (default stdin) to its recipients\n";

struct AgeArgs {
  bool help = false, armor = false, passphrase = false, convert = false;
  std::vector<std::string> recipients, recipient_files, identity_files;
  std::optional<std::string> pass, output, input;
  unsigned work_factor = age::kDefaultScryptLog2N, max_work_factor = age::kMaxScryptLog2N;
  std::string engine = "auto";
  std::size_t threads = 0;
};

unsigned parse_count(const std::string& text, const char* option) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
    throw InvalidArgument(std::string(option) + ": not a number: '" + text + "'");
  return static_cast<unsigned>(std::stoul(text));
}

/// age's flags: "-r X", "--recipient X", "--recipient=X"; one positional INPUT.
AgeArgs parse(const std::vector<std::string>& args, std::string_view command) {
  AgeArgs a;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::optional<std::string> inline_value;
    if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos) {
      inline_value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
    }
    const auto value = [&]() -> std::string {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size()) throw InvalidArgument(arg + " needs a value");
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") a.help = true;
    else if (command == "seal" && (arg == "-r" || arg == "--recipient")) a.recipients.push_back(value());
    else if (command == "seal" && (arg == "-R" || arg == "--recipients-file")) a.recipient_files.push_back(value());
    else if (command == "seal" && (arg == "-a" || arg == "--armor")) a.armor = true;
    else if (command == "seal" && (arg == "-p" || arg == "--passphrase")) a.passphrase = true;
    else if (command == "seal" && (arg == "-e" || arg == "--encrypt")) continue;
    else if (command == "seal" && arg == "--work-factor") a.work_factor = parse_count(value(), "--work-factor");
    else if (command == "open" && (arg == "-i" || arg == "--identity")) a.identity_files.push_back(value());
    else if (command == "open" && (arg == "-d" || arg == "--decrypt")) continue;
    else if (command == "open" && arg == "--max-work-factor") a.max_work_factor = parse_count(value(), "--max-work-factor");
    else if (command == "keygen" && arg == "-y") a.convert = true;
    else if (command != "keygen" && arg == "--pass") a.pass = value();
    else if (command != "keygen" && arg == "--engine") a.engine = value();
    else if (command != "keygen" && arg == "--threads") a.threads = parse_count(value(), "--threads");
    else if (arg == "-o" || arg == "--output") a.output = value();
    else if (arg.size() > 1 && arg[0] == '-') throw InvalidArgument("unknown option '" + arg + "' (see --help)");
    else if (a.input) throw InvalidArgument("more than one input file given ('" + *a.input + "' and '" + arg + "')");
    else a.input = arg;
  }
  return a;
}

/// A passphrase from --pass, else from the terminal (twice when `confirm`), with echo off.
std::string passphrase(const AgeArgs& a, bool confirm) {
  if (a.pass) return read_password(*a.pass, "--pass");
  const int tty = ::open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (tty < 0) throw InvalidArgument("a passphrase is needed: give --pass SPEC (no terminal to ask on)");
  const auto ask = [&](const char* prompt) {
    (void)!::write(tty, prompt, std::char_traits<char>::length(prompt));
    termios old{};
    const bool restore = ::tcgetattr(tty, &old) == 0;
    if (restore) {
      termios quiet = old;
      quiet.c_lflag &= static_cast<tcflag_t>(~ECHO);
      ::tcsetattr(tty, TCSAFLUSH, &quiet);
    }
    std::string line;
    char c;
    while (::read(tty, &c, 1) == 1 && c != '\n') line += c;
    if (restore) ::tcsetattr(tty, TCSAFLUSH, &old);
    (void)!::write(tty, "\n", 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  };
  std::string first = ask("Enter passphrase: ");
  if (confirm) {
    std::string again = ask("Confirm passphrase: ");
    const bool same = again == first;
    secure_wipe(again.data(), again.size());
    if (!same) {
      secure_wipe(first.data(), first.size());
      ::close(tty);
      throw InvalidArgument("the passphrases did not match");
    }
  }
  ::close(tty);
  if (first.empty()) throw InvalidArgument("an empty passphrase was given");
  return first;
}

/// Wipes a string holding a secret (a passphrase) however the scope is left.
struct WipeString {
  std::string& s;
  ~WipeString() { secure_wipe(s.data(), s.size()); }
};

std::string text_of_file(const std::string& path) {
  bytes b = read_whole_file(path);
  std::string text(b.begin(), b.end());
  secure_wipe(b.data(), b.size());
  return text;
}

/// The identities of the files named by -i; the files' text (secret keys) is wiped once parsed.
std::vector<age::Identity> identities_of(const std::vector<std::string>& paths) {
  std::vector<age::Identity> out;
  for (const std::string& f : paths) {
    std::string text = text_of_file(f);
    try {
      for (age::Identity& id : age::parse_identities(text)) out.push_back(std::move(id));
    } catch (...) {
      secure_wipe(text.data(), text.size());
      throw;
    }
    secure_wipe(text.data(), text.size());
  }
  return out;
}

age::EngineOptions engine_options(const AgeArgs& a) {
  age::EngineOptions run;
  run.engine = a.engine;
  run.threads = a.threads;
  return run;
}

int seal(const AgeArgs& a) {
  age::EncryptOptions o;
  const WipeString wipe{o.passphrase};
  for (const std::string& r : a.recipients) o.recipients.push_back(age::Recipient::parse(r));
  for (const std::string& f : a.recipient_files)
    for (const age::Recipient& r : age::parse_recipients(text_of_file(f))) o.recipients.push_back(r);
  if (a.passphrase && !o.recipients.empty()) throw InvalidArgument("-p cannot be combined with -r or -R");
  if (!a.passphrase && o.recipients.empty())
    throw InvalidArgument("no recipient: give -r age1..., -R PATH or -p (see --help)");
  if (!a.output && !a.armor && ::isatty(STDOUT_FILENO) == 1)
    throw InvalidArgument("refusing to write binary output to a terminal: use -o PATH or -a");
  o.armor = a.armor;
  o.scrypt_log2_n = a.work_factor;
  o.run = engine_options(a);
  if (a.passphrase) o.passphrase = passphrase(a, true);
  const StopOnSignal stop;
  StreamInput in(a.input.value_or("-"));
  AtomicOutput out(a.output.value_or("-"));
  out.begin();
  age::encrypt([&](mutable_bytes b) { return in.read(b); }, [&](bytes_view b) { out.write(b); }, o);
  out.finish();
  return 0;
}

int open(const AgeArgs& a) {
  age::DecryptOptions o;
  const WipeString wipe{o.passphrase};
  o.identities = identities_of(a.identity_files);
  o.max_scrypt_log2_n = a.max_work_factor;
  o.run = engine_options(a);
  const StopOnSignal stop;
  StreamInput in(a.input.value_or("-"));
  // The start of the input tells whether the file wants a passphrase: read it first, then replay it.
  bytes start(4096);
  start.resize(in.read(start));
  std::size_t replayed = 0;
  if (o.identities.empty() || a.pass) {
    if (age::needs_passphrase(start)) o.passphrase = passphrase(a, false);
    else if (o.identities.empty()) throw InvalidArgument("no identity: give -i PATH (see --help)");
  }
  AtomicOutput out(a.output.value_or("-"));
  out.begin();
  age::decrypt(
      [&](mutable_bytes b) {
        std::size_t n = std::min(b.size(), start.size() - replayed);
        std::copy_n(start.begin() + static_cast<std::ptrdiff_t>(replayed), n, b.begin());
        replayed += n;
        if (n < b.size()) n += in.read(b.subspan(n));
        return n;
      },
      [&](bytes_view b) { out.write(b); }, o);
  out.finish();
  return 0;
}

int keygen(const AgeArgs& a) {
  if (a.convert) {
    StreamInput in(a.input.value_or("-"));
    bytes text = read_rest(in);
    std::string lines;
    for (const age::Identity& id : age::parse_identities(std::string(text.begin(), text.end())))
      lines += id.recipient().to_string() + "\n";
    secure_wipe(text.data(), text.size());
    AtomicOutput(a.output.value_or("-")).commit(bytes_view(reinterpret_cast<const std::uint8_t*>(lines.data()), lines.size()));
    return 0;
  }
  if (a.input) throw InvalidArgument("keygen takes no input file (did you mean -y?)");
  if (a.output && ::access(a.output->c_str(), F_OK) == 0)
    throw InvalidArgument("'" + *a.output + "' exists: not overwriting an identity file");
  const age::Identity id = age::Identity::generate();
  std::string file = age::identity_file(id);
  AtomicOutput out(a.output.value_or("-"), 0600);
  out.commit(bytes_view(reinterpret_cast<const std::uint8_t*>(file.data()), file.size()));
  secure_wipe(file.data(), file.size());
  if (a.output || ::isatty(STDOUT_FILENO) != 1)
    std::fprintf(stderr, "Public key: %s\n", id.recipient().to_string().c_str());
  return 0;
}

}  // namespace

int run_age(std::string_view command, const std::vector<std::string>& args) {
  return run_reporting_errors(command, 1, [&] {
    const AgeArgs a = parse(args, command);
    if (a.help) {
      std::fputs(command == "seal" ? kSealUsage : command == "open" ? kOpenUsage : kKeygenUsage, stdout);
      return 0;
    }
    if (command == "seal") return seal(a);
    if (command == "open") return open(a);
    return keygen(a);
  });
}

}  // namespace cryptaccel::cli

// Sub-commands of the `cryptaccel` tool. Each takes the arguments after its own name and returns the exit status.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel::cli {

/// `cryptaccel enc` (decrypt_by_default false) and `cryptaccel dec` (true): openssl-enc-compatible raw-key
/// encryption and decryption. Prints one "cryptaccel enc: ..." line to stderr and returns 1 on any error.
int run_enc(const std::vector<std::string>& args, bool decrypt_by_default);

/// `cryptaccel speed`: throughput of the engines (and of OpenSSL with --vs openssl), as an `openssl speed`-like table
/// and optionally JSON. Usage mistakes and failed checks print "cryptaccel speed: ..." lines to stderr; returns 1
/// when anything failed.
int run_speed(const std::vector<std::string>& args);

/// `cryptaccel hash`: sha256sum-compatible digests (and --check) for every hash algorithm. Output and messages are
/// those of GNU coreutils' sha256sum with "cryptaccel hash" as the program name; returns 1 when any file failed.
int run_hash(const std::vector<std::string>& args);

/// `cryptaccel pkeyutl`: RSA sign / verify / encrypt / decrypt with openssl-pkeyutl options, and --batch manifests
/// (pkeyutl_*.cpp). Errors are one line "cryptaccel pkeyutl: ..." and status 1; -verify returns 1 for a signature that
/// does not verify, as openssl does.
int run_pkeyutl(const std::vector<std::string>& args);

/// `cryptaccel rv`: the RISC-V crypto-ISA lab (list, run, exec, table; docs/isa-lab.md). Errors are one line
/// "cryptaccel rv: ..." on stderr and status 1; `rv exec` returns the program's status (125: stopped by the simulator).
int run_rv(const std::vector<std::string>& args);

/// `cryptaccel crack`: dictionary attack (words x hashcat rules) on SHA-crypt and raw hex digests with hashcat's
/// potfile, --show/--left, status line and exit codes (0 all cracked, 1 exhausted, 2 aborted, 255 error).
int run_crack(const std::vector<std::string>& args);

/// `cryptaccel seal`, `open` and `keygen` (`command`): the age file format with age's and age-keygen's flags
/// (cmd_age.cpp). Errors are one line "cryptaccel COMMAND: ..." and status 1.
int run_age(std::string_view command, const std::vector<std::string>& args);

}  // namespace cryptaccel::cli

// `cryptaccel pkeyutl --batch FILE`: many RSA operations from a JSON-lines manifest, run by the library's mixed-batch
// runner (rsa::run_mixed_batch, include/cryptaccel/rsa_batch.hpp: jobs with the same settings go into one
// sign_batch / verify_batch / decrypt_batch call; encryption and verifyrecover one by one). This command reads the
// manifest (an untrusted-input parser, fuzzed: fuzz/fuzz_pkeyutl_manifest.cpp), loads keys and inputs, and writes
// the results.
//
// Manifest: one JSON object per line (blank lines and lines starting with '#' are skipped). Fields, all optional
// except where said; the command-line options are the defaults of every line:
//   "op"       "sign" | "verify" | "verifyrecover" | "encrypt" | "decrypt" (default: the command line's operation)
//   "inkey"    key file (required unless -inkey was given); "pubin": true for a public key, "certin": true for a
//              certificate (false: a private key again); "keyform": "PEM" | "DER"; "passin": as -passin
//   "in"       input file, or "in_hex": the input inline (hex); for verifyrecover, the signature
//   "out"      output file (sign, verifyrecover, encrypt, decrypt): written atomically when the job succeeded;
//              without it the output is reported inline as "out_hex"
//   "sigfile"  the signature (verify), or "sig_hex" inline
//   "rawin"    true: the input is the message; "digest": as -digest / -pkeyopt digest:
//   "pkeyopt"  a list of "NAME:VALUE" strings, as -pkeyopt (added to the command line's)
// Results: one JSON object per manifest line on stdout, in order:
//   {"line": N, "op": "...", "ok": true|false, "verified": true|false (verify), "out": FILE | "out_hex": HEX,
//    "engine": NAME, "error": "..." (when not ok)}
// Exit status 0 when every line succeeded (and every signature verified), 1 otherwise. A malformed manifest (bad
// JSON, unknown field) is one error line before anything runs.
#pragma once
#include "pkeyutl_options.hpp"

namespace cryptaccel::cli::pkeyutl {

/// Runs the manifest `options.batch_path` with `options` as defaults; returns the exit status. Throws for a
/// malformed manifest (nothing has run then).
int run_batch(const Options& options);

/// Parses manifest line `number` over `defaults` as run_batch does, without running it. Throws InvalidArgument naming
/// what is wrong. For the fuzzer (fuzz/fuzz_pkeyutl_manifest.cpp).
void check_manifest_line(const std::string& text, std::size_t number, const Options& defaults);

}  // namespace cryptaccel::cli::pkeyutl

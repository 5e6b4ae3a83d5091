// `cryptaccel pkeyutl`: one operation (sign, verify, verifyrecover, encrypt, decrypt), as `openssl pkeyutl` does it;
// --batch is in pkeyutl_batch.cpp. Sign, verify and decrypt go through the batch API with one job, which names the
// engine that ran.
#include <algorithm>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "cryptaccel/atomic_output.hpp"
#include "command_errors.hpp"
#include "commands.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/rsa.hpp"
#include "pkeyutl_batch.hpp"
#include "pkeyutl_io.hpp"
#include "pkeyutl_options.hpp"

namespace cryptaccel::cli {
namespace {

using pkeyutl::Op;

bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

/// Wipes a buffer (a plaintext) when the command ends, however it ends.
struct WipeOnExit {
  bytes& data;
  ~WipeOnExit() {
    if (!data.empty()) secure_wipe(data.data(), data.size());
  }
};

[[noreturn]] void job_failed(JobStatus status, const std::string& error, const char* fallback) {
  const std::string message = error.empty() ? std::string(fallback) : error;
  if (status == JobStatus::invalid_argument) throw InvalidArgument(message);
  throw Error(message);
}

void report_engine(bool verbose, const std::string& engine) {
  if (verbose) std::fprintf(stderr, "engine: %s\n", engine.c_str());
}

/// "-pubin" or "-certin": the option that made -inkey a public key.
const char* public_option(pkeyutl::KeySource source) {
  return source == pkeyutl::KeySource::certificate ? "-certin" : "-pubin";
}

int run_one(const pkeyutl::Options& opt) {
  const bool needs_private = opt.op == Op::sign || opt.op == Op::decrypt;
  const bool public_only = opt.key_source != pkeyutl::KeySource::private_key;
  if (needs_private && public_only)
    throw InvalidArgument(std::string("-") + std::string(pkeyutl::op_name(opt.op)) + " needs a private key (not " +
                          public_option(opt.key_source) + ")");
  if (opt.op == Op::verify && opt.sig_path.empty()) throw InvalidArgument("-verify needs -sigfile");
  if (opt.op != Op::verify && !opt.sig_path.empty()) throw InvalidArgument("-sigfile is only for -verify");
  if (opt.op == Op::verify && is_stdio(opt.in_path) && is_stdio(opt.sig_path))
    throw InvalidArgument("the input and -sigfile cannot both be stdin");
  if (opt.passin && public_only)
    throw InvalidArgument(std::string("-passin is for private keys (not with ") + public_option(opt.key_source) + ")");

  const pkeyutl::LoadedKey key = pkeyutl::load_key(opt.key_path, opt.key_source, opt.keyform, opt.passin);
  const pkeyutl::KeyTraits traits = pkeyutl::key_traits(key);
  BatchOptions batch;
  batch.engine = opt.engine;
  batch.threads = opt.threads;

  switch (opt.op) {
    case Op::sign: {
      const rsa::SignOptions so = pkeyutl::sign_options(opt.crypto, traits, true, opt.engine);
      AtomicOutput output(opt.out_path);
      const bytes input = pkeyutl::read_input(opt.in_path);
      bytes signature(key.private_key->size());
      rsa::SignJob job;
      job.key = &*key.private_key;
      job.message = input;
      job.signature = signature;
      const BatchReport report = rsa::sign_batch(std::span<rsa::SignJob>(&job, 1), so, batch);
      if (job.status != JobStatus::ok) job_failed(job.status, job.error, "signing failed");
      report_engine(opt.verbose, report.engine);
      output.commit(signature);
      return 0;
    }
    case Op::verify: {
      const rsa::SignOptions so = pkeyutl::sign_options(opt.crypto, traits, false, opt.engine);
      AtomicOutput output(opt.out_path);  // the verdict line goes to -out, as in openssl
      const bytes signature = pkeyutl::read_input(opt.sig_path);
      const bytes input = pkeyutl::read_input(opt.in_path);
      rsa::VerifyJob job;
      job.key = &key.public_key;
      job.message = input;
      job.signature = signature;
      const BatchReport report = rsa::verify_batch(std::span<rsa::VerifyJob>(&job, 1), so, batch);
      if (job.status != JobStatus::ok) job_failed(job.status, job.error, "verification failed");
      report_engine(opt.verbose, report.engine);
      const std::string verdict =
          job.valid ? "Signature Verified Successfully\n" : "Signature Verification Failure\n";
      output.commit(bytes_view(reinterpret_cast<const std::uint8_t*>(verdict.data()), verdict.size()));
      return job.valid ? 0 : 1;
    }
    case Op::verifyrecover: {
      const pkeyutl::RecoverOptions ro = pkeyutl::recover_options(opt.crypto, traits);
      AtomicOutput output(opt.out_path);
      const bytes signature = pkeyutl::read_input(opt.in_path);
      const bytes recovered = rsa::verify_recover(key.public_key, signature, ro, batch);
      report_engine(opt.verbose, opt.engine);
      output.commit(recovered);
      return 0;
    }
    case Op::encrypt: {
      const rsa::EncryptOptions eo = pkeyutl::encrypt_options(opt.crypto, traits, opt.engine);
      AtomicOutput output(opt.out_path);
      bytes input = pkeyutl::read_input(opt.in_path);
      const WipeOnExit wipe_input{input};
      const bytes ciphertext = rsa::encrypt(key.public_key, input, eo);
      report_engine(opt.verbose, opt.engine);
      output.commit(ciphertext);
      return 0;
    }
    case Op::decrypt: {
      const rsa::EncryptOptions eo = pkeyutl::encrypt_options(opt.crypto, traits, opt.engine);
      AtomicOutput output(opt.out_path);
      const bytes input = pkeyutl::read_input(opt.in_path);
      bytes plaintext(key.private_key->size());
      const WipeOnExit wipe_plaintext{plaintext};
      rsa::DecryptJob job;
      job.key = &*key.private_key;
      job.ciphertext = input;
      job.plaintext = plaintext;
      const BatchReport report = rsa::decrypt_batch(std::span<rsa::DecryptJob>(&job, 1), eo, batch);
      if (job.status == JobStatus::bad_decrypt) throw InvalidCiphertext();
      if (job.status != JobStatus::ok) job_failed(job.status, job.error, "decryption failed");
      report_engine(opt.verbose, report.engine);
      output.commit(bytes_view(plaintext).first(job.plaintext_len));
      return 0;
    }
  }
  return 1;
}

}  // namespace

int run_pkeyutl(const std::vector<std::string>& args) {
  return run_reporting_errors("pkeyutl", 1, [&] {
    const pkeyutl::Options opt = pkeyutl::parse_args(args);
    if (opt.help) {
      std::printf("%s", pkeyutl::kUsage);
      return 0;
    }
    if (!opt.batch_path.empty()) return pkeyutl::run_batch(opt);
    return run_one(opt);
  });
}

}  // namespace cryptaccel::cli

// run_mixed_batch (include/cryptaccel/rsa_batch.hpp): jobs grouped by operation and settings, each group one batch
// call (or one call per job for the cheap public operations), results in each job's own fields.
#include "cryptaccel/rsa_batch.hpp"

#include <cstring>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "cryptaccel/error.hpp"

namespace cryptaccel::rsa {
namespace {

template <class Enum>
std::string number(Enum v) {
  return std::to_string(static_cast<int>(v));
}
std::string optional_hash(const std::optional<HashAlgorithm>& h) { return h ? number(*h) : "-"; }

/// The group of a job: its operation and every setting the library call is given, so that jobs whose keys differ
/// (in size too) share a call. The engine is not part of it: the batch's runs every group.
std::string group_of(const MixedJob& job) {
  std::string key = number(job.op) + "|";
  switch (job.op) {
    case Operation::sign:
    case Operation::verify: {
      const SignOptions& o = job.sign;
      return key + number(o.padding) + "|" + number(o.hash) + "|" + (o.prehashed ? "pre" : "raw") + "|" +
             number(o.salt) + ":" + (o.salt_length ? std::to_string(*o.salt_length) : "any") + "|" +
             optional_hash(o.mgf_hash);
    }
    case Operation::encrypt:
    case Operation::decrypt: {
      const EncryptOptions& o = job.encrypt;
      key += number(o.padding) + "|" + number(o.hash) + "|" + optional_hash(o.mgf_hash) + "|";
      for (const std::uint8_t b : o.label) key += std::to_string(b) + ",";
      return key;
    }
    case Operation::verify_recover:
      return key + (job.recover.raw ? "raw" : "pkcs1") + "|" + optional_hash(job.recover.digest);
  }
  return key;
}

/// Marks `job` failed as the batch call reported it: an invalid ciphertext always with the one message that does
/// not say where the padding broke; `fallback` when the call gave no reason.
void fail(MixedJob& job, JobStatus status, const std::string& error, const char* fallback) {
  job.status = status == JobStatus::bad_decrypt ? JobStatus::bad_decrypt : JobStatus::invalid_argument;
  job.error = status == JobStatus::bad_decrypt ? std::string(InvalidCiphertext().what())
                                               : (error.empty() ? std::string(fallback) : error);
}

void run_sign(std::span<MixedJob* const> group, const BatchOptions& batch) {
  std::vector<SignJob> jobs(group.size());
  for (std::size_t i = 0; i < group.size(); ++i)
    jobs[i] = SignJob{group[i]->private_key, group[i]->input, group[i]->output};
  const BatchReport report = sign_batch(jobs, group.front()->sign, batch);
  for (std::size_t i = 0; i < group.size(); ++i) {
    MixedJob& job = *group[i];
    job.engine = report.engine;
    if (jobs[i].status != JobStatus::ok) {
      fail(job, jobs[i].status, jobs[i].error, "signing failed");
      continue;
    }
    job.status = JobStatus::ok;
    job.output_len = jobs[i].signature.size();
  }
}

void run_verify(std::span<MixedJob* const> group, const BatchOptions& batch) {
  std::vector<VerifyJob> jobs(group.size());
  for (std::size_t i = 0; i < group.size(); ++i) {
    jobs[i].key = group[i]->public_key;
    jobs[i].message = group[i]->input;
    jobs[i].signature = group[i]->signature;
  }
  const BatchReport report = verify_batch(jobs, group.front()->sign, batch);
  for (std::size_t i = 0; i < group.size(); ++i) {
    MixedJob& job = *group[i];
    job.engine = report.engine;
    if (jobs[i].status != JobStatus::ok) {
      fail(job, jobs[i].status, jobs[i].error, "verification failed");
      continue;
    }
    job.status = JobStatus::ok;
    job.verified = jobs[i].valid;
  }
}

void run_decrypt(std::span<MixedJob* const> group, const BatchOptions& batch) {
  std::vector<DecryptJob> jobs(group.size());
  for (std::size_t i = 0; i < group.size(); ++i) {
    jobs[i].key = group[i]->private_key;
    jobs[i].ciphertext = group[i]->input;
    jobs[i].plaintext = group[i]->output;
  }
  const BatchReport report = decrypt_batch(jobs, group.front()->encrypt, batch);
  for (std::size_t i = 0; i < group.size(); ++i) {
    MixedJob& job = *group[i];
    job.engine = report.engine;
    if (jobs[i].status != JobStatus::ok) {
      fail(job, jobs[i].status, jobs[i].error, "decryption failed");
      continue;
    }
    job.status = JobStatus::ok;
    job.output_len = jobs[i].plaintext_len;
  }
}

/// Runs `operation` (which returns the output bytes) for one job; its exception becomes the job's error.
template <class Fn>
void run_one(MixedJob& job, const BatchOptions& batch, Fn&& operation) {
  try {
    if (!job.public_key) throw InvalidArgument("rsa: job without a key");
    const bytes out = operation();
    if (out.size() > job.output.size())
      throw InvalidArgument("rsa: the output buffer must hold " + std::to_string(out.size()) + " bytes");
    if (!out.empty()) std::memcpy(job.output.data(), out.data(), out.size());
    job.output_len = out.size();
    job.status = JobStatus::ok;
    job.engine = std::string(batch.engine);
  } catch (const std::exception& e) {
    job.status = JobStatus::invalid_argument;
    job.error = e.what();
  }
}

/// Runs one group (same operation and settings).
void run_group(std::span<MixedJob* const> group, const BatchOptions& batch) {
  switch (group.front()->op) {
    case Operation::sign: return run_sign(group, batch);
    case Operation::verify: return run_verify(group, batch);
    case Operation::decrypt: return run_decrypt(group, batch);
    case Operation::encrypt: {  // no batch form: encryption with e = 65537 is cheap
      EncryptOptions options = group.front()->encrypt;
      options.engine = batch.engine;
      for (MixedJob* job : group) run_one(*job, batch, [&] { return encrypt(*job->public_key, job->input, options); });
      return;
    }
    case Operation::verify_recover: {  // one by one, as encryption: the public operation is cheap
      const RecoverOptions options = group.front()->recover;
      for (MixedJob* job : group)
        run_one(*job, batch, [&] { return verify_recover(*job->public_key, job->input, options, batch); });
      return;
    }
  }
}

}  // namespace

MixedBatchReport run_mixed_batch(std::span<MixedJob> jobs, const BatchOptions& batch) {
  std::vector<std::string> order;  // groups in the order of their first job
  std::map<std::string, std::vector<MixedJob*>> groups;
  for (MixedJob& job : jobs) {
    job.output_len = 0, job.verified = false, job.status = JobStatus::pending, job.error.clear(), job.engine.clear();
    std::string key = group_of(job);
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(std::move(key));
    it->second.push_back(&job);
  }
  for (const std::string& key : order) {
    const std::vector<MixedJob*>& members = groups[key];
    try {
      run_group(members, batch);
    } catch (const std::exception& e) {  // the whole call failed (engine unavailable, ...): every member fails
      for (MixedJob* job : members) {
        job->status = JobStatus::invalid_argument;
        job->error = e.what();
        job->engine.clear();
      }
    }
  }
  MixedBatchReport report{order.size()};
  for (const MixedJob& job : jobs) (job.status == JobStatus::ok ? report.succeeded : report.failed)++;
  return report;
}

}  // namespace cryptaccel::rsa

// rsa::run_mixed_batch (include/cryptaccel/rsa_batch.hpp), the runner of `cryptaccel pkeyutl --batch`: jobs with
// mixed operations, keys, key sizes and paddings, results in input order, settings grouped into one call each, and
// one bad job's error reported for that job only.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "cryptaccel/rsa.hpp"
#include "cryptaccel/rsa_batch.hpp"

namespace cryptaccel {
namespace {

using rsa::MixedJob;
using rsa::Operation;

/// Two keys of different sizes for the whole file.
const rsa::PrivateKey& key1024() {
  static const rsa::PrivateKey key = rsa::PrivateKey::generate(1024);
  return key;
}
const rsa::PrivateKey& key2048() {
  static const rsa::PrivateKey key = rsa::PrivateKey::generate(2048);
  return key;
}

/// A job's inputs and output buffer, kept alive beside it.
struct Slot {
  bytes input, signature, output;
  std::optional<rsa::PublicKey> public_key;
};

rsa::SignOptions pss_max() {
  rsa::SignOptions o;
  o.padding = rsa::SignaturePadding::pss;
  rsa::set_pss_salt(o, "max");
  return o;
}

rsa::SignOptions pss_verify_any() {
  rsa::SignOptions o;
  o.padding = rsa::SignaturePadding::pss;
  rsa::set_pss_salt(o, "auto");
  return o;
}

rsa::EncryptOptions pkcs1_encryption() {
  rsa::EncryptOptions o;
  o.padding = rsa::EncryptionPadding::pkcs1v15;
  return o;
}

MixedJob job(Operation op, const rsa::PrivateKey& key, Slot& slot, bytes input) {
  slot.public_key = key.public_key();
  slot.input = std::move(input);
  slot.output.assign(key.size(), 0);
  MixedJob j;
  j.op = op;
  j.private_key = &key;
  j.public_key = &*slot.public_key;
  j.input = slot.input;
  j.output = slot.output;
  return j;
}

bytes output_of(const MixedJob& j) { return bytes(j.output.begin(), j.output.begin() + j.output_len); }

TEST(RsaMixedBatch, MixedKeysAndPaddingsKeepTheirOrder) {
  const rsa::PrivateKey& a = key1024();
  const rsa::PrivateKey& b = key2048();
  const bytes msg1 = {1, 2, 3}, msg2 = {4, 5, 6, 7};
  // Ciphertexts and signatures made one at a time, to be decrypted, verified and recovered in the batch.
  const bytes ct_oaep_b = rsa::encrypt(b.public_key(), msg1);
  const bytes ct_pkcs1_a = rsa::encrypt(a.public_key(), msg2, pkcs1_encryption());
  const bytes sig_pss_a = rsa::sign(a, msg1, pss_max());
  const bytes sig_pkcs1_b = rsa::sign(b, msg2);

  std::vector<Slot> slots(11);
  std::vector<MixedJob> jobs;
  jobs.push_back(job(Operation::sign, a, slots[0], msg1));                      // PKCS#1 v1.5, 1024
  jobs.push_back(job(Operation::sign, b, slots[1], msg2));                      // PKCS#1 v1.5, 2048: same group
  jobs.push_back(job(Operation::sign, b, slots[2], msg1));                      // PSS max
  jobs.back().sign = pss_max();
  jobs.push_back(job(Operation::decrypt, b, slots[3], ct_oaep_b));              // OAEP
  jobs.push_back(job(Operation::decrypt, a, slots[4], ct_pkcs1_a));             // PKCS#1 v1.5
  jobs.back().encrypt = pkcs1_encryption();
  jobs.push_back(job(Operation::verify, a, slots[5], msg1));                    // PSS, any salt
  jobs.back().sign = pss_verify_any();
  slots[5].signature = sig_pss_a;
  jobs.back().signature = slots[5].signature;
  jobs.push_back(job(Operation::verify, b, slots[6], msg1));                    // PKCS#1 v1.5: wrong message
  slots[6].signature = sig_pkcs1_b;
  jobs.back().signature = slots[6].signature;
  jobs.push_back(job(Operation::encrypt, a, slots[7], msg2));                   // OAEP
  jobs.push_back(job(Operation::verify_recover, b, slots[8], sig_pkcs1_b));     // the DigestInfo
  jobs.push_back(job(Operation::sign, a, slots[9], msg2));                      // PKCS#1 v1.5 again: group 1
  jobs.push_back(job(Operation::verify, b, slots[10], msg2));                   // PKCS#1 v1.5: valid
  slots[10].signature = sig_pkcs1_b;
  jobs.back().signature = slots[10].signature;

  BatchOptions batch;
  batch.engine = "ref";
  const rsa::MixedBatchReport report = rsa::run_mixed_batch(jobs, batch);
  for (const MixedJob& j : jobs) ASSERT_EQ(j.status, JobStatus::ok) << j.error;
  EXPECT_EQ(report.succeeded, jobs.size());
  EXPECT_EQ(report.failed, 0u);
  // sign pkcs1, sign pss, decrypt oaep, decrypt pkcs1, verify pss, verify pkcs1, encrypt, verify_recover.
  EXPECT_EQ(report.groups, 8u);

  EXPECT_EQ(output_of(jobs[0]), rsa::sign(a, msg1));  // PKCS#1 v1.5 is deterministic
  EXPECT_EQ(output_of(jobs[1]), sig_pkcs1_b);
  EXPECT_EQ(output_of(jobs[9]), rsa::sign(a, msg2));
  EXPECT_TRUE(rsa::verify(b.public_key(), msg1, output_of(jobs[2]), pss_verify_any()));
  EXPECT_EQ(output_of(jobs[3]), msg1);
  EXPECT_EQ(output_of(jobs[4]), msg2);
  EXPECT_TRUE(jobs[5].verified);
  EXPECT_FALSE(jobs[6].verified);
  EXPECT_TRUE(jobs[10].verified);
  EXPECT_EQ(rsa::decrypt(a, output_of(jobs[7])), msg2);
  EXPECT_EQ(output_of(jobs[8]), rsa::verify_recover(b.public_key(), sig_pkcs1_b));
  for (const MixedJob& j : jobs) EXPECT_EQ(j.engine, "ref");
}

TEST(RsaMixedBatch, OneBadJobFailsAloneWithItsOwnError) {
  const rsa::PrivateKey& a = key1024();
  const bytes msg = {9, 9, 9};
  std::vector<Slot> slots(5);
  std::vector<MixedJob> jobs;
  jobs.push_back(job(Operation::sign, a, slots[0], msg));
  jobs.push_back(job(Operation::decrypt, a, slots[1], bytes(a.size(), 0x01)));  // not a valid OAEP ciphertext
  jobs.push_back(job(Operation::sign, a, slots[2], msg));
  slots[2].output.assign(3, 0);  // a signature buffer of the wrong size
  jobs.back().output = slots[2].output;
  jobs.push_back(job(Operation::sign, a, slots[3], msg));
  jobs.back().private_key = nullptr;
  jobs.push_back(job(Operation::encrypt, a, slots[4], bytes(a.size(), 0x42)));  // too long for the key and OAEP

  const rsa::MixedBatchReport report = rsa::run_mixed_batch(jobs);
  EXPECT_EQ(report.succeeded, 1u);
  EXPECT_EQ(report.failed, 4u);
  EXPECT_EQ(report.groups, 3u);
  EXPECT_EQ(jobs[0].status, JobStatus::ok);
  EXPECT_EQ(output_of(jobs[0]), rsa::sign(a, msg));
  EXPECT_EQ(jobs[1].status, JobStatus::bad_decrypt);
  EXPECT_EQ(jobs[1].error, InvalidCiphertext().what());
  EXPECT_FALSE(jobs[1].engine.empty());  // the call ran; the job failed
  EXPECT_EQ(jobs[2].status, JobStatus::invalid_argument);
  EXPECT_NE(jobs[2].error.find("signature buffer"), std::string::npos) << jobs[2].error;
  EXPECT_EQ(jobs[3].status, JobStatus::invalid_argument);
  EXPECT_EQ(jobs[3].error, "rsa: job without a key");
  EXPECT_EQ(jobs[4].status, JobStatus::invalid_argument);
  EXPECT_FALSE(jobs[4].error.empty());
  EXPECT_EQ(jobs[4].output_len, 0u);
}

TEST(RsaMixedBatch, AWholeCallFailureFailsItsGroupOnly) {
  const rsa::PrivateKey& a = key1024();
  const bytes msg = {1};
  std::vector<Slot> slots(2);
  std::vector<MixedJob> jobs;
  jobs.push_back(job(Operation::sign, a, slots[0], msg));
  jobs.push_back(job(Operation::sign, a, slots[1], msg));
  BatchOptions batch;
  batch.engine = "no-such-engine";
  const rsa::MixedBatchReport report = rsa::run_mixed_batch(jobs, batch);
  EXPECT_EQ(report.failed, 2u);
  for (const MixedJob& j : jobs) {
    EXPECT_EQ(j.status, JobStatus::invalid_argument);
    EXPECT_NE(j.error.find("unknown engine"), std::string::npos) << j.error;
    EXPECT_TRUE(j.engine.empty());
  }
}

TEST(RsaMixedBatch, EmptyBatch) {
  const rsa::MixedBatchReport report = rsa::run_mixed_batch({});
  EXPECT_EQ(report.groups, 0u);
  EXPECT_EQ(report.succeeded + report.failed, 0u);
}

}  // namespace
}  // namespace cryptaccel

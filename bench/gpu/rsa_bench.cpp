// RSA throughput on the GPU (bench/gpu/run.sh, bench phase), each figure beside OpenSSL on ALL of this machine's host
// cores measured in the same process:
//   RSA-2048 CRT sign/s (PKCS#1 v1.5, SHA-256: hashing, padding, blinding, the GPU's CRT halves and the host's check
//   of every signature included), verify/s (e = 65537), RSA-4096 sign/s; seed 002's RSA-1024 per block (encrypt
//   b^e mod n and non-CRT decrypt c^d mod n through modexp_batch, CRT decrypt through decrypt_batch); and the raw
//   private operation alone (no padding, blinding or check: the GPU with the host's CRT reduction and recombination),
//   which shows how much of a sign the host part costs.
// Each GPU kernel variant (thread, fp64, group: src/cuda/rsa/rsa_kernel_variant.hpp; --kernels to choose) is measured
// in turn, and the fastest per operation is printed. Every cuda result is compared with the cpu engine's before
// anything is timed. The cpu engine (all cores) is measured too. Prints one line per row; --json writes them.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cryptaccel/bench/timer.hpp"
#include "cryptaccel/bench/workload.hpp"
#include "cryptaccel/rsa.hpp"
#include "cuda/rsa/rsa_kernel_variant.hpp"
#include "engine/engine.hpp"

using namespace cryptaccel;

namespace {

struct Row {
  std::string op, engine, note;
  std::size_t bits = 0, jobs = 0;
  double seconds = 0;
  double per_s() const { return jobs / seconds; }
};
std::vector<Row> rows;

using bench::best_of;
using bench::random_bytes;

/// Variants whose checks failed (their rows are missing; the exit status says so).
int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("MISMATCH: " + what);
}

// --- cryptaccel batches ---

std::vector<bytes> sign_all(const rsa::PrivateKey& key, const std::vector<bytes>& msgs, const char* engine) {
  std::vector<bytes> sigs(msgs.size(), bytes(key.size()));
  std::vector<rsa::SignJob> jobs(msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) jobs[i] = rsa::SignJob{&key, msgs[i], sigs[i]};
  const BatchReport r = rsa::sign_batch(jobs, {}, BatchOptions{engine});
  if (r.failed) throw std::runtime_error(std::string(engine) + " sign: " + jobs.front().error);
  return sigs;
}

std::size_t verify_all(const rsa::PublicKey& pub, const std::vector<bytes>& msgs, const std::vector<bytes>& sigs,
                       const char* engine) {
  std::vector<rsa::VerifyJob> jobs(msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) jobs[i] = rsa::VerifyJob{&pub, msgs[i], sigs[i]};
  (void)rsa::verify_batch(jobs, {}, BatchOptions{engine});
  return static_cast<std::size_t>(std::count_if(jobs.begin(), jobs.end(), [](const auto& j) { return j.valid; }));
}

/// The engine's raw private operation on `in` (no padding, blinding or check).
void raw_private(const rsa::PrivateKey& key, const std::vector<bytes>& in, std::vector<bytes>& out, const char* engine) {
  out.assign(in.size(), bytes(key.size()));
  std::vector<engine::RsaPrivateJob> jobs(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) jobs[i] = {&key, in[i].data(), out[i].data()};
  const engine::Engine& e = engine::select_rsa_engine(engine, key.bits());
  if (e.runs_on_host_threads()) {
    std::vector<std::thread> ts;
    const std::size_t n = std::max(1u, std::thread::hardware_concurrency());
    for (std::size_t t = 0; t < n; ++t)
      ts.emplace_back([&, t] {
        for (std::size_t i = t; i < jobs.size(); i += n) e.run_rsa_private({&jobs[i], 1});
      });
    for (auto& t : ts) t.join();
  } else {
    e.run_rsa_private(jobs);
  }
}

// --- OpenSSL on every host core ---

struct PkeyDel {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};

EVP_PKEY* openssl_key(const rsa::PrivateKey& key) {
  const std::string pem = key.to_pem();
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* p = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (!p) throw std::runtime_error("OpenSSL cannot read the key");
  return p;
}

/// Operations per second of `op` (one EVP operation per call, its own context per thread) on every host core for
/// about `seconds`; returns the row.
Row openssl_all_cores(const std::string& name, std::size_t bits, double seconds,
                      const std::function<std::function<void()>()>& make_op) {
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<std::size_t> total{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> ts;
  const double elapsed = bench::seconds_of([&] {
    for (unsigned t = 0; t < n; ++t)
      ts.emplace_back([&] {
        std::function<void()> op = make_op();
        std::size_t count = 0;
        while (!stop.load(std::memory_order_relaxed)) op(), ++count;
        total += count;
      });
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& t : ts) t.join();
  });
  return Row{name, "openssl", std::to_string(n) + " threads", bits, total.load(), elapsed};
}

std::function<void()> ossl_sign_op(EVP_PKEY* pkey, const bytes& msg) {
  return [pkey, msg] {
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    std::uint8_t sig[1024];
    size_t len = sizeof sig;
    if (EVP_DigestSignInit(md, nullptr, EVP_sha256(), nullptr, pkey) != 1 ||
        EVP_DigestSign(md, sig, &len, msg.data(), msg.size()) != 1)
      throw std::runtime_error("EVP_DigestSign failed");
    EVP_MD_CTX_free(md);
  };
}

std::function<void()> ossl_verify_op(EVP_PKEY* pkey, const bytes& msg, const bytes& sig) {
  return [pkey, msg, sig] {
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    if (EVP_DigestVerifyInit(md, nullptr, EVP_sha256(), nullptr, pkey) != 1 ||
        EVP_DigestVerify(md, sig.data(), sig.size(), msg.data(), msg.size()) != 1)
      throw std::runtime_error("EVP_DigestVerify failed");
    EVP_MD_CTX_free(md);
  };
}

/// Raw RSA (no padding): encrypt with the public key or CRT-decrypt with the private one, one 1024-bit block.
std::function<void()> ossl_raw_op(EVP_PKEY* pkey, const bytes& block, bool decrypt) {
  return [pkey, block, decrypt] {
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(pkey, nullptr);
    std::uint8_t out[1024];
    size_t len = sizeof out;
    const int ok = (decrypt ? EVP_PKEY_decrypt_init(ctx) : EVP_PKEY_encrypt_init(ctx)) == 1 &&
                   EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) == 1 &&
                   (decrypt ? EVP_PKEY_decrypt(ctx, out, &len, block.data(), block.size())
                            : EVP_PKEY_encrypt(ctx, out, &len, block.data(), block.size())) == 1;
    EVP_PKEY_CTX_free(ctx);
    if (!ok) throw std::runtime_error("EVP_PKEY raw RSA failed");
  };
}

/// Records a row and prints it at once ("row ..."), so that a run stopped by a time limit still leaves its figures.
void add(Row r) {
  std::printf("row %-12s %5zu %-8s %9zu %9.4f %13.0f  %s\n", r.op.c_str(), r.bits, r.engine.c_str(), r.jobs, r.seconds,
              r.per_s(), r.note.c_str());
  std::fflush(stdout);
  rows.push_back(std::move(r));
}

/// The GPU kernel variants to measure (--kernels), each in turn through CRYPTACCEL_CUDA_RSA_KERNEL.
std::vector<cuda::RsaKernel> kernels = {cuda::RsaKernel::thread, cuda::RsaKernel::fp64, cuda::RsaKernel::group};

/// "cuda/<variant>" for the rows of a variant; the note says when a size falls back to the thread kernel.
std::string cuda_engine_label(cuda::RsaKernel k) { return "cuda/" + std::string(cuda::rsa_kernel_name(k)); }
std::string variant_note(cuda::RsaKernel k, std::size_t words, const std::string& note) {
  return cuda::rsa_kernel_supports(k, words) ? note : note + " [" + std::to_string(32 * words) + "-bit: thread kernel]";
}

/// Selects the cuda engine's RSA kernel variant for the following batches.
void use_kernel(cuda::RsaKernel k) { ::setenv("CRYPTACCEL_CUDA_RSA_KERNEL", std::string(cuda::rsa_kernel_name(k)).c_str(), 1); }

/// Sign and verify rows for one key size: per kernel variant, cuda (checked against cpu first: sign, raw private
/// operation, verify); then cpu and OpenSSL on all host cores.
void sign_verify(std::mt19937_64& rng, std::size_t bits, std::size_t sign_jobs, std::size_t verify_jobs,
                 std::size_t cpu_jobs, double ossl_seconds) {
  const rsa::PrivateKey key = rsa::PrivateKey::generate(bits);
  const rsa::PublicKey pub = key.public_key();
  std::vector<bytes> msgs(std::max(sign_jobs, verify_jobs));
  for (auto& m : msgs) m = random_bytes(rng, 32);
  const std::vector<bytes> few(msgs.begin(), msgs.begin() + 512);
  const std::vector<bytes> cpu_sigs = sign_all(key, few, "cpu");
  const std::vector<bytes> sm(msgs.begin(), msgs.begin() + sign_jobs);
  std::vector<bytes> sigs;
  std::vector<bytes> vm(verify_jobs), vs(verify_jobs);
  for (cuda::RsaKernel k : kernels) try {
    use_kernel(k);
    const std::string label = cuda_engine_label(k), name = "RSA-" + std::to_string(bits) + " " + label;
    // Correctness first: PKCS#1 v1.5 signatures are deterministic, so cuda's must equal cpu's byte for byte.
    check(sign_all(key, few, "cuda") == cpu_sigs, name + " signatures differ from cpu");
    check(verify_all(pub, few, cpu_sigs, "cuda") == few.size(), name + " rejects valid signatures");
    std::vector<bytes> bad = cpu_sigs;
    bad[7][5] ^= 1;
    check(verify_all(pub, few, bad, "cuda") == few.size() - 1, name + " accepts a corrupted signature");
    const std::size_t half = bits / 64, full = bits / 32;  // 32-bit words of a CRT half and of the modulus
    add({"sign", label, variant_note(k, half, "PKCS#1 v1.5 SHA-256, one key, whole API path"), bits, sm.size(),
         best_of(3, [&] { sigs = sign_all(key, sm, "cuda"); })});
    std::vector<bytes> raw_out;
    add({"private_raw", label, variant_note(k, half, "CRT halves on the GPU + host CRT, no padding/blinding/check"),
         bits, sm.size(), best_of(3, [&] { raw_private(key, sigs, raw_out, "cuda"); })});
    // Verify: the signatures of the first sign_jobs messages, repeated up to verify_jobs.
    for (std::size_t i = 0; i < verify_jobs; ++i) vm[i] = sm[i % sm.size()], vs[i] = sigs[i % sm.size()];
    std::size_t valid = 0;
    add({"verify", label, variant_note(k, full, "e = 65537, PKCS#1 v1.5 SHA-256, whole API path"), bits, vm.size(),
         best_of(3, [&] { valid = verify_all(pub, vm, vs, "cuda"); })});
    check(valid == vm.size(), name + " verify rejected valid signatures in the timed batch");
  } catch (const std::exception& e) {  // a failing variant loses its rows, not the others'
    std::printf("%s\n", e.what());
    failures++;
  }
  use_kernel(cuda::RsaKernel::thread);
  const std::vector<bytes> cm(sm.begin(), sm.begin() + std::min(cpu_jobs, sm.size()));
  if (sigs.empty()) {  // every variant failed: the cpu and OpenSSL verify rows need valid signatures
    sigs = sign_all(key, cm, "cpu");
    for (std::size_t i = 0; i < verify_jobs; ++i) vm[i] = sm[i % sigs.size()], vs[i] = sigs[i % sigs.size()];
  }
  add({"sign", "cpu", "all cores", bits, cm.size(), best_of(2, [&] { (void)sign_all(key, cm, "cpu"); })});
  std::vector<bytes> cv(vm.begin(), vm.begin() + std::min(4 * cpu_jobs, vm.size())), cs(vs.begin(), vs.begin() + cv.size());
  add({"verify", "cpu", "all cores", bits, cv.size(), best_of(2, [&] { (void)verify_all(pub, cv, cs, "cpu"); })});
  std::unique_ptr<EVP_PKEY, PkeyDel> pkey(openssl_key(key));
  add(openssl_all_cores("sign", bits, ossl_seconds, [&] { return ossl_sign_op(pkey.get(), sm[0]); }));
  add(openssl_all_cores("verify", bits, ossl_seconds, [&] { return ossl_verify_op(pkey.get(), sm[0], sigs[0]); }));
}

/// Seed 002's RSA-1024 per block: encrypt b^e mod n, decrypt c^d mod n without CRT (modexp_batch), CRT decrypt.
void seed002(std::mt19937_64& rng, std::size_t blocks, std::size_t cpu_blocks, double ossl_seconds) {
  const rsa::PrivateKey key = rsa::PrivateKey::generate(1024);
  const rsa::PublicKey pub = key.public_key();
  const bytes n = pub.n();
  // d and e from the key's PEM through OpenSSL (the API does not expose d).
  std::unique_ptr<EVP_PKEY, PkeyDel> pkey(openssl_key(key));
  BIGNUM* bd = nullptr;
  BIGNUM* be = nullptr;
  EVP_PKEY_get_bn_param(pkey.get(), "d", &bd);
  EVP_PKEY_get_bn_param(pkey.get(), "e", &be);
  bytes d(128), e(static_cast<std::size_t>(BN_num_bytes(be)));
  BN_bn2binpad(bd, d.data(), 128);
  BN_bn2bin(be, e.data());
  BN_clear_free(bd), BN_free(be);
  std::vector<bytes> pts(blocks);
  for (auto& p : pts) {
    p = random_bytes(rng, 128);
    p[0] = 0;  // below n
  }
  std::vector<bytes_view> pv(pts.begin(), pts.end());
  std::vector<bytes> cts;
  const auto sample = [](const std::vector<bytes_view>& v) { return std::vector<bytes_view>(v.begin(), v.begin() + 256); };
  const std::vector<bytes> cpu_cts = rsa::modexp_batch(sample(pv), e, n, BatchOptions{"cpu"});
  // CRT decrypt through the API (PKCS#1 v1.5 ciphertexts: blinding and the result check included).
  rsa::EncryptOptions pkcs1;
  pkcs1.padding = rsa::EncryptionPadding::pkcs1v15;
  pkcs1.engine = "cpu";
  std::vector<bytes> padded(blocks), plain(blocks, bytes(128));
  for (std::size_t i = 0; i < blocks; ++i)  // 4096 distinct ciphertexts, repeated
    padded[i] = i < 4096 ? rsa::encrypt(pub, random_bytes(rng, 100), pkcs1) : padded[i % 4096];
  std::vector<rsa::DecryptJob> jobs(blocks);
  for (std::size_t i = 0; i < blocks; ++i) jobs[i] = rsa::DecryptJob{&key, padded[i], plain[i]};
  std::vector<bytes_view> cv;
  for (cuda::RsaKernel k : kernels) try {
    use_kernel(k);
    const std::string label = cuda_engine_label(k);
    check(rsa::modexp_batch(sample(pv), e, n, BatchOptions{"cuda"}) == cpu_cts,
          "RSA-1024 " + label + " encryption differs from cpu");
    add({"encrypt", label, variant_note(k, 32, "seed 002: b^e mod n (modexp_batch)"), 1024, blocks,
         best_of(3, [&] { cts = rsa::modexp_batch(pv, e, n, BatchOptions{"cuda"}); })});
    cv.assign(cts.begin(), cts.end());
    std::vector<bytes> back;
    add({"decrypt", label, variant_note(k, 32, "seed 002: c^d mod n, non-CRT (modexp_batch)"), 1024, blocks,
         best_of(3, [&] { back = rsa::modexp_batch(cv, d, n, BatchOptions{"cuda"}); })});
    check(back == pts, "RSA-1024 " + label + " decryption does not invert the encryption");
    add({"decrypt_crt", label, variant_note(k, 16, "PKCS#1 v1.5 decrypt_batch: CRT, blinding, check"), 1024, blocks,
         best_of(3, [&] {
           for (auto& j : jobs) j.status = JobStatus::pending;
           const BatchReport r = rsa::decrypt_batch(jobs, pkcs1, BatchOptions{"cuda"});
           if (r.failed) throw std::runtime_error(label + " decrypt_batch failed: " + jobs.front().error);
         })});
  } catch (const std::exception& e) {
    std::printf("%s\n", e.what());
    failures++;
  }
  use_kernel(cuda::RsaKernel::thread);
  if (cts.empty()) cts = rsa::modexp_batch(pv, e, n, BatchOptions{"cpu"});  // every variant failed
  cv.assign(cts.begin(), cts.end());
  const std::vector<bytes_view> cpv(pv.begin(), pv.begin() + std::min(cpu_blocks, pv.size()));
  const std::vector<bytes_view> ccv(cv.begin(), cv.begin() + cpv.size());
  add({"encrypt", "cpu", "all cores, modexp_batch", 1024, cpv.size(),
       best_of(2, [&] { (void)rsa::modexp_batch(cpv, e, n, BatchOptions{"cpu"}); })});
  add({"decrypt", "cpu", "all cores, modexp_batch, non-CRT", 1024, ccv.size(),
       best_of(2, [&] { (void)rsa::modexp_batch(ccv, d, n, BatchOptions{"cpu"}); })});
  add(openssl_all_cores("encrypt", 1024, ossl_seconds, [&] { return ossl_raw_op(pkey.get(), pts[0], false); }));
  add(openssl_all_cores("decrypt_crt", 1024, ossl_seconds, [&] { return ossl_raw_op(pkey.get(), cts[0], true); }));
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t sign2048 = std::size_t{1} << 18, verify2048 = std::size_t{1} << 21, sign4096 = std::size_t{1} << 16;
  std::size_t blocks1024 = std::size_t{1} << 18, cpu_jobs = 2048;
  double ossl_seconds = 2;
  const char* json = nullptr;
  for (int i = 1; i < argc; ++i) {
    const auto next = [&] { return std::stoul(argv[++i]); };
    if (!std::strcmp(argv[i], "--sign2048") && i + 1 < argc) sign2048 = next();
    else if (!std::strcmp(argv[i], "--verify2048") && i + 1 < argc) verify2048 = next();
    else if (!std::strcmp(argv[i], "--sign4096") && i + 1 < argc) sign4096 = next();
    else if (!std::strcmp(argv[i], "--blocks1024") && i + 1 < argc) blocks1024 = next();
    else if (!std::strcmp(argv[i], "--cpu-jobs") && i + 1 < argc) cpu_jobs = next();
    else if (!std::strcmp(argv[i], "--openssl-seconds") && i + 1 < argc) ossl_seconds = std::stod(argv[++i]);
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
    else if (!std::strcmp(argv[i], "--kernels") && i + 1 < argc) {
      kernels.clear();
      for (std::string list = argv[++i], name; !list.empty();) {
        const std::size_t comma = list.find(',');
        name = list.substr(0, comma);
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
        kernels.push_back(cuda::parse_rsa_kernel(name));
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--sign2048 N] [--verify2048 N] [--sign4096 N] [--blocks1024 N] [--cpu-jobs N] "
                   "[--openssl-seconds S] [--kernels thread,fp64,group] [--json FILE]\n",
                   argv[0]);
      return 2;
    }
  }
  sign2048 = std::max<std::size_t>(sign2048, 512), sign4096 = std::max<std::size_t>(sign4096, 512);
  blocks1024 = std::max<std::size_t>(blocks1024, 256);
  std::mt19937_64 rng(2002);
  int status = 0;
  try {
    sign_verify(rng, 2048, sign2048, verify2048, cpu_jobs, ossl_seconds);
    sign_verify(rng, 4096, sign4096, sign4096, cpu_jobs / 4, ossl_seconds);
    seed002(rng, blocks1024, 4 * cpu_jobs, ossl_seconds);
  } catch (const std::exception& e) {
    std::printf("%s\n", e.what());
    status = 1;
  }
  if (failures) status = 1;
  std::printf("%-12s %5s %-8s %9s %9s %13s %11s  %s\n", "op", "bits", "engine", "jobs", "seconds", "ops/s", "us/op", "note");
  for (const Row& r : rows)
    std::printf("%-12s %5zu %-8s %9zu %9.4f %13.0f %11.3f  %s\n", r.op.c_str(), r.bits, r.engine.c_str(), r.jobs,
                r.seconds, r.per_s(), 1e6 / r.per_s(), r.note.c_str());
  // Every cuda variant against OpenSSL on all host cores, per (op, bits); then the fastest variant per (op, bits).
  for (const Row& c : rows) {
    if (c.engine.rfind("cuda", 0) != 0) continue;
    for (const Row& o : rows)
      if (o.engine == "openssl" && o.op == c.op && o.bits == c.bits)
        std::printf("ratio %-12s RSA-%zu %-12s / openssl (%s): %.2fx\n", c.op.c_str(), c.bits, c.engine.c_str(),
                    o.note.c_str(), c.per_s() / o.per_s());
  }
  for (const Row& c : rows) {
    if (c.engine.rfind("cuda", 0) != 0) continue;
    const Row* best = &c;
    bool first = true;
    for (const Row& o : rows) {
      if (o.engine.rfind("cuda", 0) != 0 || o.op != c.op || o.bits != c.bits) continue;
      if (&o < &c) first = false;  // report each (op, bits) once, at its first row
      if (o.per_s() > best->per_s()) best = &o;
    }
    if (first) std::printf("fastest %-12s RSA-%zu: %s (%.0f/s)\n", c.op.c_str(), c.bits, best->engine.c_str(), best->per_s());
  }
  if (json) {
    FILE* f = std::fopen(json, "w");
    if (!f) return 1;
    std::fprintf(f, "[\n");
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::fprintf(f,
                   "  {\"op\": \"%s\", \"bits\": %zu, \"engine\": \"%s\", \"jobs\": %zu, \"seconds\": %.6f, "
                   "\"ops_per_s\": %.1f, \"note\": \"%s\"}%s\n",
                   rows[i].op.c_str(), rows[i].bits, rows[i].engine.c_str(), rows[i].jobs, rows[i].seconds,
                   rows[i].per_s(), rows[i].note.c_str(), i + 1 < rows.size() ? "," : "");
    std::fprintf(f, "]\n");
    std::fclose(f);
  }
  return status;
}

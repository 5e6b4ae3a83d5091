// cryptaccel_cuda_bench: GPU throughput of the cuda engine, for bench/gpu/run.sh.
//   device-resident (include/cryptaccel/cuda.hpp), timed with CUDA events, median of several runs:
//     device copy bandwidth (the memory bound: an in-place cipher reads and writes every byte),
//     AES-128-CTR, AES-256-GCM, AES-256-XTS over 1 GiB in place (bitsliced and T-table kernels),
//     SHA-256 of 2^24 x 64-byte messages, SHA-256 and SHA3-256 over 8 KiB messages
//   host-resident (run_batch, engine "cuda"): AES-256-GCM over one large message, next to pinned PCIe copy bandwidth
//     and the cpu engine (OpenSSL, all cores) on the same data
// Every cipher row is first checked against the ref engine on a prefix of the data. Medians, wall-clock times and random
// inputs come from the speed harness (include/cryptaccel/bench/); CUDA events time the device-resident rows.
// Usage: cryptaccel_cuda_bench [--gib N] [--host-gib N] [--runs N] [--json FILE] [--quick]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/bench/timer.hpp"
#include "cryptaccel/bench/workload.hpp"
#include "cryptaccel/cuda.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"

using namespace cryptaccel;

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

struct Row {
  std::string name;
  double bytes = 0;    // per run
  double items = 0;    // messages per run (hash rows)
  double ms = 0;       // median
  std::string note;
};
std::vector<Row> rows;

/// Median time in ms of `fn` (queued on `s`) over `runs` runs, after one warm-up.
template <class Fn>
double time_events(cudaStream_t s, int runs, Fn fn) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "cudaEventCreate");
  check(cudaEventCreate(&b), "cudaEventCreate");
  fn();
  check(cudaStreamSynchronize(s), "warm-up");
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    check(cudaEventRecord(a, s), "cudaEventRecord");
    fn();
    check(cudaEventRecord(b, s), "cudaEventRecord");
    check(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return bench::median(std::move(t));
}

void print_row(const Row& r) {
  const double gbs = r.bytes / (r.ms * 1e6);
  if (r.items) std::printf("%-44s %10.3f ms %9.1f GB/s %9.3f G msg/s  %s\n", r.name.c_str(), r.ms, gbs, r.items / (r.ms * 1e6), r.note.c_str());
  else std::printf("%-44s %10.3f ms %9.1f GB/s  %s\n", r.name.c_str(), r.ms, gbs, r.note.c_str());
  std::fflush(stdout);
}

void add(Row r) {
  print_row(r);
  rows.push_back(std::move(r));
}

/// Device-resident in-place cipher over `len` bytes as one job; checked on a prefix against ref first.
void bench_cipher(const char* spec_name, std::size_t xts_unit, cuda::AesKernel kernel, std::uint8_t* d_buf,
                  std::uint8_t* d_tmp, std::size_t len, cudaStream_t s, int runs, std::mt19937_64& rng) {
  CipherSpec spec = CipherSpec::parse(spec_name);
  spec.padding = false;
  const bytes key = bench::random_bytes(rng, spec.key_size()), iv = bench::random_bytes(rng, spec.iv_size());
  void* d_tag = nullptr;
  check(cudaMalloc(&d_tag, 16), "cudaMalloc");
  // Check: out-of-place into d_tmp, compare the first `probe` bytes with ref on the same prefix.
  const std::size_t probe = std::min<std::size_t>(len, std::size_t{1} << 20);
  cuda::DeviceCipherJob job;
  job.key = key, job.iv = iv, job.in = d_buf, job.out = d_tmp, job.len = len, job.tag = d_tag;
  cuda::DeviceOptions o;
  o.aes_kernel = kernel;
  o.xts_unit = xts_unit;
  cuda::crypt_async(spec, Direction::encrypt, {&job, 1}, s, o);
  check(cudaStreamSynchronize(s), "check run");
  bytes in(probe), got(probe), want(probe + 16), tag(16);
  check(cudaMemcpy(in.data(), d_buf, probe, cudaMemcpyDeviceToHost), "cudaMemcpy");
  check(cudaMemcpy(got.data(), d_tmp, probe, cudaMemcpyDeviceToHost), "cudaMemcpy");
  CipherJob ref{key, iv, in, want, {}, tag};
  BatchOptions ro;
  ro.engine = "ref";
  ro.xts_unit = xts_unit;
  run_batch(spec, Direction::encrypt, {&ref, 1}, ro);
  // XTS without data units: the prefix is not a message of its own (its last blocks differ only with stealing,
  // which a 1 MiB prefix does not use), so the whole prefix compares equal either way.
  const bool ok = ref.status == JobStatus::ok && std::equal(got.begin(), got.end(), want.begin());
  const std::string name = std::string(spec_name) + (xts_unit ? " unit " + std::to_string(xts_unit) : "") +
                           (kernel == cuda::AesKernel::ttable ? " [ttable]" : " [bitsliced]");
  if (!ok) {
    std::printf("%-44s MISMATCH against ref: not timed\n", name.c_str());
    rows.push_back(Row{name, 0, 0, 0, "MISMATCH"});
    cudaFree(d_tag);
    return;
  }
  job.out = d_buf;  // time in place
  const double ms = time_events(s, runs, [&] { cuda::crypt_async(spec, Direction::encrypt, {&job, 1}, s, o); });
  add(Row{name, static_cast<double>(len), 0, ms, "in place, 1 job"});
  cudaFree(d_tag);
}

void bench_hash(HashAlgorithm alg, std::size_t msg, std::size_t count, cudaStream_t s, int runs, std::mt19937_64& rng) {
  const std::size_t total = msg * count, dlen = hash_info(alg).digest_size;
  std::uint8_t *d_data = nullptr, *d_dig = nullptr;
  std::uint64_t* d_off = nullptr;
  check(cudaMalloc(&d_data, total), "cudaMalloc");
  check(cudaMalloc(&d_dig, dlen * count), "cudaMalloc");
  check(cudaMalloc(&d_off, 8 * (count + 1)), "cudaMalloc");
  {
    std::vector<std::uint64_t> off(count + 1);
    for (std::size_t i = 0; i <= count; ++i) off[i] = i * msg;
    check(cudaMemcpy(d_off, off.data(), 8 * off.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
    const bytes chunk = bench::random_bytes(rng, std::min<std::size_t>(total, 64u << 20));
    for (std::size_t at = 0; at < total; at += chunk.size())
      check(cudaMemcpy(d_data + at, chunk.data(), std::min(chunk.size(), total - at), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  cuda::hash_async(alg, d_data, d_off, count, d_dig, dlen, s);
  check(cudaStreamSynchronize(s), "hash check run");
  // Check a few digests against ref.
  bool ok = true;
  for (std::size_t i : {std::size_t{0}, count / 2, count - 1}) {
    bytes m(msg), d(dlen);
    check(cudaMemcpy(m.data(), d_data + i * msg, msg, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpy(d.data(), d_dig + i * dlen, dlen, cudaMemcpyDeviceToHost), "cudaMemcpy");
    ok = ok && d == hash(alg, m, 0, "ref");
  }
  const std::string name = std::string(hash_info(alg).name) + " " + std::to_string(count) + " x " + std::to_string(msg) + " B";
  if (!ok) {
    std::printf("%-44s MISMATCH against ref: not timed\n", name.c_str());
    rows.push_back(Row{name, 0, 0, 0, "MISMATCH"});
  } else {
    const double ms = time_events(s, runs, [&] { cuda::hash_async(alg, d_data, d_off, count, d_dig, dlen, s); });
    add(Row{name, static_cast<double>(total), static_cast<double>(count), ms, "device-resident"});
  }
  cudaFree(d_data);
  cudaFree(d_dig);
  cudaFree(d_off);
}

}  // namespace

int main(int argc, char** argv) {
  double gib = 1, host_gib = 4;
  int runs = 5;
  std::string json;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--gib" && i + 1 < argc) gib = std::atof(argv[++i]);
    else if (a == "--host-gib" && i + 1 < argc) host_gib = std::atof(argv[++i]);
    else if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else if (a == "--quick") quick = true;
    else {
      std::fprintf(stderr, "usage: %s [--gib N] [--host-gib N] [--runs N] [--json FILE] [--quick]\n", argv[0]);
      return 2;
    }
  }
  if (!cuda::available()) {
    std::fprintf(stderr, "cryptaccel_cuda_bench: %s\n", cuda::unavailable_reason().c_str());
    return 1;
  }
  cudaDeviceProp prop{};
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  std::printf("device %d: %s, %d SMs, %.1f GiB, compute capability %d.%d\n", dev, prop.name, prop.multiProcessorCount,
              prop.totalGlobalMem / 1073741824.0, prop.major, prop.minor);
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  std::mt19937_64 rng(2024);
  const std::size_t len = static_cast<std::size_t>(gib * 1073741824.0) / 4096 * 4096;

  std::uint8_t *d_buf = nullptr, *d_tmp = nullptr;
  check(cudaMalloc(&d_buf, len), "cudaMalloc");
  check(cudaMalloc(&d_tmp, len), "cudaMalloc");
  {
    const bytes chunk = bench::random_bytes(rng, std::min<std::size_t>(len, 64u << 20));
    for (std::size_t at = 0; at < len; at += chunk.size())
      check(cudaMemcpy(d_buf + at, chunk.data(), std::min(chunk.size(), len - at), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  // Memory bound: a device-to-device copy reads and writes every byte, as an in-place cipher does.
  const double copy_ms = time_events(s, runs, [&] { check(cudaMemcpyAsync(d_tmp, d_buf, len, cudaMemcpyDeviceToDevice, s), "copy"); });
  add(Row{"device copy (bytes copied; r+w = 2x)", static_cast<double>(len), 0, copy_ms, "memory bound for in-place ciphers"});

  for (auto kernel : {cuda::AesKernel::bitsliced, cuda::AesKernel::ttable}) {
    bench_cipher("aes-128-ctr", 0, kernel, d_buf, d_tmp, len, s, runs, rng);
    bench_cipher("aes-256-gcm", 0, kernel, d_buf, d_tmp, len, s, runs, rng);
    bench_cipher("aes-256-xts", 4096, kernel, d_buf, d_tmp, len, s, runs, rng);
    if (!quick) bench_cipher("aes-256-xts", 0, kernel, d_buf, d_tmp, len, s, runs, rng);
  }
  if (!quick) bench_cipher("sm4-ctr", 0, cuda::AesKernel::bitsliced, d_buf, d_tmp, len, s, runs, rng);
  cudaFree(d_buf);
  cudaFree(d_tmp);

  bench_hash(HashAlgorithm::sha256, 64, std::size_t{1} << (quick ? 20 : 24), s, runs, rng);
  bench_hash(HashAlgorithm::sha256, 8192, len / 8192, s, runs, rng);
  bench_hash(HashAlgorithm::sha3_256, 8192, len / 8192, s, runs, rng);

  // Host-resident AES-256-GCM: one large message through the pipelined engine, next to PCIe and the cpu engine.
  if (host_gib > 0) {
    const std::size_t hlen = static_cast<std::size_t>(host_gib * 1073741824.0);
    void *pinned = nullptr, *d = nullptr;
    const std::size_t probe = std::size_t{1} << 30;
    check(cudaHostAlloc(&pinned, probe, cudaHostAllocDefault), "cudaHostAlloc");
    check(cudaMalloc(&d, probe), "cudaMalloc");
    std::memset(pinned, 1, probe);
    const double h2d = time_events(s, 3, [&] { check(cudaMemcpyAsync(d, pinned, probe, cudaMemcpyHostToDevice, s), "h2d"); });
    const double d2h = time_events(s, 3, [&] { check(cudaMemcpyAsync(pinned, d, probe, cudaMemcpyDeviceToHost, s), "d2h"); });
    add(Row{"PCIe H2D (pinned)", static_cast<double>(probe), 0, h2d, ""});
    add(Row{"PCIe D2H (pinned)", static_cast<double>(probe), 0, d2h, ""});
    cudaFreeHost(pinned);
    cudaFree(d);

    const CipherSpec spec = CipherSpec::parse("aes-256-gcm");
    const bytes key = bench::random_bytes(rng, 32), iv = bench::random_bytes(rng, 12);
    bytes in = bench::random_bytes(rng, hlen), out_gpu(hlen), out_cpu(hlen), tag_gpu(16), tag_cpu(16);
    CipherJob g{key, iv, in, out_gpu, {}, tag_gpu}, c{key, iv, in, out_cpu, {}, tag_cpu};
    run_batch(spec, Direction::encrypt, {&g, 1}, BatchOptions{"cuda"});  // warm-up (pinned pool, streams)
    std::vector<double> tg, tc;
    for (int r = 0; r < 3; ++r) {
      tg.push_back(1e3 *
                   bench::seconds_of([&] { run_batch(spec, Direction::encrypt, {&g, 1}, BatchOptions{"cuda"}); }));
      tc.push_back(1e3 *
                   bench::seconds_of([&] { run_batch(spec, Direction::encrypt, {&c, 1}, BatchOptions{"cpu"}); }));
    }
    const bool same = g.status == JobStatus::ok && c.status == JobStatus::ok && out_gpu == out_cpu && tag_gpu == tag_cpu;
    add(Row{"aes-256-gcm host-resident [cuda]", static_cast<double>(hlen), 0, bench::median(tg), same ? "1 job, pipelined" : "MISMATCH vs cpu"});
    add(Row{"aes-256-gcm host-resident [cpu, all cores]", static_cast<double>(hlen), 0, bench::median(tc), "OpenSSL EVP"});
  }

  if (!json.empty()) {
    FILE* f = std::fopen(json.c_str(), "w");
    if (!f) {
      std::perror(json.c_str());
      return 1;
    }
    std::fprintf(f, "{\n  \"device\": \"%s\", \"sm_count\": %d, \"memory_bytes\": %zu,\n  \"rows\": [\n", prop.name,
                 prop.multiProcessorCount, static_cast<std::size_t>(prop.totalGlobalMem));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::fprintf(f, "    {\"name\": \"%s\", \"bytes\": %.0f, \"items\": %.0f, \"ms\": %.6f, \"GBps\": %.3f, \"note\": \"%s\"}%s\n",
                   r.name.c_str(), r.bytes, r.items, r.ms, r.ms > 0 ? r.bytes / (r.ms * 1e6) : 0.0, r.note.c_str(),
                   i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  }
  bool mismatch = false;
  for (const Row& r : rows) mismatch |= r.note.find("MISMATCH") != std::string::npos;
  return mismatch ? 3 : 0;
}

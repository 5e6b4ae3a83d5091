#!/usr/bin/env bash
# Builds, tests and benchmarks cryptaccel's cuda engine on the GPU machine, through the device tool:
#   bench/gpu/prepare_carry.sh                                  # here, once: fills .carry/ (GoogleTest, OpenSSL)
#   run(command="bench/gpu/run.sh build", carry=[".carry"])      # ~3-5 min on 16 cores
#   run(command="bench/gpu/run.sh cuda-tests", carry=[".carry"]) # GPU tests: every mode/hash vs ref, device API
#   run(command="bench/gpu/run.sh cpu-tests", carry=[".carry"])  # whole C++ suite; auto and every engine = cuda too
#   run(command="bench/gpu/run.sh bench", carry=[".carry"])      # cryptaccel_cuda_bench -> $OUT/bench.{txt,json}
#   run(command="bench/gpu/run.sh rsa", carry=[".carry"])        # cryptaccel_rsa_bench -> $OUT/rsa.{txt,json}
#   run(command="bench/gpu/run.sh python", carry=[".carry"])     # cryptaccel.cuda with PyTorch and CuPy arrays
# One phase per call keeps each under the tool's 10-minute limit (the build tree stays while the machine is warm);
# `all` (the default) runs every phase in order. The GPU machine has nvcc, CMake and ninja but no network, no
# libgtest-dev and maybe no OpenSSL headers: both come from .carry/. Logs go to $OUT (or ./gpu-out elsewhere):
# summary.txt, nvidia-smi.txt, build.log, cuda_tests.log, cpu_tests.log, bench.txt, bench.json, shacrypt.{txt,json},
# shacrypt_power.csv, hashcat.txt (the machine's hashcat or the carried portable one), rsa.{txt,json}, rsa_power.csv, rsa_lscpu.txt,
# python_build.log, python_tests.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-gpu-out}
mkdir -p "$out"
build=${GPU_BUILD:-build/gpu}  # GPU_BUILD: another build directory (for trying the script elsewhere)
phase=${1:-all}
log() { echo "== $*" | tee -a "$out/summary.txt"; }

case "$phase" in build|cuda-tests|cpu-tests|bench|rsa|python|all) ;; *) echo "usage: $0 [build|cuda-tests|cpu-tests|bench|rsa|python|all]" >&2; exit 2 ;; esac

{ nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE; } >"$out/nvidia-smi.txt" 2>&1 || true
log "phase $phase; machine: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 | head -1); $(nvcc --version | tail -1); $(nproc) cores"

do_build() {
  local openssl_args=()
  if [ ! -f /usr/include/openssl/evp.h ]; then
    [ -f .carry/openssl/include/openssl/evp.h ] || { log "no OpenSSL headers here and none in .carry/openssl (run bench/gpu/prepare_carry.sh)"; exit 1; }
    openssl_args=(-DOPENSSL_ROOT_DIR="$PWD/.carry/openssl" -DOPENSSL_USE_STATIC_LIBS=TRUE)
  fi
  if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCRYPTACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DCRYPTACCEL_BUILD_CLI=OFF -DCRYPTACCEL_BUILD_PYTHON=OFF -DCRYPTACCEL_BUILD_TESTS=ON -DCRYPTACCEL_RV_KERNELS=OFF \
      -DCRYPTACCEL_GTEST_SOURCE_DIR="$PWD/.carry/googletest" "${openssl_args[@]}" >"$out/build.log" 2>&1; then
    log "configure FAILED"; tail -30 "$out/build.log"; exit 1
  fi
  local start=$SECONDS
  if ! cmake --build "$build" -j "$(nproc)" >>"$out/build.log" 2>&1; then
    log "build FAILED"; grep -E "error|Error" "$out/build.log" | head -40; exit 1
  fi
  log "build OK in $((SECONDS - start)) s"
}

# "N passed, N failed, N skipped" from a GoogleTest log; failing test names follow in the log itself.
gtest_summary() { grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?' "$1" | sed -E 's/^\[ +([A-Z]+) +\] ([0-9]+) tests?.*/\2 \1/' | tr '\n' ' '; }
first_failures() { grep -E '^\[  FAILED  \] [^0-9]' "$1" | sed -E 's/, where GetParam.*//; s/ \([0-9]+ ms\)$//' | sort -u | head -20 || true; }

status=0
if [ "$phase" = build ] || [ "$phase" = all ]; then do_build; fi
[ -x "$build/tests/cryptaccel_cuda_tests" ] || { log "no build in $build: run the build phase first (same warm machine)"; exit 1; }
[ "$phase" != rsa ] || [ -x "$build/bench/gpu/cryptaccel_rsa_bench" ] || { log "no cryptaccel_rsa_bench in $build: rebuild"; exit 1; }

if [ "$phase" = cuda-tests ] || [ "$phase" = all ]; then
  CRYPTACCEL_REQUIRE_GPU=1 timeout 360 "$build/tests/cryptaccel_cuda_tests" >"$out/cuda_tests.log" 2>&1 || status=1
  log "cuda tests: $(gtest_summary "$out/cuda_tests.log")"
  first_failures "$out/cuda_tests.log"
  # The RSA suites (every engine, cuda included) again with each non-default GPU kernel variant (group is the default).
  for k in thread fp64; do
    CRYPTACCEL_CUDA_RSA_KERNEL=$k timeout 100 "$build/tests/cryptaccel_tests" --gtest_filter='*Rsa*:*rsa*' \
      >"$out/rsa_tests_$k.log" 2>&1 || status=1
    log "rsa tests, $k kernel: $(gtest_summary "$out/rsa_tests_$k.log")"
    first_failures "$out/rsa_tests_$k.log"
  done
fi
if [ "$phase" = cpu-tests ] || [ "$phase" = all ]; then
  # With a GPU, `auto` and every test parametrised over available engines run on cuda and cuda-ttable as well.
  timeout 560 "$build/tests/cryptaccel_tests" --gtest_filter='-*Rv*:*RiscV*' >"$out/cpu_tests.log" 2>&1 || status=1
  log "cpu tests: $(gtest_summary "$out/cpu_tests.log")"
  first_failures "$out/cpu_tests.log"
fi
if [ "$phase" = bench ] || [ "$phase" = all ]; then
  timeout 560 "$build/bench/gpu/cryptaccel_cuda_bench" --json "$out/bench.json" 2>&1 | tee "$out/bench.txt" || status=1
  log "bench: $(grep -c 'GB/s' "$out/bench.txt" || true) rows, $(grep -c MISMATCH "$out/bench.txt" || true) mismatches"
  # SHA-crypt (issue 7): hashes/s on cuda and cpu, GPU power sampled every 100 ms meanwhile (joules per hash =
  # mean power x cuda seconds / candidates; compare with hashcat -b -m 1800 / -m 7400 on the same GPU if present).
  nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm --format=csv -lms 100 >"$out/shacrypt_power.csv" 2>&1 &
  smi=$!
  timeout 300 "$build/bench/gpu/cryptaccel_shacrypt_bench" --json "$out/shacrypt.json" 2>&1 | tee "$out/shacrypt.txt" || status=1
  kill "$smi" 2>/dev/null || true
  log "sha-crypt: $(grep -c 'H/s' "$out/shacrypt.txt" || true) rows, $(grep -c MISMATCH "$out/shacrypt.txt" || true) mismatches"
  # hashcat on this GPU: the machine's own, or the portable copy prepare_carry.sh packs (CUDA backend through the
  # toolkit's libnvrtc, OpenCL otherwise); -I first records which backend and device it found.
  hashcat=()
  if command -v hashcat >/dev/null; then
    hashcat=(hashcat)
  elif [ -f .carry/hashcat.tar.xz ]; then
    rm -rf /tmp/hashcat-portable && mkdir -p /tmp/hashcat-portable && tar -C /tmp/hashcat-portable -xJf .carry/hashcat.tar.xz
    cuda_lib=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/../lib64
    hashcat=(env "LD_LIBRARY_PATH=/tmp/hashcat-portable/hashcat/lib:$cuda_lib:${LD_LIBRARY_PATH:-}" "HOME=${HOME:-/tmp}"
             /tmp/hashcat-portable/hashcat/hashcat)
  fi
  if [ ${#hashcat[@]} -gt 0 ]; then
    timeout 60 "${hashcat[@]}" -I >"$out/hashcat.txt" 2>&1 || true
    for m in 1800 7400; do timeout 150 "${hashcat[@]}" -b -m "$m" --machine-readable >>"$out/hashcat.txt" 2>&1 || true; done
    log "hashcat: $(grep -cE '^[0-9]+:(1800|7400):' "$out/hashcat.txt" || true) benchmark rows (hashcat.txt)"
  fi
fi
if [ "$phase" = rsa ] || [ "$phase" = all ]; then
  # RSA (issue 9): RSA-2048 CRT sign/s and verify/s (e = 65537), RSA-4096 sign/s, seed 002's RSA-1024 encrypt and
  # decrypt per block, on cuda (checked against cpu first), cpu, and OpenSSL on every host core of this machine in the
  # same process, each GPU kernel variant (thread, fp64, group) in turn; "ratio" lines are cuda / OpenSSL-all-cores,
  # "fastest" lines the best variant per operation. GPU power and SM clock sampled meanwhile.
  lscpu >"$out/rsa_lscpu.txt" 2>&1 || true
  nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,utilization.gpu --format=csv -lms 100 >"$out/rsa_power.csv" 2>&1 &
  smi=$!
  timeout 540 "$build/bench/gpu/cryptaccel_rsa_bench" --json "$out/rsa.json" 2>&1 | tee "$out/rsa.txt" || status=1
  kill "$smi" 2>/dev/null || true
  log "rsa: $(grep -c '^ratio' "$out/rsa.txt" || true) cuda/openssl ratios, $(grep -c MISMATCH "$out/rsa.txt" || true) mismatches"
  grep -E '^(ratio|fastest)' "$out/rsa.txt" | tee -a "$out/summary.txt" || true
fi
if [ "$phase" = python ] || [ "$phase" = all ]; then
  # The extension in the same build tree (the library is already built); needs Python's headers and nanobind, which
  # the machine's python3 (the one with PyTorch and CuPy) has. A failed configure is turned back so the other
  # phases keep working.
  py=$(command -v python3)
  if [ ! -f "$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; then
    log "python: no Python.h for $py: skipped"; status=1
  elif ! cmake -S . -B "$build" -DCRYPTACCEL_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py" >"$out/python_build.log" 2>&1 ||
       ! cmake --build "$build" -j "$(nproc)" --target _cryptaccel >>"$out/python_build.log" 2>&1; then
    log "python: build FAILED (python_build.log)"; tail -20 "$out/python_build.log"; status=1
    cmake -S . -B "$build" -DCRYPTACCEL_BUILD_PYTHON=OFF >>"$out/python_build.log" 2>&1 || true
  else
    PYTHONPATH="$build/python" timeout 400 "$py" -m pytest -p no:cacheprovider -q -rs tests/python/test_cuda_dlpack.py \
      tests/python/test_python_api.py tests/python/test_python_hash.py >"$out/python_tests.log" 2>&1 || status=1
    log "python tests: $(tail -1 "$out/python_tests.log")"
    grep -E '^(FAILED|ERROR)' "$out/python_tests.log" | head -20 || true
  fi
fi
cat "$out/summary.txt"
exit $status

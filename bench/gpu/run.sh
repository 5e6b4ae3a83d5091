#!/usr/bin/env bash
# Builds, tests and (as engines land) benchmarks cryptaccel on the GPU machine, in one call of the device tool:
#   run(command="bench/gpu/run.sh", carry=[".carry"])
# The GPU machine has nvcc, CMake and ninja but no libgtest-dev and no network: prepare the carry folder here first
# with `bench/gpu/prepare_carry.sh`. Logs go to $OUT (or ./gpu-out when run elsewhere).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-gpu-out}
mkdir -p "$out"
build=build/gpu
log() { echo "== $*" | tee -a "$out/summary.txt"; }

log "machine: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1); $(nvcc --version | tail -1)"
cpu_tests=OFF
[ -f /usr/include/openssl/evp.h ] && cpu_tests=ON

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCRYPTACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCRYPTACCEL_BUILD_CLI=OFF -DCRYPTACCEL_BUILD_PYTHON=OFF -DCRYPTACCEL_BUILD_TESTS=ON \
  -DCRYPTACCEL_GTEST_SOURCE_DIR="$PWD/.carry/googletest" -DCRYPTACCEL_CPU_TESTS=$cpu_tests >"$out/configure.log" 2>&1 \
  || { log "configure FAILED"; tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { log "build FAILED"; tail -40 "$out/build.log"; exit 1; }
log "build OK (CPU test suite: $cpu_tests)"

status=0
CRYPTACCEL_REQUIRE_GPU=1 "$build/tests/cryptaccel_cuda_tests" >"$out/cuda_tests.log" 2>&1 || status=1
log "cuda tests: $(grep -E '^\[  (PASSED|FAILED)' "$out/cuda_tests.log" | tr '\n' ' ')"
if [ "$cpu_tests" = ON ]; then
  "$build/tests/cryptaccel_tests" >"$out/cpu_tests.log" 2>&1 || status=1
  log "cpu tests: $(grep -E '^\[  (PASSED|FAILED)' "$out/cpu_tests.log" | tr '\n' ' ')"
fi
grep -E '^\[  FAILED' "$out"/*_tests.log
cat "$out/summary.txt"
exit $status

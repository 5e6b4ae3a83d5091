#!/usr/bin/env bash
# The one-call GPU run (issues 25 and 26): everything built beforehand by bench/gpu/prepare_first_light.sh on a
# machine without a GPU, so that the GPU machine only runs. Through the device tool:
#   run(command="bench/gpu/first_light.sh", carry=[".carry/first-light"], timeout_s=420)
# Order: correctness first (every GPU test at once, the processes sharing the GPU: cryptaccel_cuda_tests, the engine
# suites on cuda and cuda-ttable in shards, the RSA suites with each kernel variant, cryptaccel.cuda with PyTorch and
# CuPy), then the figures with short timings (cryptaccel_cuda_bench, SHA-crypt, RSA, the crossover, file encryption
# through the streaming pipeline against the PCIe bound (stream_bench.py), hashcat -b on the same GPU),
# GPU power, clocks and utilisation sampled every 100 ms all along. Each phase gets at most its own cap and what is
# left of FIRST_LIGHT_SECONDS (default 330), so the script ends on its own inside the call's limit.
# $OUT gets at most 8 files (the device tool's limit), each written as the run goes so that a cut-off run still
# returns them: summary.txt, machine.txt, tests.log, bench.txt, rsa.txt, power.csv, ncu.txt, results.tar.gz (JSON
# rows and every separate log), and the summary is printed last.
# Arguments: the phases to run, of tests, bench, rsa, crossover, stream, ncu, hashcat (default: all, in that order). For a second,
# shorter call, the environment narrows them: FIRST_LIGHT_CUDA_FILTER and FIRST_LIGHT_ENGINE_FILTER (GoogleTest
# filters for cryptaccel_cuda_tests and the engine suites), FIRST_LIGHT_RSA_ARGS (cryptaccel_rsa_bench's sizes),
# FIRST_LIGHT_HASHCAT_SECONDS (the cap of each hashcat -b, which compiles its kernels through NVRTC first),
# FIRST_LIGHT_RSA_VARIANTS (the RSA kernel variants whose suites run again; empty: none), FIRST_LIGHT_NO_PYTHON=1.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${OUT:-gpu-out}
mkdir -p "$out"
carry=${FIRST_LIGHT_CARRY:-.carry/first-light}
deadline=$((SECONDS + ${FIRST_LIGHT_SECONDS:-330}))
work=$(mktemp -d)
logs=$work/logs
mkdir -p "$logs"
status=0
phases=" ${*:-tests bench rsa crossover stream ncu hashcat} "
want() { [[ $phases == *" $1 "* ]]; }

log() { echo "[$(date -u +%H:%M:%S) +${SECONDS}s] $*" | tee -a "$out/summary.txt"; }
# Seconds a phase may take: its cap, or what is left before the deadline.
budget() { local left=$((deadline - SECONDS)); echo $(($1 < left ? $1 : left)); }
# "N PASSED N FAILED N SKIPPED" from a GoogleTest log, and its failing tests.
gtest_summary() { grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?' "$1" | sed -E 's/^\[ +([A-Z]+) +\] ([0-9]+) tests?.*/\2 \1/' | tr '\n' ' '; }
first_failures() { grep -E '^\[  FAILED  \] [^0-9]' "$1" | sed -E 's/, where GetParam.*//; s/ \([0-9]+ ms\)$//' | sort -u | head -20 || true; }
pack() { tar -C "$work" -czf "$out/results.tar.gz" logs 2>/dev/null || true; }
trap pack EXIT

[ -f "$carry/bin.tar.xz" ] || { log "no $carry/bin.tar.xz: run bench/gpu/prepare_first_light.sh here and carry $carry"; exit 1; }
tar -C "$work" -xJf "$carry/bin.tar.xz"
bin=$work/bin
log "first light: commit $(cat "$carry/commit" 2>/dev/null || echo unknown) (binaries), tree $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

# --- the machine ---
{
  nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,ECC
  echo "== lscpu"; lscpu
  echo "== nvcc"; nvcc --version 2>&1 | tail -2
  echo "== libraries the binaries load"; for b in "$bin"/*; do echo "$(basename "$b"):"; ldd "$b"; done
  echo "== python"; python3 -c 'import sys, torch; print(sys.version); print("torch", torch.__version__, torch.cuda.is_available())' 2>&1
  python3 -c 'import cupy; print("cupy", cupy.__version__)' 2>&1
} >"$out/machine.txt" 2>&1
log "$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | head -1); $(nproc) cores"
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,clocks.mem,utilization.gpu,utilization.memory,temperature.gpu \
  --format=csv -lms 100 >"$out/power.csv" 2>&1 &
smi=$!
trap 'kill $smi 2>/dev/null; pack' EXIT

# --- 1. correctness: all suites at once (16 host cores, one GPU shared) ---
if want tests; then
t=$(budget 150)
log "correctness phase (at most ${t}s)"
run_gtest() {  # name, then the command; shards through GTEST_* variables in the caller's environment
  local name=$1; shift
  CRYPTACCEL_REQUIRE_GPU=1 timeout "$t" stdbuf -oL "$@" >"$logs/$name.log" 2>&1
  echo $? >"$logs/$name.rc"
}
pids=()
run_gtest cuda_tests "$bin/cryptaccel_cuda_tests" --gtest_filter="${FIRST_LIGHT_CUDA_FILTER:-*}" & pids+=($!)
# The engine suites (modes, GCM/XTS splits, hashes, SHA-crypt, RSA, the emulated and multi-device plans) on cuda.
shards=4
for i in $(seq 0 $((shards - 1))); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i run_gtest "engine_tests_$i" "$bin/cryptaccel_tests" \
    --gtest_filter="${FIRST_LIGHT_ENGINE_FILTER:-*cuda*:*Cuda*}" & pids+=($!)
done
for k in ${FIRST_LIGHT_RSA_VARIANTS-thread fp64}; do
  CRYPTACCEL_CUDA_RSA_KERNEL=$k run_gtest "rsa_$k" "$bin/cryptaccel_tests" --gtest_filter='*Rsa*cuda*:*Rsa*Cuda*' & pids+=($!)
done
if [ -n "${FIRST_LIGHT_NO_PYTHON:-}" ]; then
  echo "skipped (FIRST_LIGHT_NO_PYTHON)" >"$logs/python.log"; echo 0 >"$logs/python.rc"
elif [ -d "$work/python/cryptaccel" ]; then
  ( PYTHONPATH=$work/python timeout "$t" python3 -m pytest -p no:cacheprovider -q -rs tests/python/test_cuda_dlpack.py \
      tests/python/test_python_hash.py >"$logs/python.log" 2>&1; echo $? >"$logs/python.rc" ) & pids+=($!)
else
  echo "no extension in $carry" >"$logs/python.log"; echo 1 >"$logs/python.rc"
fi
wait "${pids[@]}"
: >"$out/tests.log"
for f in "$logs"/cuda_tests.log "$logs"/engine_tests_*.log "$logs"/rsa_*.log; do
  [ -f "$f" ] || continue
  rc=$(cat "${f%.log}.rc")
  [ "$rc" = 0 ] || status=1
  log "$(basename "$f" .log): rc $rc; $(gtest_summary "$f")"
  first_failures "$f" | sed 's/^/    /' | tee -a "$out/summary.txt"
  { echo "===== $(basename "$f") (rc $rc)"; cat "$f"; } >>"$out/tests.log"
done
rc=$(cat "$logs/python.rc"); [ "$rc" = 0 ] || status=1
log "python: rc $rc; $(tail -1 "$logs/python.log")"
grep -E '^(FAILED|ERROR)' "$logs/python.log" | head -20 | sed 's/^/    /' | tee -a "$out/summary.txt"
{ echo "===== python (rc $rc)"; cat "$logs/python.log"; } >>"$out/tests.log"
fi

# --- 2. figures, one at a time on the GPU ---
bench() {  # cap, name, command: output appended to the given file
  local cap=$1 file=$2; shift 2
  local t; t=$(budget "$cap")
  if [ "$t" -lt 15 ]; then log "skipped (no time left): $*"; return; fi
  log "bench (at most ${t}s): $(basename "$1") ${*:2}"
  timeout "$t" stdbuf -oL "$@" >>"$file" 2>&1
  local rc=$?
  [ "$rc" = 0 ] || { status=1; log "  exit status $rc"; }
}
: >"$out/bench.txt"; : >"$out/rsa.txt"
if want bench; then
bench 70 "$out/bench.txt" "$bin/cryptaccel_cuda_bench" --runs 5 --host-gib 2 --json "$logs/bench.json"
log "  $(grep -c 'GB/s' "$out/bench.txt") rows, $(grep -c MISMATCH "$out/bench.txt") mismatches"
bench 40 "$out/bench.txt" "$bin/cryptaccel_shacrypt_bench" --candidates 262144 --cpu-candidates 2048 --json "$logs/shacrypt.json"
fi
if want rsa; then
  # shellcheck disable=SC2086  # FIRST_LIGHT_RSA_ARGS is a list of options
  bench 90 "$out/rsa.txt" "$bin/cryptaccel_rsa_bench" ${FIRST_LIGHT_RSA_ARGS:---sign2048 65536 --verify2048 524288 \
    --sign4096 8192 --blocks1024 65536 --cpu-jobs 1024 --openssl-seconds 1} --json "$logs/rsa.json"
  grep -E '^(ratio|fastest)' "$out/rsa.txt" | tee -a "$out/summary.txt"
fi
if want crossover; then
  # Where the GPU starts to pay, per kind of request: the break-even sizes of src/cuda/host/auto_break_even.hpp.
  bench 150 "$out/bench.txt" "$bin/cryptaccel_crossover_bench" --max-seconds "${FIRST_LIGHT_CROSSOVER_SECONDS:-4}"
  grep '^crossover' "$out/bench.txt" | tee -a "$out/summary.txt"
fi
if want stream; then
  # Issue 22's cuda figure: file encryption through the streaming pipeline against the PCIe duplex bound.
  if [ -d "$work/python/cryptaccel" ]; then
    bench 60 "$out/bench.txt" env PYTHONPATH="$work/python" python3 bench/gpu/stream_bench.py --gib 4 --runs 3 \
      --dir /dev/shm --stats --json "$logs/stream.json"
    grep -E '^(PCIe|aes-)' "$out/bench.txt" | tee -a "$out/summary.txt"
  else
    log "stream: no extension in $carry"
  fi
fi
if want ncu; then
  # Why T-table XTS and GCM's GHASH run far under their ceilings (bench/gpu/NOTES.md): Nsight Compute's full set on
  # one launch each of the T-table (CipherImpl 1) ghash_segments (CipherOp 9) and xts (CipherOp 6) kernels.
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  if [ -n "$ncu" ]; then
    bench 90 "$out/ncu.txt" "$ncu" --set full --page details --kernel-name-base demangled \
      -k 'regex:CipherImpl\)1, \(cryptaccel::cuda::CipherOp\)(6|9)>' -c 2 \
      "$bin/cryptaccel_cuda_bench" --gib 0.25 --host-gib 0.25 --runs 1
    grep -E 'cipher_kernel|Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Registers Per' \
      "$out/ncu.txt" | head -20 | tee -a "$out/summary.txt"
  else
    log "ncu: not installed here"
  fi
fi
# hashcat on the same GPU: the machine's, or the portable copy (CUDA backend through the toolkit's libnvrtc).
if want hashcat; then
if [ -f "$carry/hashcat.tar.xz" ] && ! command -v hashcat >/dev/null; then
  mkdir -p "$work/hc" && tar -C "$work/hc" -xJf "$carry/hashcat.tar.xz"
  cuda_lib=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/../lib64
  hashcat=(env "LD_LIBRARY_PATH=$work/hc/hashcat/lib:$cuda_lib:${LD_LIBRARY_PATH:-}" "HOME=$work" "$work/hc/hashcat/hashcat")
else
  hashcat=(hashcat)
fi
for m in 1800 7400; do bench "${FIRST_LIGHT_HASHCAT_SECONDS:-45}" "$out/bench.txt" "${hashcat[@]}" -b -m "$m" --machine-readable; done
log "hashcat: $(grep -cE '^[0-9]+:(1800|7400):' "$out/bench.txt") benchmark rows"
grep -E '^[0-9]+:(1800|7400):|H/s' "$out/bench.txt" | tee -a "$out/summary.txt"
fi
log "done, status $status"
exit $status

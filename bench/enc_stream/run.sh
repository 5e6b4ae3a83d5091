#!/usr/bin/env bash
# Whole-process file encryption, side by side in one run (issue 22): `cryptaccel enc`/`dec` (streaming, --engine cpu)
# against `openssl enc`, `age` and the copy bound `dd conv=fsync`, on one file in the page cache, the output on the
# same file system; with PYTHON set, also `cryptaccel.encrypt_file` against the `cryptography` package (py_file.py).
# Every command runs RUNS times, the tools interleaved round by round; wall time and peak RSS from
# /usr/bin/time. Writes raw.txt (every run) and summary.txt (medians, ratios) into OUT_DIR.
#   bench/enc_stream/run.sh CLI OUT_DIR [SIZE_MIB=1024] [RUNS=5]
# OUTPUT=null writes every output to /dev/null instead (the tools' own speed, without the disk: cryptaccel's
# temporary file, fsync and rename are then skipped too, as for any device); OUTPUT=tmpfs writes to a file in
# /dev/shm (cryptaccel's temporary file and rename included, its fsync a no-op there).
set -euo pipefail
cli=$(realpath "$1"); out_dir=$2; size_mib=${3:-1024}; runs=${4:-5}
mkdir -p "$out_dir"
work=$(mktemp -d "${TMPDIR:-/var/tmp}/enc-stream.XXXXXX")
trap 'rm -rf "$work" "/dev/shm/enc-stream-out.$$"' EXIT
K16=000102030405060708090a0b0c0d0e0f; K32=$K16$K16; K64=${K32}f0e1d2c3b4a5968778695a4b3c2d1e0f0f1e2d3c4b5a69788796a5b4c3d2e1f0; IV=0f0e0d0c0b0a09080706050403020100; N12=0f0e0d0c0b0a090807060504
head -c $((size_mib << 20)) /dev/urandom >"$work/in"
openssl enc -aes-128-cbc -K $K16 -iv $IV -in "$work/in" -out "$work/in.cbc"
age-keygen -o "$work/age.key" 2>/dev/null
recipient=$(age-keygen -y "$work/age.key")
cat "$work/in" "$work/in.cbc" >/dev/null  # into the page cache
dest=$work/out
[ "${OUTPUT:-file}" = null ] && dest=/dev/null
[ "${OUTPUT:-file}" = tmpfs ] && dest=/dev/shm/enc-stream-out.$$  # a file in memory: the disk's noise left out

declare -A cmd=(
  [cryptaccel-aes-128-ctr]="$cli enc -aes-128-ctr --engine cpu -K $K16 -iv $IV -in $work/in -out $dest"
  [openssl-aes-128-ctr]="openssl enc -aes-128-ctr -K $K16 -iv $IV -in $work/in -out $dest"
  [cryptaccel-aes-256-xts]="$cli enc -aes-256-xts --xts-unit 4096 --engine cpu -K $K64 -iv $IV -in $work/in -out $dest"
  [openssl-aes-256-ctr]="openssl enc -aes-256-ctr -K $K32 -iv $IV -in $work/in -out $dest"
  [cryptaccel-aes-256-gcm]="$cli enc -aes-256-gcm --engine cpu -K $K32 -iv $N12 -in $work/in -out $dest"
  [age]="age -r $recipient -o $dest $work/in"
  [cryptaccel-aes-128-cbc-dec]="$cli dec -aes-128-cbc --engine cpu -K $K16 -iv $IV -in $work/in.cbc -out $dest"
  [openssl-aes-128-cbc-dec]="openssl enc -d -aes-128-cbc -K $K16 -iv $IV -in $work/in.cbc -out $dest"
  [dd-conv-fsync]="dd if=$work/in of=$dest bs=4M $([ "$dest" = /dev/null ] || echo conv=fsync) status=none"
)
# Python (with PYTHON=interpreter that imports cryptaccel and cryptography): encrypt_file against cryptography.
py_file=$(dirname "$(realpath "$0")")/py_file.py
if [ -n "${PYTHON:-}" ]; then
  for c in aes-128-ctr aes-256-gcm; do
    cmd[python-cryptaccel-$c]="$PYTHON $py_file cryptaccel $c $work/in $dest"
    cmd[python-cryptography-$c]="$PYTHON $py_file cryptography $c $work/in $dest"
  done
fi
order=(cryptaccel-aes-128-ctr openssl-aes-128-ctr cryptaccel-aes-256-xts openssl-aes-256-ctr cryptaccel-aes-256-gcm age
       cryptaccel-aes-128-cbc-dec openssl-aes-128-cbc-dec dd-conv-fsync)
[ -n "${PYTHON:-}" ] && order+=(python-cryptaccel-aes-128-ctr python-cryptography-aes-128-ctr
                                python-cryptaccel-aes-256-gcm python-cryptography-aes-256-gcm)
{
  echo "# $(date -u +%FT%TZ) $(uname -n) $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "# file: $size_mib MiB in the page cache; output: $dest on $(df --output=source,fstype "$work" | tail -1)"
  echo "# $("$cli" --version 2>/dev/null || true); $(openssl version); age $(age --version)"
} >"$out_dir/raw.txt"
for ((r = 1; r <= runs; r++)); do
  for name in "${order[@]}"; do
    rm -f "$work/out" "/dev/shm/enc-stream-out.$$"; sync
    # shellcheck disable=SC2086  # the command line is split into words on purpose
    /usr/bin/time -f "$name run=$r wall=%e user=%U sys=%S maxrss_kb=%M" -a -o "$out_dir/raw.txt" ${cmd[$name]} >/dev/null
  done
done
python3 - "$out_dir/raw.txt" "$size_mib" >"$out_dir/summary.txt" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) run=\d+ wall=([\d.]+) .* maxrss_kb=(\d+)", line)
    if m:
        rows.setdefault(m[1], []).append((float(m[2]), int(m[3])))
size = int(sys.argv[2])
med = {k: statistics.median(w for w, _ in v) for k, v in rows.items()}
print(f"{'command':30} {'median s':>9} {'GB/s':>7} {'peak MB':>8}  runs (s)")
for k, v in rows.items():
    print(f"{k:30} {med[k]:9.3f} {size * 1.048576 / 1000 / med[k]:7.2f} {max(m for _, m in v) / 1024:8.1f}  "
          + " ".join(f"{w:.2f}" for w, _ in v))
pairs = [("cryptaccel-aes-128-ctr", "openssl-aes-128-ctr"), ("cryptaccel-aes-256-xts", "openssl-aes-256-ctr"),
         ("cryptaccel-aes-256-gcm", "openssl-aes-256-ctr"), ("cryptaccel-aes-256-gcm", "age"),
         ("cryptaccel-aes-128-cbc-dec", "openssl-aes-128-cbc-dec")]
print()
pairs += [(f"python-cryptaccel-{c}", f"python-cryptography-{c}") for c in ("aes-128-ctr", "aes-256-gcm")]
for a, b in pairs:
    if a in med and b in med:
        print(f"{a} vs {b}: {med[b] / med[a]:.2f}x (median time ratio; > 1: cryptaccel faster)")
for a in ("cryptaccel-aes-128-ctr", "cryptaccel-aes-256-xts", "cryptaccel-aes-256-gcm", "cryptaccel-aes-128-cbc-dec"):
    print(f"{a} vs dd conv=fsync (the copy bound): {med['dd-conv-fsync'] / med[a]:.2f}x")
PY
cat "$out_dir/summary.txt"

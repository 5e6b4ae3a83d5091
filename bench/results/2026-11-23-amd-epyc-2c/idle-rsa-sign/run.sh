#!/bin/bash
# Idle machine (no build, test or helper running), one Release build (CUDA off). 9 runs, 2 s per cell; each run
# times the cpu engine and OpenSSL EVP side by side in one process (one per call and batches of 64).
# Usage: run.sh /path/to/cryptaccel   (writes raw/ here, then summary.txt)
set -euo pipefail
C=${1:?path to the cryptaccel binary}
cd "$(dirname "$0")"
mkdir -p raw
lscpu > machine.txt
for i in 1 2 3 4 5 6 7 8 9; do
  for t in 1 2; do
    "$C" speed -a rsa2048 --engine cpu --threads $t --batch 64 --vs openssl --seconds 2 --json raw/rsa_t${t}_r$i.json \
      > raw/rsa_t${t}_r$i.txt 2>&1
  done
done
python3 summarize.py > summary.txt
cat summary.txt

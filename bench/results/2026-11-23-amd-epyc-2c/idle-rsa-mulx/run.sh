#!/bin/bash
# Idle machine (no build or helper running), build/mulx at 6e8f037 (Release, CUDA off), 5 runs.
C=/work/main/build/mulx/src/cli/cryptaccel
for i in 1 2 3 4 5; do
  for t in 1 2; do
    $C speed -a rsa2048 --engine cpu --threads $t --batch 64 --vs openssl --seconds 1 --json rsa_t${t}_r$i.json > rsa_t${t}_r$i.txt 2>&1
  done
done

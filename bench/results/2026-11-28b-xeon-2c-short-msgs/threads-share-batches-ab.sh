#!/bin/bash
for round in $(seq 1 $1); do
  for bin in old new; do
    for t in 0 1; do
      /tmp/cli_$bin speed -a sha256 --engine cpu --threads $t --batch 4096 --bytes 64 --seconds 0.3 2>&1 | grep "x4096" | sed "s/^/$round $bin t=$t /"
      /tmp/cli_$bin speed -a rsa2048 --engine cpu --threads $t --batch 64 --seconds 0.3 2>&1 | grep -E "^rsa2048.*x64" | sed "s/^/$round $bin t=$t /"
    done
  done
done

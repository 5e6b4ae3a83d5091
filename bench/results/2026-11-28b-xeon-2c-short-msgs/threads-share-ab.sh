#!/bin/bash
# A/B of all-core scaling at 1 MiB: old and new binaries alternate; each round measures 2 threads then 1 thread.
for round in $(seq 1 $1); do
  for bin in old new; do
    for t in 0 1; do
      /tmp/cli_$bin speed -a aes-128-ctr aes-256-gcm aes-128-xts --engine cpu --threads $t --bytes 1M --seconds 0.3 2>&1 | grep "\[cpu\]" | sed "s/^/$round $bin t=$t /"
    done
  done
done

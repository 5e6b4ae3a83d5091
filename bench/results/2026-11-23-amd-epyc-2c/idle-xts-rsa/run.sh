#!/bin/bash
C=/tmp/cc1/build/release/src/cli/cryptaccel
for i in 1 2 3 4 5; do
  for t in 1 2; do
    $C speed -a aes-128-xts aes-256-xts aes-256-ctr --engine cpu --bytes 64 1k 16k 1M --threads $t --vs openssl --seconds 0.7 --json xts_t${t}_r$i.json > xts_t${t}_r$i.txt 2>&1
  done
  CRYPTACCEL_CPU_XTS=aesni $C speed -a aes-128-xts aes-256-xts --engine cpu --bytes 64 1k 16k 1M --threads 1 --vs openssl --seconds 0.7 --json xtsk_t1_r$i.json > xtsk_t1_r$i.txt 2>&1
  for t in 1 2; do
    $C speed -a rsa2048 --engine cpu --threads $t --batch 64 --vs openssl --seconds 1 --json rsa_t${t}_r$i.json > rsa_t${t}_r$i.txt 2>&1
  done
done
echo done

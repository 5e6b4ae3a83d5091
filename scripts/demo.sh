#!/usr/bin/env bash
# The README's `make demo`: encrypts and decrypts a sample file with a few ciphers, checks each round trip (and,
# for the raw modes, that OpenSSL produced the same bytes), hashes the files like sha256sum, then prints
# `cryptaccel speed` for a few algorithms.
# Usage: scripts/demo.sh path/to/cryptaccel
set -euo pipefail
cli=$(realpath "${1:?usage: scripts/demo.sh path/to/cryptaccel}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== $("$cli" --version 2>/dev/null | head -1) — engines on this machine:"
"$cli" engines
echo

# A sample of 8 MiB; keys and IVs are fresh random values for this run.
head -c $((8 * 1024 * 1024)) /dev/urandom >"$work/sample.bin"
hex() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }

for cipher in aes-256-cbc aes-128-ctr sm4-cbc aes-256-xts aes-256-gcm; do
  case $cipher in
    *xts) key=$(hex 64) ;;
    aes-256-*) key=$(hex 32) ;;
    *) key=$(hex 16) ;;
  esac
  case $cipher in *gcm) iv=$(hex 12) ;; *) iv=$(hex 16) ;; esac
  start=$(date +%s%N)
  "$cli" enc "-$cipher" -K "$key" -iv "$iv" -in "$work/sample.bin" -out "$work/sample.enc"
  "$cli" dec "-$cipher" -K "$key" -iv "$iv" -in "$work/sample.enc" -out "$work/sample.dec"
  end=$(date +%s%N)
  cmp -s "$work/sample.bin" "$work/sample.dec" || { echo "round trip FAILED for $cipher" >&2; exit 1; }
  same="n/a (AEAD: openssl enc does not do GCM)"
  if [[ $cipher == *xts ]]; then
    # openssl enc refuses XTS: the Python `cryptography` package (OpenSSL's XTS) encrypts the whole file as one unit.
    "${PYTHON:-python3}" - "$key" "$iv" "$work/sample.bin" "$work/openssl.enc" <<'PY'
import sys
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
key, tweak, src, dst = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3], sys.argv[4]
enc = Cipher(algorithms.AES(key), modes.XTS(tweak)).encryptor()
open(dst, "wb").write(enc.update(open(src, "rb").read()) + enc.finalize())
PY
    if cmp -s "$work/sample.enc" "$work/openssl.enc"; then same="identical (to OpenSSL XTS via cryptography)"; else echo "differs from OpenSSL XTS: $cipher" >&2; exit 1; fi
  elif [[ $cipher != *gcm ]]; then
    openssl enc "-$cipher" -K "$key" -iv "$iv" -in "$work/sample.bin" -out "$work/openssl.enc"
    if cmp -s "$work/sample.enc" "$work/openssl.enc"; then same="identical"; else echo "differs from openssl enc: $cipher" >&2; exit 1; fi
  fi
  printf '%-12s 8 MiB encrypt+decrypt round trip OK in %.2f s; ciphertext vs openssl enc: %s\n' \
    "$cipher" "$(awk -v ns=$((end - start)) 'BEGIN { print ns / 1e9 }')" "$same"
done
echo

echo "== cryptaccel hash (sha256sum's format) against coreutils"
for f in sample.bin sample.enc; do (cd "$work" && "$cli" hash -a sha256 "$f"); done | tee "$work/SUMS"
(cd "$work" && sha256sum --quiet -c SUMS) && echo "sha256sum -c accepts cryptaccel's checksums"
echo

echo "== cryptaccel speed (thousands of bytes per second; ratio to OpenSSL in the same process)"
"$cli" speed -a aes-128-ctr aes-256-gcm aes-256-xts sm4-ctr sha256 sha3-256 --bytes 16 1024 16384 1M --seconds 0.3 --vs openssl

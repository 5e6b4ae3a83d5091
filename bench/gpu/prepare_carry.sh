#!/usr/bin/env bash
# Fills .carry/ (ignored by git) with what bench/gpu/run.sh needs on the GPU machine, which has no network:
# GoogleTest's sources, and OpenSSL 3's headers and static libcrypto (used only if that machine has no headers).
set -euo pipefail
cd "$(dirname "$0")/../.."
exclude=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$exclude")"
grep -qx '/.carry/' "$exclude" 2>/dev/null || echo '/.carry/' >>"$exclude"
mkdir -p .carry
rm -rf .carry/googletest .carry/openssl
cp -r /usr/src/googletest .carry/googletest
mkdir -p .carry/openssl/include .carry/openssl/lib
cp -r /usr/include/openssl .carry/openssl/include/
cp /usr/include/x86_64-linux-gnu/openssl/*.h .carry/openssl/include/openssl/  # configuration.h, opensslconf.h
cp /usr/lib/x86_64-linux-gnu/libcrypto.a .carry/openssl/lib/
du -sh .carry

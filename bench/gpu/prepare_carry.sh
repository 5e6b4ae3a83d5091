#!/usr/bin/env bash
# Fills .carry/ (ignored by git) with what bench/gpu/run.sh needs on the GPU machine, which has no network:
# GoogleTest's sources, OpenSSL 3's headers and static libcrypto (used only if that machine has no headers), and
# when hashcat is installed here, a portable copy of it for the sha512crypt/sha256crypt comparison on the GPU (issue 7):
# hashcat runs in portable mode when its binary is not in /usr/bin (kernels, modules and hcstat2 next to it); only
# the modules that `-b -m 1800`/`-m 7400` load are kept, with the two libraries Debian's build links that the GPU
# machine may lack. run.sh unpacks it to /tmp there.
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
rm -f .carry/hashcat.tar.xz
if [ -x /usr/bin/hashcat ] && [ -d /usr/share/hashcat/OpenCL ]; then
  hc=$(mktemp -d)
  mkdir -p "$hc/hashcat/modules" "$hc/hashcat/lib"
  cp /usr/bin/hashcat /usr/share/hashcat/hashcat.hcstat2 "$hc/hashcat/"
  cp -r /usr/share/hashcat/OpenCL /usr/share/hashcat/tunings "$hc/hashcat/"
  for m in 00000 01800 07400; do cp "/usr/lib/hashcat/modules/module_$m.so" "$hc/hashcat/modules/"; done
  for lib in libminizip.so.1 libxxhash.so.0; do cp -L "/lib/x86_64-linux-gnu/$lib" "$hc/hashcat/lib/"; done
  tar -C "$hc" -cJf .carry/hashcat.tar.xz hashcat
  rm -rf "$hc"
fi
du -sh .carry

#!/usr/bin/env bash
# Fills .carry/ (ignored by git) with what bench/gpu/run.sh needs on the GPU machine: GoogleTest's sources.
set -euo pipefail
cd "$(dirname "$0")/../.."
exclude=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$exclude")"
grep -qx '/.carry/' "$exclude" 2>/dev/null || echo '/.carry/' >>"$exclude"
mkdir -p .carry
rm -rf .carry/googletest
cp -r /usr/src/googletest .carry/googletest
du -sh .carry

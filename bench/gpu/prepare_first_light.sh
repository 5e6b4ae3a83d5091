#!/usr/bin/env bash
# Builds, here on a machine without a GPU, everything bench/gpu/first_light.sh runs on the GPU machine, and packs it
# into .carry/first-light/ (ignored by git; about 20-40 MiB, under the device tool's 64 MiB carry limit):
#   bin.tar.xz      the GPU test and bench binaries (sm_90, CUDA runtime and OpenSSL's libcrypto linked statically)
#                   and, when a Python 3.12 with nanobind is found here, the extension for the GPU machine's python3
#   hashcat.tar.xz  a portable hashcat for the sha512crypt/sha256crypt comparison (from bench/gpu/prepare_carry.sh)
# Then, through the device tool:
#   run(command="bench/gpu/first_light.sh", carry=[".carry/first-light"], timeout_s=420)
# Build tree: build/gpu (GPU_BUILD to change). PY312: the Python 3.12 interpreter to build the extension for.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${GPU_BUILD:-build/gpu}
dest=.carry/first-light
# GoogleTest sources and hashcat.tar.xz; not refreshed when present (a fresh copy would rebuild GoogleTest).
[ -d .carry/googletest ] && [ -f .carry/hashcat.tar.xz ] || bash bench/gpu/prepare_carry.sh >/dev/null
py312=
for candidate in ${PY312:-} python3.12 "$HOME"/.pyenv/versions/3.12.*/bin/python3; do
  if "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 12); import nanobind' >/dev/null 2>&1; then
    py312=$candidate; break
  fi
done
python_args=(-DCRYPTACCEL_BUILD_PYTHON=OFF)
if [ -n "$py312" ]; then
  python_args=(-DCRYPTACCEL_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py312")
else
  echo "no Python 3.12 with nanobind here (PY312=...): the extension is left out; first_light.sh skips its Python phase" >&2
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCRYPTACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCRYPTACCEL_BUILD_CLI=OFF -DCRYPTACCEL_BUILD_TESTS=ON -DCRYPTACCEL_RV_KERNELS=OFF \
  -DCRYPTACCEL_GTEST_SOURCE_DIR="$PWD/.carry/googletest" -DOPENSSL_USE_STATIC_LIBS=TRUE "${python_args[@]}" >/dev/null
targets=(cryptaccel_tests cryptaccel_cuda_tests cryptaccel_cuda_bench cryptaccel_rsa_bench cryptaccel_shacrypt_bench
         cryptaccel_crossover_bench)
[ "${python_args[0]}" = -DCRYPTACCEL_BUILD_PYTHON=ON ] && targets+=(_cryptaccel)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin"
for t in tests/cryptaccel_tests tests/cryptaccel_cuda_tests bench/gpu/cryptaccel_cuda_bench bench/gpu/cryptaccel_rsa_bench \
         bench/gpu/cryptaccel_shacrypt_bench bench/gpu/cryptaccel_crossover_bench; do
  strip -o "$stage/bin/$(basename "$t")" "$build/$t"
done
if [ -d "$build/python/cryptaccel" ] && ls "$build"/python/cryptaccel/_cryptaccel*.so >/dev/null 2>&1; then
  mkdir -p "$stage/python"
  cp -r "$build/python/cryptaccel" "$stage/python/"
  for so in "$stage"/python/cryptaccel/_cryptaccel*.so; do strip --strip-unneeded "$so"; done
fi
# What the GPU machine must provide: anything beyond glibc, libstdc++/libgcc and the CUDA driver is a risk there.
for b in "$stage"/bin/*; do
  extra=$(ldd "$b" | awk '{print $1}' | grep -vE '^(linux-vdso|/lib64/ld-linux|libc\.so|libm\.so|libstdc\+\+|libgcc_s|libpthread|libdl|librt)' || true)
  [ -z "$extra" ] || echo "note: $(basename "$b") needs ${extra//$'\n'/ }" >&2
done
mkdir -p "$dest"
tar -C "$stage" -cJf "$dest/bin.tar.xz" .
cp .carry/hashcat.tar.xz "$dest/" 2>/dev/null || rm -f "$dest/hashcat.tar.xz"
git rev-parse HEAD >"$dest/commit"
du -sh "$dest"/*

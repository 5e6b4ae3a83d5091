// cryptaccel::rvlab — the RISC-V crypto-ISA lab's experiments above the simulator (cryptaccel/rv.hpp): the kernels'
// manifest, workloads with the ref engine's expected outputs, kernel runs checked against them and against Spike,
// the SIMT estimate, and the experiment runner that reproduces a paper's table from a data file
// (rv/experiments/*.json). `cryptaccel rv` is a thin command over this (docs/isa-lab.md).
#pragma once
#include "cryptaccel/rvlab/data_files.hpp"
#include "cryptaccel/rvlab/experiment.hpp"
#include "cryptaccel/rvlab/kernel_run.hpp"
#include "cryptaccel/rvlab/manifest.hpp"
#include "cryptaccel/rvlab/reference.hpp"
#include "cryptaccel/rvlab/simt.hpp"
#include "cryptaccel/rvlab/spike.hpp"
#include "cryptaccel/rvlab/workload.hpp"

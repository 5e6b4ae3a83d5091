// The speed harness: throughput of every engine, like `openssl speed -evp`, optionally next to OpenSSL itself, with
// the machine it ran on. Workloads and their families (bench/workload.hpp), the side-by-side timer and wall-clock
// helpers (bench/timer.hpp), a whole run from request to rows (bench/speed.hpp), the report as table and JSON
// (bench/report.hpp) and the machine details (bench/machine.hpp). `cryptaccel speed` and cryptaccel.bench are thin
// front ends over this.
#pragma once
#include "cryptaccel/bench/machine.hpp"
#include "cryptaccel/bench/report.hpp"
#include "cryptaccel/bench/speed.hpp"
#include "cryptaccel/bench/timer.hpp"
#include "cryptaccel/bench/workload.hpp"

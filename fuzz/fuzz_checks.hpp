// What the differential harnesses share: the kind of error an operation threw (so that engines can be compared on
// their refusals as well as their outputs), and the way a failed check stops the fuzzer.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cryptaccel/error.hpp"
#include "cryptaccel/rsa.hpp"

namespace fuzz {

/// "" when `f` returned, else the cryptaccel error class it threw; other exceptions escape (a bug for the fuzzer).
template <typename F>
std::string error_kind(F&& f) {
  try {
    f();
  } catch (const cryptaccel::AuthenticationFailed&) {
    return "AuthenticationFailed";
  } catch (const cryptaccel::BadDecrypt&) {
    return "BadDecrypt";
  } catch (const cryptaccel::InvalidCiphertext&) {
    return "InvalidCiphertext";
  } catch (const cryptaccel::InvalidArgument&) {
    return "InvalidArgument";
  } catch (const cryptaccel::EngineUnavailable&) {
    return "EngineUnavailable";
  }
  return "";
}

/// A failed check: names the harness's source line, then aborts so that libFuzzer keeps the input.
[[noreturn]] inline void check_failed(const char* file, int line) {
  std::fprintf(stderr, "%s:%d: check failed\n", file, line);
  std::abort();
}

}  // namespace fuzz

/// Aborts the run (keeping the input) when `cond` is false.
#define FUZZ_CHECK(cond) ((cond) ? void() : fuzz::check_failed(__FILE__, __LINE__))

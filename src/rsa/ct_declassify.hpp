// Marks a value as public for a constant-time analysis under valgrind (tests/ct/rsa_ct_check.cpp marks the key's
// secrets undefined, so memcheck reports every branch or address that depends on them). A value the algorithm
// publishes anyway (a signature before its check, a padding verdict) is declassified here; without valgrind's
// headers, or outside valgrind, this costs nothing.
#pragma once
#include <cstddef>

#if defined(CRYPTACCEL_HAVE_VALGRIND)
#include <valgrind/memcheck.h>
#endif

namespace cryptaccel::rsa {

/// Tells memcheck that `len` bytes at `p` are public (defined) from here on.
inline void declassify(const void* p, std::size_t len) {
#if defined(CRYPTACCEL_HAVE_VALGRIND)
  (void)VALGRIND_MAKE_MEM_DEFINED(p, len);
#else
  (void)p, (void)len;
#endif
}

}  // namespace cryptaccel::rsa

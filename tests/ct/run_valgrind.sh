#!/bin/sh
# ctest driver for the constant-time checks (tests/ct/rsa_ct_check, tests/ct/xts_ct_check) under valgrind memcheck.
#   run_valgrind.sh VALGRIND BINARY ENGINE [--leaky]
# Exit 0: clean (or, with --leaky, the deliberate leak was reported); 77: skipped (no valgrind); else failure.
valgrind="$1" bin="$2" engine="$3" leaky="$4"
if [ -z "$valgrind" ] || [ ! -x "$valgrind" ] || [ ! -x "$bin" ]; then
  echo "SKIPPED: valgrind (or its memcheck.h at build time) is missing: apt-get install valgrind"
  exit 77
fi
"$valgrind" --quiet --error-exitcode=99 --track-origins=yes "$bin" "$engine" $leaky
rc=$?
if [ -n "$leaky" ]; then
  if [ $rc -eq 99 ]; then echo "the deliberate secret-dependent branch was reported, as it must be"; exit 0; fi
  echo "FAILED: valgrind did not report the deliberate leak (rc $rc): the check is not working"
  exit 1
fi
[ $rc -eq 0 ] && echo "no secret-dependent branch or address reported ($engine)"
exit $rc

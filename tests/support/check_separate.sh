#!/usr/bin/env bash
# Fails when a symbol defined by the test-support library (fakes, test clocks) is also defined
# in a production library: test code must not ship in the daemon, xcvrctl or the package.
#   check_separate.sh <libxcvr_test_support.a> <production lib>...
set -euo pipefail
support=$1
shift
defined() { nm -C --defined-only "$1" 2>/dev/null | awk '$2 ~ /^[TDBR]$/ {$1 = ""; $2 = ""; print substr($0, 3)}' | sort -u; }
fakes=$(defined "$support" | grep -E 'xcvr::(ib|i2c)::' || true)
[ -n "$fakes" ] || { echo "check_separate: no xcvr symbols in $support"; exit 1; }
status=0
for lib in "$@"; do
  both=$(comm -12 <(printf '%s\n' "$fakes") <(defined "$lib"))
  # And no fake by name, wherever its source file sits.
  named=$(defined "$lib" | grep -E '::(Fake[A-Za-z]*|DesClock|EmulatedI2cSyscalls)\b' || true)
  if [ -n "$named" ]; then
    echo "fakes defined in $(basename "$lib"):"
    printf '  %s\n' "$named" | head -n 20
    status=1
  fi
  if [ -n "$both" ]; then
    echo "test-support symbols defined in $(basename "$lib"):"
    printf '  %s\n' "$both" | head -n 20
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "test support: $(printf '%s\n' "$fakes" | wc -l) symbols, none in $# production libraries"
exit "$status"

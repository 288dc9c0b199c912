#!/usr/bin/env bash
# Fails when a symbol defined by the test-support library (fakes, test clocks, the IB attribute
# encoders, the prometheus-cpp families of /metrics) is also defined in a production library, or
# when a production library defines test-only code by name wherever its source sits: test code
# must not ship in the daemon, xcvrctl or the package.
#   check_separate.sh <libxcvr_test_support.a> <production lib>...
set -euo pipefail
support=$1
shift
defined() { nm -C --defined-only "$1" 2>/dev/null | awk '$2 ~ /^[TDBR]$/ {$1 = ""; $2 = ""; print substr($0, 3)}' | sort -u; }
fakes=$(defined "$support" | grep -E 'xcvr::(ib|i2c|exporters)::' || true)
[ -n "$fakes" ] || { echo "check_separate: no xcvr symbols in $support"; exit 1; }
# By name: fakes; the encoders of the IB attributes the product only decodes
# (tests/support/ib/mad_encoders.hpp); the Collectable path of /metrics, prometheus-cpp families
# (tests/support/metric_families.hpp) and any Collectable's Collect().
test_only='::(Fake[A-Za-z]*|DesClock|EmulatedI2cSyscalls)\b'
test_only+='|xcvr::ib::encode_(node_info|port_info|node_description|class_port_info|port_counters|port_counters_ext)\('
test_only+='|xcvr::exporters::(FamilyCollector|build_families|collect_families|serialize_text)\b|::Collect\(\) const'
status=0
for lib in "$@"; do
  both=$(comm -12 <(printf '%s\n' "$fakes") <(defined "$lib"))
  named=$(defined "$lib" | grep -E "$test_only" || true)
  if [ -n "$named" ]; then
    echo "test-only code defined in $(basename "$lib"):"
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

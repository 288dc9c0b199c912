#!/usr/bin/env bash
# Quick start (b): set up, build and run every test on a fresh Debian 12 machine.
#   1. unit + integration suite, release build
#   2. the same suite under ASan + UBSan + LeakSanitizer
#   3. libFuzzer smoke: every fuzz target for a bounded number of runs over tests/data seeds
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh

bash scripts/build.sh release
(cd build/release && ctest --output-on-failure --timeout 600 -j "$(nproc)")

bash scripts/build.sh asan
(cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure --timeout 600 -j "$(nproc)")

bash scripts/build.sh fuzz
bash scripts/fuzz.sh smoke

#!/usr/bin/env bash
# Configures and builds one flavour into build/<flavour>:
#   release  optimised, the binaries the demo runs and benchmarks measure
#   asan     debug with AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer)
#   fuzz     clang with libFuzzer targets, ASan + UBSan
#   demo     optimised, only transceiver_exporter and xcvrctl (no tests, no benchmarks: what
#            scripts/demo.sh runs, with scripts/setup.sh demo's packages)
set -euo pipefail
flavour=${1:-release}
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${XCVR_JOBS:-$(nproc)}
targets=()  # empty: every target
case "$flavour" in
  release) args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan)    args=(-DCMAKE_BUILD_TYPE=Debug -DXCVR_SANITIZE=ON -DXCVR_BENCH=OFF) ;;
  fuzz)    args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DXCVR_SANITIZE=ON -DXCVR_FUZZ=ON -DXCVR_BENCH=OFF -DXCVR_UNIT_TESTS=OFF
                 -DCMAKE_CXX_COMPILER=clang++) ;;
  demo)    args=(-DCMAKE_BUILD_TYPE=Release -DXCVR_UNIT_TESTS=OFF -DXCVR_BENCH=OFF)
           targets=(transceiver_exporter xcvrctl) ;;
  *) echo "usage: $0 release|asan|fuzz|demo" >&2; exit 2 ;;
esac
# A compiler cache, where one is installed, makes rebuilds of unchanged files free.
if command -v ccache >/dev/null; then args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$root" -B "$root/build/$flavour" -G Ninja "${args[@]}" >/dev/null
ninja -C "$root/build/$flavour" -j "$jobs" ${targets[@]+"${targets[@]}"}

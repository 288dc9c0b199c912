#!/usr/bin/env bash
# Quick start (a): set up, build and run the product on its demo.
# Until the daemon lands, the demo decodes every bundled real module dump with xcvrctl.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
bash scripts/build.sh release
for dump in tests/data/*/raw.txt; do
  echo "================================================================================"
  ./build/release/xcvrctl decode "$dump" || true   # exit 1 = decoded with findings
done
echo
echo "Decoded $(ls tests/data/*/raw.txt | wc -l) real module dumps. Try: build/release/xcvrctl decode --json FILE"

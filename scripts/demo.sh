#!/usr/bin/env bash
# Quick start (a): set up, build and run the daemon on the emulated demo fleet
# (config/demo.toml: a 64-port 400G QSFP-DD spine, a 32-cage Quantum-2 and an 8-GPU H200 host,
# in real bus time).
# Stop it with Ctrl-C. XCVR_DEMO_LISTEN overrides the listen address (default :10458).
# Installs only the demo's packages (scripts/setup.sh demo: no test tools) and builds only the
# daemon and xcvrctl into build/demo (scripts/build.sh demo: no tests, no benchmarks).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
setup_log=$(mktemp)
trap 'rm -f "$setup_log"' EXIT
bash scripts/setup.sh demo | tee "$setup_log"
installed=$(grep '^setup: .*installed [0-9]* packages' "$setup_log" | tail -1 || true)
rm -f "$setup_log"
bash scripts/build.sh demo
listen=${XCVR_DEMO_LISTEN:-:10458}
port=${listen##*:}
cat <<MSG

${installed}
transceiver_exporter is starting on the demo fleet. Look at:
  http://localhost:${port}/                 landing page with the port map
  http://localhost:${port}/metrics          Prometheus metrics
  http://localhost:${port}/api/v1/modules   JSON API
  build/demo/xcvrctl decode tests/data/osfp800g-juniper-dr8-xai01-port40/raw.txt
MSG
exec build/demo/transceiver_exporter --config config/demo-exporter.toml --web.listen-address "$listen"

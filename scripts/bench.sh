#!/usr/bin/env bash
# The one benchmark command: builds release and writes docs/benchmarks.md from a single run.
# Every figure stands beside the floor or baseline it is compared with, measured in the same run
# (these machines are noisy: ratios, not absolute times, are the claims).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# BENCH_BUILD=DIR measures an existing release build there instead of building build/release.
build=${BENCH_BUILD:-build/release}
if [ -z "${BENCH_BUILD:-}" ]; then
  bash scripts/setup.sh >/dev/null
  bash scripts/build.sh release >/dev/null
fi
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" || { echo "bench: $build is not a release build" >&2; exit 1; }
out=$build/bench
mkdir -p "$out"
bin=$build/tests
start=$SECONDS
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# Five repetitions, reported as their median: one run of a sub-µs benchmark on a shared machine
# can land anywhere within a factor of 1.5.
"$bin/bench_decode" --benchmark_format=json --benchmark_min_time=0.5 --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true > "$out/decode.json"
"$bin/bench_emulator" --benchmark_format=json --benchmark_min_time=0.2 > "$out/emulator.json"
"$bin/run_poll" > "$out/poll.json"
# The 2,048-port daemon without the flight recorder, in a fresh process: the recorder's cost.
"$bin/run_poll" cpu2048_norecorder > "$out/poll_norecorder.json"
if [ -x "$bin/bench_scrape" ]; then
  # Three repetitions, reported as their median: the render + gzip ÷ floor ratios compare
  # benchmarks run seconds apart, and one run of the gzip floor has measured 1.35x another.
  "$bin/bench_scrape" --benchmark_format=json --benchmark_min_time=1 --benchmark_min_warmup_time=0.5 \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true > "$out/scrape.json" || true
fi
"$bin/bench_api" --benchmark_format=json --benchmark_min_time=0.5 --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true > "$out/api.json"
# wrk: the exporter's HTTP server vs a bare prometheus-cpp + cpp-httplib server, same series.
bash tests/bench/scrape_bench.sh "$bin/e2e/xcvr_e2e_server" 10 4 > "$out/scrape_wrk.md"
# The exporters users pick instead (Go client_golang, Python prometheus_client) on the same series.
python3 tests/bench/peers/peers_bench.py "$bin/e2e/xcvr_e2e_server" 10 "$out/peers.json" > "$out/peers.md"
for b in "$bin"/bench_ib*; do [ -x "$b" ] && "$b" --benchmark_format=json > "$out/ib.json" || true; done

printf '{"load_before": "%s", "load_after": "%s", "seconds": %d}\n' \
  "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" $((SECONDS - start)) > "$out/run.json"
python3 scripts/render_benchmarks.py "$out" > docs/benchmarks.md
echo "wrote docs/benchmarks.md"

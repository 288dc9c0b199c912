#!/usr/bin/env bash
# Scrape throughput and latency under concurrent clients (wrk), exporter vs baseline, at 64 and
# 2048 ports of 8-lane modules, with "Accept-Encoding: gzip" as Prometheus sends it. Loopback
# only. Prints a markdown table.
#   scrape_bench.sh PATH/TO/xcvr_e2e_server [DURATION_SECONDS] [CONNECTIONS]
set -euo pipefail
SERVER="$1"
DURATION="${2:-10}"
CONNS="${3:-4}"
command -v wrk >/dev/null || { echo "wrk missing (scripts/setup.sh installs it)" >&2; exit 1; }
WORK="$(mktemp -d /tmp/xcvr-bench-XXXXXX)"
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

start() {  # start ARGS...: sets PID and PORT
  "$SERVER" "$@" >"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 200); do
    PORT="$(awk '/^listening/ {print $2; exit}' "$WORK/server.log")"
    [ -n "$PORT" ] && return 0
    sleep 0.05
  done
  echo "server did not start" >&2; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""; }

# wrk --latency prints "50%  1.23ms"; normalise to milliseconds.
ms() { awk -v p="$1" '$1 == p { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 }
        else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }
        printf "%.2f", v }' "$WORK/wrk.txt"; }

echo "| server | ports | conns | req/s | p50 ms | p99 ms | body gzip | body plain |"
echo "|---|---|---|---|---|---|---|---|"
for ports in 64 2048; do
  for mode in exporter baseline; do
    args=(--ports "$ports" --listen 127.0.0.1:0)
    [ "$mode" = baseline ] && args+=(--baseline)
    start "${args[@]}"
    url="http://127.0.0.1:$PORT/metrics"
    gz=$(curl -s -H 'Accept-Encoding: gzip' "$url" | wc -c)
    plain=$(curl -s "$url" | wc -c)
    wrk -t2 -c"$CONNS" -d"${DURATION}s" --timeout 10s --latency -H 'Accept-Encoding: gzip' "$url" >"$WORK/wrk.txt"
    rps=$(awk '/^Requests\/sec/ {printf "%.1f", $2}' "$WORK/wrk.txt")
    echo "| $mode | $ports | $CONNS | $rps | $(ms 50%) | $(ms 99%) | $gz | $plain |"
    stop
  done
done

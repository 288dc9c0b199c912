# Shared helpers for the exporter e2e scripts (sourced). Loopback only.
set -euo pipefail

E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$E2E_DIR/../.." && pwd)"
WORK="$(mktemp -d /tmp/xcvr-e2e-XXXXXX)"
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 missing (scripts/setup.sh installs it)"; }

# start_server OUTFILE ARGS... : starts xcvr_e2e_server, waits for "listening PORT", sets PORT.
start_server() {
  local out="$1"; shift
  "$SERVER" "$@" >"$out" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 100); do
    PORT="$(awk '/^listening/ {print $2; exit}' "$out")"
    [ -n "$PORT" ] && return 0
    sleep 0.1
  done
  cat "$out" >&2
  fail "server did not start"
}

# A TCP port nothing listens on (best effort, loopback).
free_port() {
  local p
  for _ in $(seq 50); do
    p=$(shuf -i 20000-40000 -n 1)
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  fail "no free port"
}

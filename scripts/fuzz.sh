#!/usr/bin/env bash
# Runs every libFuzzer target (<build>/tests/fuzz_*) over its seeds.
#   fuzz.sh smoke          bounded run per target (CI): 20000 executions or 30 s each, whichever
#                          comes first (SMOKE_SECONDS to change the time bound)
#   fuzz.sh long [SECONDS] longer run per target (default 600 s; FUZZ_RUNS=N also stops a target
#                          after N executions), one process each; corpus kept in
#                          <build>/corpus/<target>, log in <build>/logs/<target>.log, crashing
#                          inputs in <build>/artifacts/
# FUZZ_BUILD picks the build directory (default build/fuzz, as scripts/build.sh fuzz makes);
# FUZZ_TARGETS="fuzz_config fuzz_http_request" runs only those.
# Seeds: dumps from tests/data (decoders, dump parser, netlink, MAD), the TOML files under
# config/ (config target), and the HTTP requests written below (HTTP target).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-smoke}
seconds=${2:-600}
build=${FUZZ_BUILD:-$root/build/fuzz}
case "$build" in /*) ;; *) build="$root/$build" ;; esac
shopt -s nullglob
targets=()
if [ -n "${FUZZ_TARGETS:-}" ]; then
  for name in $FUZZ_TARGETS; do targets+=("$build/tests/$name"); done
else
  targets=("$build"/tests/fuzz_*)
fi
if [ ${#targets[@]} -eq 0 ]; then echo "fuzz: no targets built (scripts/build.sh fuzz)" >&2; exit 1; fi

# Seeds per invocation, so runs of different targets side by side never share (or delete) them.
seeds="$build/seeds.$$"
rm -rf "$seeds"
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds/dumps" "$seeds/toml" "$seeds/http"
# Named after their folder: every dump's raw.txt is called the same.
for f in "$root"/tests/data/*/*; do
  case "$f" in *.md) continue ;; esac
  cp "$f" "$seeds/dumps/$(basename "$(dirname "$f")")-$(basename "$f")"
done
for f in "$root"/config/*.toml "$root"/config/*/*.toml; do
  cp "$f" "$seeds/toml/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# A config that fuzz_config commits through a reload (its state_directory is the target's own).
cat > "$seeds/toml/reload-file-source.toml" <<SEED
[daemon]
state_directory = "/tmp/xcvr-fuzz-reload/state"
catalog = []
[poll]
dynamic_interval = "2s"
settle_delay = 0
[[source]]
type = "file"
[[source.port]]
name = "a"
path = "$root/tests/data/qsfp28-lr4-dell-3mfxg/raw.txt"
SEED
# Requests a scraper, a browser or an attacker sends: keep-alive pipelines, HEAD, bodies,
# ranges, 100-continue, encoded paths, queries, credentials, HTTP/1.0, oversized headers. Every
# HTTP/1.1 request names a Host (the server refuses one without, RFC 9112 §3.2), one seed aside.
http_seed() { printf "$2" > "$seeds/http/$1"; }
http_seed metrics 'GET /metrics HTTP/1.1\r\nHost: sw1:10458\r\nAccept-Encoding: gzip\r\nUser-Agent: Prometheus/2.45.0\r\n\r\n'
http_seed pipeline 'GET / HTTP/1.1\r\nHost: a\r\n\r\nHEAD /metrics HTTP/1.1\r\nHost: a\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'
http_seed api 'GET /api/v1/modules HTTP/1.1\r\nHost: a\r\n\r\nGET /api/v1/modules/spine1%%2FEthernet16?pretty=1&x HTTP/1.1\r\nHost: a\r\n\r\n'
http_seed port 'GET /port/spine1/Ethernet0 HTTP/1.1\r\nHost: a\r\n\r\nGET /port/nope%%00%%ff HTTP/1.1\r\nHost: a\r\n\r\n'
http_seed auth 'GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic cHJvbTp3cm9uZw==\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\nAuthorization: Basic cHJvbQ==\r\n\r\n'
http_seed post 'POST /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\nContent-Type: text/plain\r\n\r\nhello world'
http_seed chunked 'PUT / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'
http_seed range 'GET /metrics HTTP/1.1\r\nHost: a\r\nRange: bytes=0-10,20-30,-5\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nRange: bytes=100-\r\n\r\n'
http_seed expect 'GET /healthz HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi'
http_seed http10 'GET /healthz HTTP/1.0\r\n\r\n'
http_seed no_host 'GET /healthz HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n'
http_seed range_gzip 'GET /metrics HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip;q=0.5, br\r\nRange: bytes=-100\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nAccept-Encoding: *\r\nRange: bytes=0-0\r\n\r\n'
http_seed range_forms 'GET /metrics HTTP/1.1\r\nHost: a\r\nRange: items=0-5\r\n\r\nGET /metrics HTTP/1.1\r\nHost: a\r\nRange: bytes=99999999-\r\n\r\nGET /api/v1/modules HTTP/1.1\r\nHost: a\r\nRange: bytes=5-2\r\nIf-Range: x\r\n\r\n'
http_seed keepalive10 'GET /healthz HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\nGET /metrics HTTP/1.0\r\nconnection: keep-alive, TE\r\n\r\n'
http_seed get_body 'GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 34\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n'
http_seed options 'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\nGET http://a/metrics HTTP/1.1\r\nHost: a\r\n\r\n'
printf 'GET /%s HTTP/1.1\r\nHost: a\r\nX: %s\r\n\r\n' "$(head -c 3000 /dev/zero | tr '\0' a)" \
  "$(head -c 15000 /dev/zero | tr '\0' b)" > "$seeds/http/oversized"

# The state target (fuzz_state): a saved aging.json with a good and a bad entry.
mkdir -p "$seeds/state"
printf '%s' '{"version":2,"modules":{
"A1":{"vendor":"NVIDIA","part_number":"MMA4Z00-NS400","first_seen_unix":1700000000.5,"last_seen_unix":1700000100,"lanes":{"1":{"tx_bias_amperes":0.0065,"tx_power_watts":0.0011},"2":{}}},
"B2":{"vendor":"V","part_number":"P","first_seen_unix":1,"lanes":{"1":{"tx_bias_amperes":"x"}}}
}}' > "$seeds/state/aging.json"

# The recorder target (fuzz_recorder): a saved recorder.json with a good event (two lanes, three
# samples, a flag and a null) and one whose rx power no module could report.
mkdir -p "$seeds/recorder"
python3 - "$seeds/recorder/recorder.json" <<'PY'
import json, sys
def event(rx):
    return {"port": "host/p1", "serial": "S1", "unix": 1800000010.5, "more_triggers": 0, "lanes": 2, "trigger_sample": 1,
            "triggers": [{"kind": "link_down", "detail": "p1: carrier lost", "unix": 1800000010.5}],
            "samples": {"unix": [1800000005, 1800000010.5, 1800000015], "temperature_celsius": [35.5, 35.5, None],
                        "supply_voltage_volts": [3.3001, 3.3, 3.3], "pre_fec_ber": [0.0002, 0.0003, None],
                        "esnr_db": [18.5, 18.25, None], "fec_corrected_per_second": [1000, 12345.5, None],
                        "fec_uncorrectable_per_second": [0, 0, None], "fec_tail_symbols": [3, 9, None],
                        "carrier_up": [True, False, None], "module_state": ["ModuleReady", "ModuleReady", None],
                        "flags": [[], ["rx_los", "vdm_high_warning"], []], "alarm_lanes": [[], [2], []],
                        "active_lanes": [[1, 2], [1], []], "rx_power_watts": [[0.0005, 0.0004], [rx, 0], [None, None]],
                        "tx_power_watts": [[0.0008, 0.0008], [0.0008, 0.0008], [None, None]],
                        "tx_bias_amperes": [[0.0075, 0.0075], [0.0075, 0.0075], [None, None]]}}
lines = [json.dumps(event(0.0005), separators=(",", ":")), json.dumps(event(1.5), separators=(",", ":"))]
open(sys.argv[1], "w").write('{"version":1,"events":[\n' + ",\n".join(lines) + "\n]}\n")
PY

# The process-stats target (fuzz_proc_stat): this machine's own /proc/self/stat line.
mkdir -p "$seeds/proc"
cat /proc/self/stat > "$seeds/proc/self-stat" 2>/dev/null || echo "1 (x) S 1 1 1 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 5 6 7" > "$seeds/proc/self-stat"

# The netlink target (fuzz_netlink_reply): the dumps, and this machine's own rtnetlink answer to
# RTM_GETLINK for lo (its carrier and counts, as the carrier parser meets them), first byte 0
# (no sequence number expected).
mkdir -p "$seeds/netlink"
cp "$seeds"/dumps/* "$seeds/netlink/"
python3 - "$seeds/netlink/getlink-lo" <<'PY' || true
import socket, struct, sys
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
name = b"lo\0"
attr = struct.pack("=HH", 4 + len(name), 3) + name + b"\0" * (-len(name) % 4)
body = struct.pack("=BxHiII", 0, 0, 0, 0, 0) + attr
s.send(struct.pack("=IHHII", 16 + len(body), 18, 0x5, 1, 0) + body)  # RTM_GETLINK, REQUEST|ACK
reply = s.recv(65536) + s.recv(65536)
open(sys.argv[1], "wb").write(b"\0" + reply)
PY

seeds_of() {
  case "$1" in
    fuzz_netlink*) echo "$seeds/netlink" ;;
    fuzz_state) echo "$seeds/state" ;;
    fuzz_recorder) echo "$seeds/recorder" ;;
    fuzz_proc_stat) echo "$seeds/proc" ;;
    fuzz_config) echo "$seeds/toml" ;;
    fuzz_http*) echo "$seeds/http" ;;
    fuzz_sonic*) echo "$root/tests/data/sonic" ;;  # recorded SONiC port_config.ini / platform.json
    *) echo "$seeds/dumps" ;;
  esac
}
max_len_of() {
  case "$1" in
    fuzz_config) echo 16384 ;;  # configs are a few KiB; longer only slows the TOML parser
    fuzz_http*) echo 20000 ;;   # over twice max_request_bytes (8 KiB, daemon/config.hpp WebConfig)
    *) echo 65536 ;;
  esac
}

failed=0
mkdir -p "$build/logs" "$build/artifacts"
for t in "${targets[@]}"; do
  name=$(basename "$t")
  [ -x "$t" ] || { echo "fuzz: $name not built" >&2; failed=1; continue; }
  corpus="$build/corpus/$name"
  mkdir -p "$corpus"
  args=(-max_len="$(max_len_of "$name")" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1
        -artifact_prefix="$build/artifacts/$name-" "$corpus" "$(seeds_of "$name")")
  log="$build/logs/$name.log"
  if [ "$mode" = smoke ]; then
    status=0
    "$t" -runs=20000 -max_total_time="${SMOKE_SECONDS:-30}" "${args[@]}" > "$log" 2>&1 || status=$?
  else
    status=0
    runs_cap=()
    [ -n "${FUZZ_RUNS:-}" ] && runs_cap=(-runs="$FUZZ_RUNS")
    "$t" -max_total_time="$seconds" "${runs_cap[@]}" "${args[@]}" > "$log" 2>&1 || status=$?
  fi
  # Last coverage line and the final stats: executions, coverage, features, corpus.
  stats=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  secs=$(awk '/^Done [0-9]+ runs in/ {for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1)}' "$log" | tail -n 1)
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $name FAILED (exit $status), see $log"
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -n 5 || true
    failed=1
  else
    echo "fuzz: $name ok: ${runs:-?} runs in ${secs:-?} s; $stats"
  fi
done
exit "$failed"

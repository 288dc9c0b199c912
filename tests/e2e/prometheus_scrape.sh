#!/usr/bin/env bash
# A real Prometheus (Debian package) scrapes the exporter and evaluates the shipped rules.
#   prometheus_scrape.sh PATH/TO/xcvr_e2e_server
source "$(dirname "$0")/common.sh"
SERVER="$1"
need prometheus; need curl

start_server "$WORK/server.log" --rich --listen 127.0.0.1:0
EXPORTER_PORT="$PORT"
PROM_PORT="$(free_port)"
cp "$REPO/config/prometheus/alerts.yml" "$REPO/config/prometheus/recording.yml" "$WORK/"
sed -i 's/interval: 1m/interval: 1s/' "$WORK/recording.yml"
cat >"$WORK/prometheus.yml" <<YML
global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: [alerts.yml, recording.yml]
scrape_configs:
  - job_name: transceiver
    static_configs: [{targets: ['127.0.0.1:$EXPORTER_PORT']}]
YML
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/data" \
  --web.listen-address="127.0.0.1:$PROM_PORT" >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
API="http://127.0.0.1:$PROM_PORT/api/v1"
query() { curl -sS --max-time 5 "$API/query" --data-urlencode "query=$1"; }

# Target discovery is throttled: up appears after ~5 s.
for _ in $(seq 60); do
  if query 'up{job="transceiver"} == 1' 2>/dev/null | grep -q '"value"'; then break; fi
  sleep 0.5
done
query 'up{job="transceiver"} == 1' | grep -q '"value"' || { tail -20 "$WORK/prometheus.log"; fail "target never up"; }
curl -sS "$API/targets" | grep -q '"lastError":""' || fail "scrape error"
query 'count(transceiver_module_present)' | grep -q '"8"' || fail "8 module_present series expected"
query 'transceiver_lane_rx_power_watts{port="spine1/Ethernet16",lane="3"}' | grep -q '"0"' || fail "zero rx power"
# Rules load and evaluate: a recording rule has a value, LOS is pending or firing.
for _ in $(seq 30); do
  if query 'instance:transceiver_temperature_celsius:max' | grep -q '"value"' &&
     query 'ALERTS{alertname="TransceiverRxLossOfSignal"}' | grep -q '"value"'; then break; fi
  sleep 1
done
query 'instance:transceiver_temperature_celsius:max' | grep -q '"68"' || fail "recording rule"
query 'ALERTS{alertname="TransceiverRxLossOfSignal",port="spine1/Ethernet16"}' | grep -q '"value"' || fail "LOS alert"
curl -sS "$API/rules" | grep -q '"health":"err"' && fail "a rule failed to evaluate"
# Every dashboard query parses and evaluates ($instance/$port filled in).
grep -o '"expr": ".*"' "$REPO/config/grafana/transceivers.json" | sed -e 's/^"expr": "//' -e 's/"$//' \
  -e 's/\\"/"/g' -e 's/\$instance/.*/g' -e 's/\$port/spine1\/Ethernet16/g' >"$WORK/exprs.txt"
[ "$(wc -l <"$WORK/exprs.txt")" -ge 20 ] || fail "dashboard queries not found"
while IFS= read -r expr; do
  query "$expr" | grep -q '"status":"success"' || fail "dashboard query failed: $expr"
done <"$WORK/exprs.txt"
query '10 * log10(transceiver_lane_rx_power_watts{port="spine1/Ethernet16"} * 1000)' | grep -q '"result":\[{' \
  || fail "dBm query"
echo "PASS prometheus scrape"

#!/usr/bin/env bash
# TLS and basic auth against the real server binary, checked with curl and openssl.
#   tls_auth.sh PATH/TO/xcvr_e2e_server
source "$(dirname "$0")/common.sh"
SERVER="$1"
need openssl; need curl; need promtool

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" -days 2 \
  -subj /CN=localhost -addext "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost" 2>/dev/null
HASH="$("$SERVER" --bcrypt 's3cret')"
case "$HASH" in '$2b$10$'*) ;; *) fail "unexpected bcrypt hash $HASH";; esac
start_server "$WORK/server.log" --rich --listen 127.0.0.1:0 \
  --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem" --user "prom:$HASH"
URL="https://127.0.0.1:$PORT"
CURL=(curl -sS --max-time 10 --cacert "$WORK/cert.pem")

[ "$("${CURL[@]}" "$URL/healthz")" = "ok" ] || fail "/healthz over TLS"
[ "$("${CURL[@]}" -o /dev/null -w '%{http_code}' "$URL/metrics")" = 401 ] || fail "no credentials accepted"
[ "$("${CURL[@]}" -o /dev/null -w '%{http_code}' -u prom:nope "$URL/metrics")" = 401 ] || fail "wrong password accepted"
"${CURL[@]}" -u prom:s3cret --compressed "$URL/metrics" >"$WORK/metrics.txt"
grep -q '^transceiver_module_present{port="spine1/Ethernet0"} 1$' "$WORK/metrics.txt" || fail "metrics body"
promtool check metrics <"$WORK/metrics.txt" || fail "promtool check metrics"
# A handshake below TLS 1.2 and plain HTTP on the TLS port are refused.
if curl -sS --max-time 5 --cacert "$WORK/cert.pem" --tlsv1.1 --tls-max 1.1 "$URL/healthz" 2>/dev/null; then
  fail "TLS 1.1 accepted"
fi
CODE="$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz" 2>/dev/null || true)"
[ "$CODE" != 200 ] || fail "plain HTTP served on the TLS port"
echo | openssl s_client -connect "127.0.0.1:$PORT" -tls1_2 -CAfile "$WORK/cert.pem" 2>/dev/null \
  | grep -q "Verify return code: 0 (ok)" || fail "openssl s_client TLS 1.2 handshake"
# Still serving after the bad clients.
[ "$("${CURL[@]}" "$URL/healthz")" = "ok" ] || fail "server hurt by bad clients"
echo "PASS tls + auth"

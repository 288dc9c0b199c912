#!/usr/bin/env bash
# The shipped Alertmanager files: alertmanager.yml (a dedicated Alertmanager) passes amtool
# check-config; transceiver-route.yml (a child route and the inhibit rules, for an Alertmanager
# that routes other alerts too) passes it merged into a minimal configuration (a root route with
# its own receiver, the snippet's route under it, its inhibit rules), where amtool routes a
# transceiver alert to the child route and any other alert past it; and the two files' inhibit
# rules are the same text.
source "$(dirname "$0")/common.sh"
need amtool
AM="$REPO/config/alertmanager"
amtool check-config "$AM/alertmanager.yml"

# Minimal configuration: the snippet as it is, with a root receiver added to its `route:` and
# the receivers it names defined.
merged="$WORK/merged.yml"
awk '{ print } /^route:$/ { print "  receiver: everything-else" }' "$AM/transceiver-route.yml" >"$merged"
cat >>"$merged" <<'CONF'
receivers:
  - name: everything-else
  - name: transceiver-oncall
    webhook_configs: [{url: "http://127.0.0.1:9095/transceiver"}]
CONF
amtool check-config "$merged"

route() {  # route LABEL=VALUE... -> the receiver amtool picks
  amtool config routes test --config.file="$merged" "$@" 2>/dev/null | tr -d "[:space:]"
}
[ "$(route alertname=TransceiverRxLossOfSignal instance=sw1 port=swp1 severity=critical)" = transceiver-oncall ] \
  || fail "transceiver-route.yml: a transceiver alert does not reach the child route"
[ "$(route alertname=TransceiverSiteFailingModules site=ams1 category=fleet)" = transceiver-oncall ] \
  || fail "transceiver-route.yml: the fleet alert does not reach the child route"
[ "$(route alertname=NodeDown instance=sw1)" = everything-else ] \
  || fail "transceiver-route.yml: an alert of another exporter is caught by the child route"

diff <(sed -n '/^# Derived alerts stay quiet/,$p' "$AM/alertmanager.yml") \
     <(sed -n '/^# Derived alerts stay quiet/,$p' "$AM/transceiver-route.yml") \
  || fail "the inhibit rules of alertmanager.yml and transceiver-route.yml differ"
grep -q '^inhibit_rules:' "$AM/transceiver-route.yml" || fail "transceiver-route.yml has no inhibit_rules"
echo "PASS Alertmanager configuration and child route ($(grep -c 'source_matchers' "$AM/transceiver-route.yml") inhibit rules)"

#!/usr/bin/env bash
# promtool over the shipped rules: syntax (check rules), behaviour (test rules), and coverage:
# every alert of alerts.yml and global.yml has a rules_test.yml case where it fires and one where
# it does not.
source "$(dirname "$0")/common.sh"
need promtool
RULES="$REPO/config/prometheus"
promtool check rules "$RULES/alerts.yml" "$RULES/recording.yml" "$RULES/global.yml" "$RULES/runbook.yml"
cd "$E2E_DIR" && promtool test rules rules_test.yml
# "alertname: X" followed by "exp_alerts: []" (quiet) or "exp_alerts:" with entries (fires).
awk '/alertname:/ { name = $2; next }
     name != "" && /exp_alerts:/ { print name, ($0 ~ /\[\]/ ? "quiet" : "fires"); name = "" }' \
  rules_test.yml | sort -u >"$WORK/cases.txt"
for alert in $(awk '/- alert:/ {print $3}' "$RULES/alerts.yml" "$RULES/global.yml"); do
  for kind in fires quiet; do
    grep -qx "$alert $kind" "$WORK/cases.txt" || fail "rules_test.yml: no case where $alert $kind"
  done
done
echo "PASS promtool rules ($(awk '/- alert:/' "$RULES/alerts.yml" "$RULES/global.yml" | wc -l) alerts, each firing and quiet)"

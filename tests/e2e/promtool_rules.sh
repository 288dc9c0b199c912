#!/usr/bin/env bash
# promtool over the shipped rules: syntax (check rules) and behaviour (test rules).
source "$(dirname "$0")/common.sh"
need promtool
promtool check rules "$REPO/config/prometheus/alerts.yml" "$REPO/config/prometheus/recording.yml"
cd "$E2E_DIR" && promtool test rules rules_test.yml
echo "PASS promtool rules"

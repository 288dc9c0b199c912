#!/usr/bin/env bash
# lintian over the built .deb: no errors. Warnings and info tags are printed for the log (and
# listed in docs/installation.md); overrides live in packaging/lintian-overrides.
#   deb_lintian.sh DEB_DIR
source "$(dirname "$0")/common.sh"
dir="$1"
need lintian
shopt -s nullglob
debs=("$dir"/*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one .deb in $dir (the packaging_deb_build test makes it)"
rc=0
out=$(lintian --display-info --tag-display-limit 0 --fail-on error "${debs[0]}" 2>&1) || rc=$?
# 0: no errors, 2: errors (reported below); anything else: lintian itself failed.
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { echo "$out" >&2; fail "lintian exited $rc"; }
echo "${out:-lintian: no tags}"
errors=$(grep -c '^E: ' <<<"$out" || true)
warnings=$(grep -c '^W: ' <<<"$out" || true)
echo "lintian: $errors errors, $warnings warnings"
[ "$errors" -eq 0 ] || fail "lintian reported $errors errors"
echo "deb_lintian: OK"

#!/usr/bin/env bash
# The man pages (as gzipped for the package) render with man -l and no groff/man warnings, and
# carry the sections operators look for.
#   man_render.sh BUILT_MAN_DIR   (holds transceiver_exporter.8.gz and xcvrctl.8.gz)
source "$(dirname "$0")/common.sh"
dir="$1"
need man groff gzip
for page in transceiver_exporter xcvrctl; do
  gz="$dir/$page.8.gz"
  [ -f "$gz" ] || fail "$gz missing (the xcvr_packaging_files target builds it)"
  gzip -t "$gz" || fail "$gz is not valid gzip"
  err=$(mktemp); out=$(mktemp)
  LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$gz" >"$out" 2>"$err" || { cat "$err" >&2; fail "man -l $gz failed"; }
  if [ -s "$err" ]; then cat "$err" >&2; fail "man -l $gz printed warnings"; fi
  for section in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" FILES "SEE ALSO"; do
    grep -q "^$section" "$out" || fail "$page(8) has no $section section"
  done
  grep -q '@PROJECT_VERSION@' "$out" && fail "$page(8): version not substituted"
  lines=$(wc -l <"$out")
  echo "$page(8): renders, $lines lines"
  rm -f "$err" "$out"
done
# Every option the daemon accepts is documented.
zcat "$dir/transceiver_exporter.8.gz" | grep -q 'web.listen' || fail "transceiver_exporter(8) lacks --web.listen-address"
for opt in config check\\\\-config textfile log\\\\-level version; do
  zcat "$dir/transceiver_exporter.8.gz" | grep -q -- "\\\\-\\\\-$opt" || fail "transceiver_exporter(8) lacks --$opt"
done
echo "man_render: OK"

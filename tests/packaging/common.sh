# Shared helpers for the packaging tests (sourced). Every tool they use is installed by
# scripts/setup.sh, so a missing tool is a failure, never a skip.
set -euo pipefail

UNIT=transceiver-exporter.service

fail() { echo "FAIL: $*" >&2; exit 1; }
need() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null || fail "$t missing (scripts/setup.sh installs it)"
  done
}

# make_unit_root ROOT: completes ROOT (which already holds the unit and the binary it starts)
# with what `systemd-analyze verify --root` resolves besides them: the host's stock units
# (targets, modprobe@.service) and /bin/kill (ExecReload).
make_unit_root() {
  local root="$1" f
  mkdir -p "$root/lib/systemd/system" "$root/bin"
  for f in /lib/systemd/system/*; do
    [ -e "$root/lib/systemd/system/$(basename "$f")" ] || cp -a "$f" "$root/lib/systemd/system/"
  done
  [ -e "$root/bin/kill" ] || cp /bin/kill "$root/bin/kill"
}

# verify_unit ROOT: systemd-analyze verify of the unit inside ROOT; any diagnostic fails.
# MANPATH points at ROOT's man pages so Documentation=man:... is checked against them.
verify_unit() {
  local root="$1" out
  if [ -d "$root/usr/share/man" ]; then
    out=$(cd "$root" && MANPATH="$root/usr/share/man" systemd-analyze verify --root="$root" "$UNIT" 2>&1) \
      || { echo "$out" >&2; fail "systemd-analyze verify exited non-zero"; }
  else
    out=$(cd "$root" && systemd-analyze verify --man=no --root="$root" "$UNIT" 2>&1) \
      || { echo "$out" >&2; fail "systemd-analyze verify exited non-zero"; }
  fi
  # verify exits 0 on unknown keys and bad values (it only warns): treat any output as failure.
  [ -z "$out" ] || { echo "$out" >&2; fail "systemd-analyze verify reported problems"; }
  echo "systemd-analyze verify: clean"
}

# exposure ROOT: prints the `systemd-analyze security` overall exposure (0.0-10.0).
exposure() {
  local root="$1" out level
  out=$(cd "$root" && systemd-analyze security --offline=yes --root="$root" "$UNIT" 2>&1) \
    || { echo "$out" >&2; fail "systemd-analyze security --offline=yes failed"; }
  level=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
  [ -n "$level" ] || { echo "$out" >&2; fail "no exposure level in systemd-analyze security output"; }
  echo "$level"
}

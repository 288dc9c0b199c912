#!/usr/bin/env bash
# systemd/transceiver-exporter.service: `systemd-analyze verify` is clean against the built
# binary, the `systemd-analyze security --offline` exposure is at most 3.0 (docs record it),
# and the unit keeps the hardening facts every transport depends on.
#   unit_verify.sh SOURCE_DIR DAEMON_BINARY
source "$(dirname "$0")/common.sh"
src="$1"; daemon="$2"
need systemd-analyze
[ -x "$daemon" ] || fail "daemon binary $daemon missing (build the transceiver_exporter target)"
unit_file="$src/systemd/$UNIT"

root=$(mktemp -d /tmp/xcvr-unit-XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/lib/systemd/system" "$root/usr/bin"
cp "$unit_file" "$root/lib/systemd/system/$UNIT"
cp "$daemon" "$root/usr/bin/transceiver_exporter"
make_unit_root "$root"
verify_unit "$root"

level=$(exposure "$root")
echo "systemd-analyze security exposure: $level"
awk -v l="$level" 'BEGIN { exit !(l <= 3.0) }' || fail "exposure $level > 3.0"
grep -q "exposure level.*\b$level\b" "$src/docs/installation.md" \
  || fail "docs/installation.md does not record the exposure level $level"

# Each shipped drop-in (systemd/*.conf) on top of the unit: still clean, still <= 3.0, and the
# figure docs/installation.md gives for it.
mkdir -p "$root/etc/systemd/system/$UNIT.d"
for dropin in "$src"/systemd/*.conf; do
  name=$(basename "$dropin")
  rm -f "$root/etc/systemd/system/$UNIT.d/"*
  cp "$dropin" "$root/etc/systemd/system/$UNIT.d/$name"
  verify_unit "$root"
  l=$(exposure "$root")
  echo "exposure with $name: $l"
  awk -v l="$l" 'BEGIN { exit !(l <= 3.0) }' || fail "exposure $l > 3.0 with $name"
  grep -q "\`$name\` $l\b" "$src/docs/installation.md" \
    || fail "docs/installation.md does not record the exposure $l with $name"
done
rm -rf "$root/etc/systemd/system/$UNIT.d"

# Facts from the systemd research (prometheus-conventions.md section 6) the unit must keep.
has()    { grep -Eq "^$1\$" "$unit_file" || fail "unit lacks '$1'"; }
hasnot() { ! grep -Eq "^$1" "$unit_file" || fail "unit must not have '$1'"; }
has 'Type=notify'
has 'WatchdogSec=[0-9]+s?'
has 'RestartPreventExitStatus=2'   # a refused config: restarting cannot fix it
has 'ExecReload=/bin/kill -HUP \$MAINPID'
has 'User=transceiver-exporter'
has 'SupplementaryGroups=i2c'
has 'DeviceAllow=char-i2c rw'
has 'DevicePolicy=closed'
has 'CapabilityBoundingSet=CAP_NET_ADMIN'
has 'AmbientCapabilities=CAP_NET_ADMIN'
has 'NoNewPrivileges=yes'
has 'ProtectSystem=strict'
has 'StateDirectory=transceiver-exporter'
has 'ReadWritePaths=-/run/lock/transceiver-exporter'
has 'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK'
has 'SystemCallFilter=@system-service'
hasnot 'DeviceAllow=/dev/i2c'          # globs are invalid in device paths
hasnot 'PrivateDevices=(yes|true|1)'   # hides /dev/i2c-* and umad
hasnot 'PrivateNetwork=(yes|true|1)'   # hides the host's NICs and netlink
hasnot 'PrivateUsers=(yes|true|1)'     # voids group i2c and CAP_NET_ADMIN
hasnot 'DynamicUser=(yes|true|1)'      # the sysusers.d user owns the state and lock files
grep -q '^ExecStart=/usr/bin/transceiver_exporter ' "$unit_file" || fail "ExecStart must run /usr/bin/transceiver_exporter"
echo "unit_verify: OK"

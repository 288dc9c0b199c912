#!/usr/bin/env bash
# Real-kernel test of the ethtool netlink transport, netlink discovery and the daemon following
# netdevs (vm_lib.sh boots the guest): Debian's kernel reads module memory through its own
# ethtool netlink code (net/ethtool/eeprom.c) from the project's test-only NIC
# (kmod/xcvr_test_nic.c, built here against Debian's linux-headers for that kernel).
# The guest's /init:
#   1. vm_netlink_test (see vm_netlink_test.cpp): discovery finds exactly the NIC (not lo, not a
#      dummy netdev); a CMIS module read through get_module_eeprom_by_page equals the emulated
#      source; the kernel's validation errors come back as the right error kinds.
#   2. The daemon with the shipped config/config.toml, unedited: it exports the NIC's module
#      under the netdev's name, follows a rename and an emptied cage, drops the port when the
#      netdev is removed and finds it again when a NIC appears — now one that serves only the
#      legacy get_module_info/get_module_eeprom ops, as mlxsw does (its QSFP28 dump, page 03h included), read through the kernel's
#      fallback.
#
# usage: run_qemu_netlink_test.sh VM_TEST_BINARY DAEMON_BINARY WORK_DIR   (env: see vm_lib.sh)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
source "$here/vm_lib.sh"

[ $# -eq 3 ] || fail "usage: $0 VM_TEST_BINARY DAEMON_BINARY WORK_DIR"
vm_init "$3"
vm_add_module dummy
vm_install_modules
vm_add_binary "$1" vm_netlink_test
vm_add_binary "$2" transceiver_exporter

# The test NIC, built against the headers of the kernel the guest boots.
headers=/usr/src/linux-headers-$kver
[ -d "$headers" ] || headers=/lib/modules/$kver/build
[ -r "$headers/Makefile" ] ||
  fail "no kernel headers for $kver (apt-get install linux-headers-amd64; scripts/setup.sh)"
mkdir -p "$work/kmod"
cp "$here/kmod/xcvr_test_nic.c" "$here/kmod/Kbuild" "$work/kmod/"
make -s -C "$headers" M="$work/kmod" modules >"$work/kmod/build.log" 2>&1 ||
  { cat "$work/kmod/build.log"; fail "building the test NIC module failed"; }
cp "$work/kmod/xcvr_test_nic.ko" "$root/lib/xcvr/"

mkdir -p "$root/etc/transceiver-exporter" "$root/data" "$root/var/lib/transceiver-exporter"
cp "$repo/config/config.toml" "$root/etc/transceiver-exporter/config.toml"
cp "$repo/tests/data/qsfp28-sr4-mellanox-mma1b00-mlxsw/raw.txt" "$root/data/qsfp28-sr4-mlxsw.txt"

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
. /lib/xcvr/guest.sh
mount -t debugfs debugfs /sys/kernel/debug
for m in $(cat $M/modules); do
  case "$m" in dummy.ko) insmod $M/$m numdummies=1 ;; *) insmod $M/$m ;; esac || echo "insmod $m failed"
done
ip link set lo up
insmod $M/xcvr_test_nic.ko ports=2 || echo "insmod xcvr_test_nic failed"
status=0
t() { /bin/vm_netlink_test "$@" || status=1; }
CMIS=osfp-800g-2xsr4-finned
t image $CMIS
t discover eth0 eth1
t read eth0 $CMIS by_page
t errors eth0

# --- the daemon, shipped config ---
echo "XCVR-QEMU phase daemon"
/bin/transceiver_exporter --config /etc/transceiver-exporter/config.toml >/tmp/daemon.log 2>&1 &
daemon=$!
scrape() { wget -q -O - http://127.0.0.1:10458/metrics 2>/dev/null; }
# expect WHAT PATTERN yes|no: waits (up to 120 s of guest time) until /metrics has / lacks a line.
expect() {
  i=0
  while [ $i -lt 600 ]; do
    if out=$(scrape); then
      if echo "$out" | grep -qE "$2"; then [ "$3" = yes ] && { echo "  ok   $1"; return 0; }
      else [ "$3" = no ] && { echo "  ok   $1"; return 0; }; fi
    fi
    sleep 0.2
    i=$((i + 1))
  done
  echo "  FAIL $1 (/metrics $([ "$3" = yes ] && echo lacks || echo still has) /$2/)"
  status=1
}
logged() {  # WHAT PATTERN MIN [MAX]: the daemon's log has MIN (to MAX) lines matching PATTERN
  n=$(grep -cE "$2" /tmp/daemon.log)
  if [ "$n" -ge "$3" ] && [ "$n" -le "${4:-$3}" ]; then echo "  ok   $1 ($n)"
  else echo "  FAIL $1 ($n log lines /$2/, want $3-${4:-$3})"; status=1; fi
}
present() { echo "transceiver_module_present\\{[^}]*port=\"$1\"[^}]*\\} $2"; }
expect "eth0 exported, module present" "$(present eth0 1)" yes
expect "eth1 exported, module present" "$(present eth1 1)" yes
expect "eth0 identity" 'transceiver_module_info\{[^}]*port="eth0"' yes
expect "lo not a port" 'port="lo"' no
expect "dummy0 not a port" 'port="dummy0"' no
ip link set eth1 name fab1
expect "renamed: fab1 exported" "$(present fab1 1)" yes
expect "renamed: eth1 gone" 'port="eth1"' no
logged "renamed: eth0 kept its poller" 'netdevs changed: 1 ports kept running, 1 built anew' 1
logged "renamed: eth0's module inserted once" 'port eth0: module inserted' 1
: > /sys/kernel/debug/xcvr_test/image
t empty fab1
expect "emptied cage: fab1 empty" "$(present fab1 0)" yes
rmmod xcvr_test_nic
expect "removed: fab1 gone" 'port="fab1"' no
expect "removed: eth0 gone" 'port="eth0"' no
insmod $M/xcvr_test_nic.ko legacy=1 || echo "insmod xcvr_test_nic legacy=1 failed"
t image /data/qsfp28-sr4-mlxsw.txt
t read eth0 /data/qsfp28-sr4-mlxsw.txt legacy
expect "appeared (legacy ops): eth0 exported" "$(present eth0 1)" yes
# rename, removal (the two netdevs go one after the other: seen as one or two changes), arrival
logged "every change logged" 'netdevs changed, discovering again' 3 4
expect "a netdev change is no config reload" 'transceiver_exporter_config_last_reload_timestamp_seconds' no
kill $daemon
echo "--- daemon log ---"; cat /tmp/daemon.log; echo "---"
if [ $status -eq 0 ]; then echo "XCVR-QEMU: PASS"; else echo "XCVR-QEMU: FAIL"; fi
poweroff -f
EOF
chmod +x "$root/init"

XCVR_QEMU_MEMORY=${XCVR_QEMU_MEMORY:-768} vm_boot

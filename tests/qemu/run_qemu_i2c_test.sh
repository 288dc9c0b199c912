#!/usr/bin/env bash
# Real-kernel test of the i2c-dev transport: boots Debian's kernel (linux-image-amd64) under
# qemu-system-x86_64 with TCG and an initramfs built here from busybox-static, the kernel's own
# i2c-dev, i2c-stub and at24 modules (+ their modules.dep dependencies) and vm_i2c_test with its
# shared libraries. The guest's /init runs vm_i2c_test once per phase (see vm_i2c_test.cpp),
# reloading i2c-stub with a different functionality mask between phases, prints
# "XCVR-QEMU: PASS" or "XCVR-QEMU: FAIL" and powers off.
#
# usage: run_qemu_i2c_test.sh VM_TEST_BINARY WORK_DIR
# env:   XCVR_QEMU_KERNEL=/boot/vmlinuz-...  (default: the newest /boot/vmlinuz-*)
#        XCVR_QEMU_TIMEOUT=500               (seconds; a guard against a hung guest only)
# Missing qemu, kernel, modules or busybox is a FAILURE, not a skip: scripts/setup.sh installs
# them (qemu-system-x86 linux-image-amd64 busybox-static cpio kmod).
set -euo pipefail

fail() { echo "XCVR-QEMU: FAIL $*" >&2; exit 1; }

[ $# -eq 2 ] || fail "usage: $0 VM_TEST_BINARY WORK_DIR"
bin=$1
work=$2
[ -x "$bin" ] || fail "test binary $bin missing"

qemu=$(command -v qemu-system-x86_64 || true)
[ -n "$qemu" ] || fail "qemu-system-x86_64 not found (apt-get install qemu-system-x86; scripts/setup.sh)"
for tool in cpio gzip ldd; do
  command -v "$tool" >/dev/null || fail "$tool not found (scripts/setup.sh installs cpio)"
done

kernel=${XCVR_QEMU_KERNEL:-}
if [ -z "$kernel" ]; then
  kernel=$(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1 || true)
fi
[ -n "$kernel" ] && [ -r "$kernel" ] ||
  fail "no readable kernel in /boot (apt-get install linux-image-amd64; scripts/setup.sh)"
kver=${kernel##*/vmlinuz-}
moddir=/lib/modules/$kver
[ -r "$moddir/modules.dep" ] || fail "$moddir/modules.dep missing for kernel $kernel"

busybox=""
for b in /bin/busybox /usr/bin/busybox; do
  if [ -x "$b" ]; then busybox=$b; break; fi
done
[ -n "$busybox" ] || fail "busybox not found (apt-get install busybox-static)"

rm -rf "$work"
mkdir -p "$work/root"/{bin,dev,proc,sys,run/lock,tmp,lib/xcvr}
root=$work/root

# --- kernel modules: each wanted module and its modules.dep dependencies, dependencies first ---
declare -A seen=()
order=()
add_module() {  # $1: path relative to $moddir as in modules.dep
  local rel=$1 line deps d
  [ -n "${seen[$rel]:-}" ] && return 0
  seen[$rel]=1
  line=$(grep -E "^${rel//./\\.}:" "$moddir/modules.dep" || true)
  deps=${line#*:}
  for d in $deps; do add_module "$d"; done
  order+=("$rel")
}
find_module() {  # $1: module name (i2c-dev); prints its modules.dep path or nothing
  grep -oE "^[^:]*/$1\.ko(\.xz|\.zst|\.gz)?:" "$moddir/modules.dep" | head -n 1 | tr -d :
}
for name in i2c-dev i2c-stub; do
  rel=$(find_module "$name")
  if [ -z "$rel" ]; then
    # Built into the kernel (CONFIG_*=y) needs no module.
    grep -qE "/$name\.ko" "$moddir/modules.builtin" 2>/dev/null && continue
    fail "kernel module $name not found under $moddir"
  fi
  add_module "$rel"
done
at24=$(find_module at24 || true)
[ -n "$at24" ] && add_module "$at24"

: >"$root/lib/xcvr/modules"
for rel in "${order[@]}"; do
  src=$moddir/$rel
  base=$(basename "$rel")
  name=${base%%.ko*}.ko
  case "$base" in
    *.ko.xz) xz -dc "$src" >"$root/lib/xcvr/$name" || fail "cannot decompress $src (xz-utils)" ;;
    *.ko.zst) zstd -qdc "$src" >"$root/lib/xcvr/$name" || fail "cannot decompress $src (zstd)" ;;
    *.ko.gz) gzip -dc "$src" >"$root/lib/xcvr/$name" ;;
    *) cp "$src" "$root/lib/xcvr/$name" ;;
  esac
  echo "$name" >>"$root/lib/xcvr/modules"
done

# --- busybox and the test binary with its shared libraries ---
cp "$busybox" "$root/bin/busybox"
strip -o "$root/bin/vm_i2c_test" "$bin" 2>/dev/null || cp "$bin" "$root/bin/vm_i2c_test"
copy_libs() {  # a static binary has none ("not a dynamic executable")
  local lib
  for lib in $( (ldd "$1" 2>/dev/null || true) | grep -oE '/[^ ]+' || true); do
    [ -e "$lib" ] || continue
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}
copy_libs "$bin"
copy_libs "$busybox"

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "XCVR-QEMU: guest up, kernel $(uname -r)"
M=/lib/xcvr
for m in $(cat $M/modules); do
  case "$m" in i2c-stub.ko|at24.ko) ;; *) insmod $M/$m || echo "insmod $m failed" ;; esac
done
STUB="chip_addr=0x50 bank_reg=0x7f bank_mask=0xff bank_start=0x80 bank_end=0xff"
status=0
run() {  # phase, i2c-stub functionality (empty: the stub's default)
  if [ -n "$2" ]; then insmod $M/i2c-stub.ko $STUB functionality=$2; else insmod $M/i2c-stub.ko $STUB; fi
  i=0; while [ ! -e /dev/i2c-0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  /bin/vm_i2c_test "$1" || status=1
  rmmod i2c-stub
}
# byte data 0x180000 | word data 0x600000; byte data only; the default (with I2C block)
run word 0x780000
run byte 0x180000
run block ""
run absent ""
if [ -e $M/at24.ko ]; then
  insmod $M/i2c-stub.ko $STUB
  insmod $M/at24.ko
  echo 24c02 0x50 > /sys/bus/i2c/devices/i2c-0/new_device
  /bin/vm_i2c_test ebusy || status=1
  echo 0x50 > /sys/bus/i2c/devices/i2c-0/delete_device
  rmmod i2c-stub
else
  echo "XCVR-QEMU phase ebusy: not run (no at24 module in this kernel)"
fi
if [ $status -eq 0 ]; then echo "XCVR-QEMU: PASS"; else echo "XCVR-QEMU: FAIL"; fi
poweroff -f
EOF
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"
[ -s "$work/initrd.gz" ] || fail "empty initramfs"

echo "qemu: kernel $kernel, initramfs $(du -h "$work/initrd.gz" | cut -f1), modules: ${order[*]}"
start=$(date +%s)
set +e
timeout "${XCVR_QEMU_TIMEOUT:-500}" "$qemu" -accel tcg -cpu max -m 512 -smp 1 \
  -kernel "$kernel" -initrd "$work/initrd.gz" \
  -append "console=ttyS0 panic=-1 quiet loglevel=3" \
  -nographic -no-reboot -monitor none -serial stdio -display none -nodefaults \
  </dev/null >"$work/console.log" 2>&1
rc=$?
set -e
end=$(date +%s)
tr -d '\r' <"$work/console.log"
echo "qemu: exit $rc after $((end - start)) s"
grep -q "^XCVR-QEMU: PASS" <(tr -d '\r' <"$work/console.log") || fail "no PASS line from the guest (qemu exit $rc)"
echo "XCVR-QEMU: PASS (host)"

#!/usr/bin/env bash
# Real-kernel test of the i2c-dev transport (vm_lib.sh boots the guest): Debian's kernel with its
# own i2c-dev, i2c-stub and at24 modules and vm_i2c_test. The guest's /init runs vm_i2c_test
# once per phase (see vm_i2c_test.cpp), reloading i2c-stub with a different functionality mask
# between phases, prints "XCVR-QEMU: PASS" or "XCVR-QEMU: FAIL" and powers off.
#
# usage: run_qemu_i2c_test.sh VM_TEST_BINARY WORK_DIR   (env: see vm_lib.sh)
set -euo pipefail

source "$(dirname "$0")/vm_lib.sh"

[ $# -eq 2 ] || fail "usage: $0 VM_TEST_BINARY WORK_DIR"
vm_init "$2"
vm_add_module i2c-dev
vm_add_module i2c-stub
vm_add_module at24 optional || true
vm_install_modules
vm_add_binary "$1" vm_i2c_test

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
. /lib/xcvr/guest.sh
for m in $(cat $M/modules); do
  case "$m" in i2c-stub.ko|at24.ko) ;; *) insmod $M/$m || echo "insmod $m failed" ;; esac
done
STUB="chip_addr=0x50 bank_reg=0x7f bank_mask=0xff bank_start=0x80 bank_end=0xff"
status=0
stub() {  # [functionality=...]: loads i2c-stub with a chip at 0x50, waits for /dev/i2c-0
  insmod $M/i2c-stub.ko $STUB "$@"
  i=0; while [ ! -e /dev/i2c-0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
}
run() {  # phase, i2c-stub functionality (empty: the stub's default)
  if [ -n "$2" ]; then stub functionality=$2; else stub; fi
  /bin/vm_i2c_test "$1" || status=1
  rmmod i2c-stub
}
# byte data 0x180000 | word data 0x600000; byte data only; the default (with I2C block)
run word 0x780000
run byte 0x180000
run block ""
run absent ""
if [ -e $M/at24.ko ]; then
  insmod $M/at24.ko
  at24() {  # phase [seed phase]: at24 bound at 0x50 while the phase runs
    stub
    [ -n "$2" ] && { /bin/vm_i2c_test "$2" || status=1; }
    echo 24c02 0x50 > /sys/bus/i2c/devices/i2c-0/new_device
    /bin/vm_i2c_test "$1" || status=1
    echo 0x50 > /sys/bus/i2c/devices/i2c-0/delete_device
    rmmod i2c-stub
  }
  at24 ebusy
  at24 at24 seed-flat
else
  echo "XCVR-QEMU phases ebusy, at24: not run (no at24 module in this kernel)"
fi
if [ $status -eq 0 ]; then echo "XCVR-QEMU: PASS"; else echo "XCVR-QEMU: FAIL"; fi
poweroff -f
EOF
chmod +x "$root/init"

vm_boot

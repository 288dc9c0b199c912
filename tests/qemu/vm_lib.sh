# Sourced by the tests/qemu runners: boots Debian's kernel (linux-image-amd64) under
# qemu-system-x86_64 with TCG and an initramfs built here from busybox-static, kernel modules
# (+ their modules.dep dependencies) and test binaries with their shared libraries. The runner
# writes $root/init (starting with ". /lib/xcvr/guest.sh"), which prints "XCVR-QEMU: PASS" or
# "XCVR-QEMU: FAIL" and powers off.
#
# env: XCVR_QEMU_KERNEL=/boot/vmlinuz-...  (default: the newest /boot/vmlinuz-*)
#      XCVR_QEMU_TIMEOUT=500               (seconds; a guard against a hung guest only)
# Missing qemu, kernel, modules or busybox is a FAILURE, not a skip: scripts/setup.sh installs
# them (qemu-system-x86 linux-image-amd64 busybox-static cpio kmod).

fail() { echo "XCVR-QEMU: FAIL $*" >&2; exit 1; }

# vm_init WORK_DIR: checks the tools, picks the kernel ($kernel, $kver, $moddir), makes $root.
vm_init() {
  work=$1
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
  declare -gA vm_seen=()
  vm_order=()
  cp "$busybox" "$root/bin/busybox"
  vm_copy_libs "$busybox"
  # What every /init starts with (". /lib/xcvr/guest.sh"): the shell's tools, the kernel's
  # filesystems, and the line that says the guest is up.
  cat >"$root/lib/xcvr/guest.sh" <<'GUEST'
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "XCVR-QEMU: guest up, kernel $(uname -r)"
M=/lib/xcvr
GUEST
}

vm_add_dep() {  # $1: path relative to $moddir as in modules.dep; dependencies first
  local rel=$1 line deps d
  [ -n "${vm_seen[$rel]:-}" ] && return 0
  vm_seen[$rel]=1
  line=$(grep -E "^${rel//./\\.}:" "$moddir/modules.dep" || true)
  deps=${line#*:}
  for d in $deps; do vm_add_dep "$d"; done
  vm_order+=("$rel")
}

# vm_add_module NAME [optional]: the kernel's module NAME (i2c-dev) and its dependencies, into
# /lib/xcvr in load order. Built in (CONFIG_*=y): nothing to add. Missing: a failure, unless
# `optional` (then returns 1).
vm_add_module() {
  local rel
  rel=$(grep -oE "^[^:]*/$1\.ko(\.xz|\.zst|\.gz)?:" "$moddir/modules.dep" | head -n 1 | tr -d : || true)
  if [ -z "$rel" ]; then
    grep -qE "/$1\.ko" "$moddir/modules.builtin" 2>/dev/null && return 0
    [ "${2:-}" = optional ] && return 1
    fail "kernel module $1 not found under $moddir"
  fi
  vm_add_dep "$rel"
}

# Decompresses the added modules into $root/lib/xcvr; their names, in load order, into
# $root/lib/xcvr/modules.
vm_install_modules() {
  local rel src base name
  : >"$root/lib/xcvr/modules"
  for rel in "${vm_order[@]}"; do
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
}

vm_copy_libs() {  # a static binary has none ("not a dynamic executable")
  local lib
  for lib in $( (ldd "$1" 2>/dev/null || true) | grep -oE '/[^ ]+' || true); do
    [ -e "$lib" ] || continue
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}

vm_add_binary() {  # SOURCE NAME: /bin/NAME in the guest, stripped, with its shared libraries
  [ -x "$1" ] || fail "binary $1 missing"
  strip -o "$root/bin/$2" "$1" 2>/dev/null || cp "$1" "$root/bin/$2"
  vm_copy_libs "$1"
}

# vm_boot: packs $root (with its /init) and boots it; passes when the guest printed
# "XCVR-QEMU: PASS". The console log is printed and kept in $work/console.log.
vm_boot() {
  [ -x "$root/init" ] || fail "the runner wrote no /init"
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"
  [ -s "$work/initrd.gz" ] || fail "empty initramfs"
  echo "qemu: kernel $kernel, initramfs $(du -h "$work/initrd.gz" | cut -f1), modules: ${vm_order[*]}"
  local start end rc
  start=$(date +%s)
  set +e
  timeout "${XCVR_QEMU_TIMEOUT:-500}" "$qemu" -accel tcg -cpu max -m "${XCVR_QEMU_MEMORY:-512}" -smp 1 \
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
}

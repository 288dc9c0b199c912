#!/usr/bin/env bash
# Installs every Debian package the build, the demo and the tests need. Idempotent:
# packages already present are skipped, so a second run does nothing.
set -euo pipefail

PACKAGES=(
  # toolchain and build
  build-essential cmake ninja-build pkg-config git ca-certificates python3 curl
  # tests, fuzzing, benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev
  # libraries (design.md's chosen set)
  nlohmann-json3-dev libcli11-dev
  # emulator fleet and fault timelines, daemon config (TOML)
  libtomlplusplus-dev
  # daemon: logging, systemd notify/watchdog
  libspdlog-dev libsystemd-dev
  # exporter: HTTP(S) server, metrics, basic auth
  libcpp-httplib-dev prometheus-cpp-dev libssl-dev zlib1g-dev libcrypt-dev
  # exporter tests: promtool (check metrics/rules, test rules), a real Prometheus and
  # Alertmanager (amtool), TLS via curl, scrape benchmark
  prometheus prometheus-alertmanager curl openssl wrk
  # transports: i2c-dev (libi2c), ethtool netlink (libmnl)
  libi2c-dev libmnl-dev
  # real-kernel i2c test (tests/qemu): Debian's kernel under qemu with an initramfs of busybox,
  # i2c-dev and i2c-stub
  qemu-system-x86 linux-image-amd64 busybox-static cpio kmod xz-utils zstd
  # coding checks (vendor_oui): the IEEE OUI registry
  ieee-data
  # InfiniBand MAD transport (libibumad); libibmad: the MAD golden tests' independent encoder
  libibumad-dev libibmad-dev
  # real-IB-stack test (tests/e2e/ibsim_fabric.py): the ibsim fabric simulator, its umad2sim
  # preload library, and OpenSM (--once) to assign the simulated fabric's LIDs
  ibsim-utils libumad2sim0 opensm
  # packaging tests (tests/packaging): systemd-analyze verify/security, the .deb (cpack +
  # dpkg-shlibdeps), lintian, man -l, bash completion, strace and pgrep (syscall filter), file
  systemd dpkg-dev lintian man-db groff-base bash-completion strace procps file init-system-helpers
  # exporter e2e: the landing page rendered by headless Chromium (JavaScript off)
  chromium
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

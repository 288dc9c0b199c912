#!/usr/bin/env bash
# Installs the Debian packages one purpose needs. Idempotent: packages already present are
# skipped, so a second run installs nothing.
#   bash scripts/setup.sh demo   build and run the daemon and xcvrctl (scripts/demo.sh)
#   bash scripts/setup.sh [test] everything: the demo set plus the tests', fuzzing's and
#                                benchmarks' tools (scripts/test.sh, .ci/run)
# Prints "setup: installed N packages" (N counts dependencies too).
set -euo pipefail

# Building and running transceiver_exporter and xcvrctl: the compiler and the libraries
# CMakeLists.txt finds (tests and benchmarks off). Under 100 packages with their dependencies on
# a fresh Debian 12 (tests/scripts/demo_setup.py keeps the test tools out of it).
DEMO_PACKAGES=(
  # toolchain: CMake with Ninja (no make, no dpkg-dev); pkgconf provides pkg-config
  g++ cmake ninja-build pkgconf
  # libraries (design.md's chosen set)
  nlohmann-json3-dev libcli11-dev
  # emulator fleet and fault timelines, daemon config (TOML)
  libtomlplusplus-dev
  # daemon: logging, systemd notify/watchdog
  libspdlog-dev libsystemd-dev
  # exporter: HTTP(S) server, metrics, basic auth
  libcpp-httplib-dev prometheus-cpp-dev libssl-dev zlib1g-dev libcrypt-dev
  # exporter: gzip of /metrics (faster and smaller than zlib at level 1: docs/benchmarks.md)
  libdeflate-dev
  # transports: ethtool netlink (libmnl), InfiniBand MADs (libibumad); i2c-dev needs only the
  # kernel headers
  libmnl-dev libibumad-dev
)

# Everything else the build flavours and the tests use, on top of the demo set.
TEST_PACKAGES=(
  "${DEMO_PACKAGES[@]}"
  # toolchain and build
  build-essential pkg-config git ca-certificates python3 curl
  # tests, fuzzing, benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev
  # exporter tests: promtool (check metrics/rules, test rules), a real Prometheus and
  # Alertmanager (amtool), TLS via curl, scrape benchmark
  prometheus prometheus-alertmanager curl openssl wrk
  # the long-term store e2e (tests/e2e/victoriametrics_fleet.py): Prometheus in agent mode
  # remote-writes into VictoriaMetrics
  victoria-metrics
  # real-kernel tests (tests/qemu): Debian's kernel under qemu with an initramfs of busybox,
  # i2c-dev, i2c-stub and the test NIC module, built against that kernel's headers
  qemu-system-x86 linux-image-amd64 linux-headers-amd64 busybox-static cpio kmod xz-utils zstd
  # ... and libi2c, whose SMBus helpers seed i2c-stub independently of the driver under test
  libi2c-dev
  # coding checks (vendor_oui): the IEEE OUI registry (the .deb only recommends it; without it
  # the demo's vendor_oui results read "unverifiable", its port verdicts are the same)
  ieee-data
  # libibmad: the MAD golden tests' independent encoder (libibumad: the demo set)
  libibmad-dev
  # real-IB-stack test (tests/e2e/ibsim_fabric.py): the ibsim fabric simulator, its umad2sim
  # preload library, and OpenSM (--once) to assign the simulated fabric's LIDs
  ibsim-utils libumad2sim0 opensm
  # packaging tests (tests/packaging): systemd-analyze verify/security, the .deb (cpack +
  # dpkg-shlibdeps), lintian, man -l, bash completion, strace and pgrep (syscall filter), file
  systemd dpkg-dev lintian man-db groff-base bash-completion strace procps file init-system-helpers
  # exporter e2e: the landing page rendered by headless Chromium (JavaScript off)
  chromium
  # link flaps through the real kernel (tests/e2e/carrier_flaps_e2e.py): ip netns and veth pairs
  iproute2
  # scrape benchmark peers (tests/bench/peers): the exporters users pick instead, a Go one on
  # client_golang (built offline from Debian's Go sources) and a Python one on prometheus_client
  golang-go golang-github-prometheus-client-golang-dev python3-prometheus-client
)

set_name=${1:-test}
case "$set_name" in
  demo) PACKAGES=("${DEMO_PACKAGES[@]}") ;;
  test) PACKAGES=("${TEST_PACKAGES[@]}") ;;
  --list-demo) printf '%s\n' "${DEMO_PACKAGES[@]}"; exit 0 ;;
  --list-test) printf '%s\n' "${TEST_PACKAGES[@]}"; exit 0 ;;
  *) echo "usage: $0 [demo|test]" >&2; exit 2 ;;
esac

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} $set_name packages present; installed 0 packages"
  exit 0
fi

installed_count() { dpkg-query -W -f='${db:Status-Abbrev}\n' | grep -c '^ii' || true; }
before=$(installed_count)
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
after=$(installed_count)
echo "setup: installed $((after - before)) packages (${#missing[@]} of the $set_name set's ${#PACKAGES[@]} were missing, the rest are their dependencies)"

# Shared helpers for the exporter e2e shell scripts (sourced); the daemon-based e2e tests are
# Python (daemon_fleet.py).
set -euo pipefail

E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$E2E_DIR/../.." && pwd)"
WORK="$(mktemp -d /tmp/xcvr-e2e-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 missing (scripts/setup.sh installs it)"; }

#!/usr/bin/env bash
# The unit's SystemCallFilter= allows every system call the daemon makes: run it under strace
# on an emulated fleet (start, polls, scrapes of every route, textfile output, SIGHUP reload,
# SIGTERM) and compare the calls with the filter expanded by systemd-analyze. A call outside
# the filter would fail with EPERM (SystemCallErrorNumber=) under systemd.
#   syscall_filter.sh SOURCE_DIR DAEMON_BINARY
source "$(dirname "$0")/common.sh"
src="$1"; daemon="$2"
need strace systemd-analyze curl pgrep
[ -x "$daemon" ] || fail "daemon binary $daemon missing"
unit_file="$src/systemd/$UNIT"
work=$(mktemp -d /tmp/xcvr-sysc-XXXXXX)
pid=""; daemon_pid=""
cleanup() {
  # The daemon is strace's child: stop it first, then strace (which exits with it).
  [ -n "$pid" ] && [ -z "$daemon_pid" ] && daemon_pid=$(pgrep -P "$pid" || true)
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null
  if [ -n "$pid" ]; then
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    [ -n "$daemon_pid" ] && kill -KILL "$daemon_pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# expand GROUP-OR-CALL...: prints system call names, groups expanded recursively.
declare -A seen_group=()
expand() {
  local item line
  for item in "$@"; do
    if [[ $item == @* ]]; then
      [ -n "${seen_group[$item]:-}" ] && continue
      seen_group[$item]=1
      while read -r line; do
        case "$line" in ''|'#'*|"$item") ;; *) expand "$line" ;; esac
      done < <(systemd-analyze syscall-filter "$item")
    else
      echo "$item"
    fi
  done
}
allow=(); deny=()
while IFS= read -r value; do
  if [[ $value == '~'* ]]; then read -ra words <<<"${value#\~}"; deny+=("${words[@]}")
  else read -ra words <<<"$value"; allow+=("${words[@]}"); fi
done < <(sed -n 's/^SystemCallFilter=//p' "$unit_file")
[ ${#allow[@]} -gt 0 ] || fail "the unit has no SystemCallFilter allow list"
expand "${allow[@]}" | sort -u >"$work/allow"
seen_group=()
if [ ${#deny[@]} -gt 0 ]; then expand "${deny[@]}" | sort -u >"$work/deny"; else : >"$work/deny"; fi
comm -23 "$work/allow" "$work/deny" >"$work/allowed"
echo "filter: ${allow[*]} minus ${deny[*]:-nothing}: $(wc -l <"$work/allowed") calls allowed"

# A port the kernel just handed out as free (a random pick could collide with a parallel test).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# A small emulated switch (two buses: CMIS OSFP and QSFP-DD, SFF-8636 QSFP28): every poll path,
# few enough modules to start quickly under strace on a busy machine; plus a netlink port.
cat >"$work/fleet.toml" <<EOC
[emulator]
clock = "virtual"
seed = 1
ambient_celsius = 30.0
[[system]]
name = "sw"
description = "syscall filter test switch"
port_prefix = "swp"
  [[system.bus]]
  cage_form = "OSFP"
  modules = ["osfp-800g-2xsr4-finned", "osfp-800g-aec"]
  [[system.bus]]
  cage_form = "QSFP-DD"
  modules = ["qsfpdd-400g-sr8", "qsfp28-100g-lr4"]
EOC
cat >"$work/config.toml" <<EOC
[daemon]
state_directory = "$work/state"
[poll]
dynamic_interval = "1s"
settle_delay = "0s"
[web]
listen_addresses = ["127.0.0.1:$port"]
[[source]]
type = "emulator"
fleet = "$work/fleet.toml"
clock = "wallclock"
# The ethtool netlink path's socket calls (lo has no module: the reads fail, the calls happen).
[[source]]
type = "netlink"
[[source.port]]
name = "lo-cage"
netdev = "lo"
EOC
"$daemon" --check-config --config "$work/config.toml" || fail "test config rejected"
strace -f -qq -o "$work/trace" "$daemon" --config "$work/config.toml" \
  --textfile "$work/metrics.prom" >"$work/daemon.log" 2>&1 &
pid=$!   # strace; signals go to the daemon, its child
up=""
for _ in $(seq 600); do   # up to 2 minutes: strace on a loaded machine is slow
  if curl -sSf --max-time 5 "http://127.0.0.1:$port/healthz" >/dev/null 2>>"$work/curl.log"; then up=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
daemon_pid=$(pgrep -P "$pid" || true)   # strace forked it before it could answer
[ -n "$up" ] && [ -n "$daemon_pid" ] || { cat "$work/daemon.log" >&2; { sort "$work/curl.log" | uniq -c >&2; } 2>/dev/null || true; fail "daemon did not come up under strace"; }
sleep 3
for path in / /metrics /api/v1/modules /healthz; do
  curl -sf --max-time 10 -o /dev/null "http://127.0.0.1:$port$path" || fail "GET $path failed"
done
curl -sf --max-time 10 -H 'Accept-Encoding: gzip' -o /dev/null "http://127.0.0.1:$port/metrics" || fail "gzip scrape failed"
kill -HUP "$daemon_pid"; sleep 2
grep -q 'config reloaded' "$work/daemon.log" || { cat "$work/daemon.log" >&2; fail "SIGHUP did not reload"; }
curl -sf --max-time 10 -o /dev/null "http://127.0.0.1:$port/metrics" || fail "scrape after reload failed"
kill -TERM "$daemon_pid"
rc=0; wait "$pid" || rc=$?   # strace exits with the daemon's status
pid=""; daemon_pid=""
[ "$rc" -eq 0 ] || { cat "$work/daemon.log" >&2; fail "daemon exited $rc under strace"; }
[ -s "$work/metrics.prom" ] || fail "no textfile output"

# "PID name(args..." lines; strace's own execve of the daemon is part of it, as under systemd.
sed -n 's/^[0-9]\+ \+\([a-z0-9_]\+\)(.*/\1/p' "$work/trace" | sort -u >"$work/used"
echo "daemon used $(wc -l <"$work/used") distinct system calls"
outside=$(comm -23 "$work/used" "$work/allowed")
if [ -n "$outside" ]; then
  echo "system calls outside the unit's filter:" >&2; echo "$outside" >&2
  fail "SystemCallFilter= would deny calls the daemon makes"
fi
echo "syscall_filter: OK"

#!/usr/bin/env bash
# Installs the .deb into a clean root with dpkg (maintainer scripts run with DPKG_ROOT, as
# dpkg --force-script-chrootless does), then checks: every file in place with its owner and
# mode, conffiles registered, the system user/group and directories the scripts create, the
# service enabled, the shipped config accepted by the packaged daemon (--check-config), the
# packaged unit verified against the packaged binary, the man pages rendering; then purges and
# checks that state goes and the user stays.
#   deb_install.sh DEB_DIR SOURCE_DIR
source "$(dirname "$0")/common.sh"
dir="$1"; src="$2"
need dpkg dpkg-deb systemd-sysusers systemd-tmpfiles deb-systemd-helper systemd-analyze man
shopt -s nullglob
debs=("$dir"/*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one .deb in $dir (the packaging_deb_build test makes it)"
deb="${debs[0]}"

root=$(mktemp -d /tmp/xcvr-deb-root-XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers" \
         "$root/etc" "$root/run/lock" "$root/usr/sbin"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
# policy-rc.d of the root (deb-systemd-invoke reads it under DPKG_ROOT): never start anything.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"; chmod 755 "$root/usr/sbin/policy-rc.d"

dpkg_root() { dpkg --root="$root" --force-script-chrootless --force-depends --force-not-root "$@"; }
log="$root.install.log"
dpkg_root -i "$deb" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; fail "dpkg -i into $root failed"; }
cat "$log"; rm -f "$log"

status=$(dpkg --root="$root" -s transceiver-exporter)
grep -q '^Status: install ok installed' <<<"$status" || { echo "$status"; fail "package not installed ok"; }
grep -A2 '^Conffiles:' <<<"$status" | grep -q '/etc/transceiver-exporter/config.toml' || fail "config.toml not a registered conffile"
grep -A2 '^Conffiles:' <<<"$status" | grep -q '/etc/default/transceiver-exporter' || fail "/etc/default/transceiver-exporter not a registered conffile"
grep -A3 '^Conffiles:' <<<"$status" | grep -q '/etc/transceiver-exporter/prometheus/runbook.yml' \
  || fail "the runbook URL rule file is not a registered conffile"

# path mode owner:group
check() {
  local path="$1" mode="$2" owner="$3" actual
  [ -e "$root$path" ] || fail "$path missing"
  actual=$(stat -c '%a %U:%G' "$root$path")
  [ "$actual" = "$mode $owner" ] || fail "$path is '$actual', want '$mode $owner'"
}
check /usr/bin/transceiver_exporter 755 root:root
check /usr/bin/xcvrctl 755 root:root
check /etc/transceiver-exporter/config.toml 644 root:root
check /etc/default/transceiver-exporter 644 root:root
check /etc/transceiver-exporter/prometheus/runbook.yml 644 root:root
check /lib/systemd/system/transceiver-exporter.service 644 root:root
check /lib/udev/rules.d/60-transceiver-exporter.rules 644 root:root
check /usr/lib/sysusers.d/transceiver-exporter.conf 644 root:root
check /usr/lib/tmpfiles.d/transceiver-exporter.conf 644 root:root
check /usr/share/man/man8/transceiver_exporter.8.gz 644 root:root
check /usr/share/man/man8/xcvrctl.8.gz 644 root:root
for page in transceiver_exporter xcvrctl; do  # the version is filled in, no template left
  th=$(zcat "$root/usr/share/man/man8/$page.8.gz" | grep -m1 '^\.TH')
  case "$th" in *"transceiver-exporter $(dpkg-deb -f "$deb" Version | sed 's/-.*//')"*) ;; *) fail "$page.8 .TH is '$th'" ;; esac
  if zcat "$root/usr/share/man/man8/$page.8.gz" | grep -q '@[A-Z_]*@'; then fail "$page.8 holds a template placeholder"; fi
done
check /usr/share/bash-completion/completions/xcvrctl 644 root:root
check /usr/share/bash-completion/completions/transceiver_exporter 644 root:root
check /usr/share/doc/transceiver-exporter/copyright 644 root:root
check /usr/share/doc/transceiver-exporter/changelog.Debian.gz 644 root:root
check /usr/share/doc/transceiver-exporter/README.Debian 644 root:root
check /usr/share/doc/transceiver-exporter/installation.md 644 root:root
check /usr/share/doc/transceiver-exporter/deployment.md 644 root:root
for f in infiniband.conf i2c-only.conf textfile.conf 61-transceiver-exporter-umad.rules; do
  check "/usr/share/transceiver-exporter/examples/$f" 644 root:root
done
head -1 "$root/usr/share/doc/transceiver-exporter/copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
  || fail "copyright is not DEP-5"
zcat "$root/usr/share/doc/transceiver-exporter/changelog.Debian.gz" | head -1 \
  | grep -q "^transceiver-exporter ($(dpkg-deb -f "$deb" Version)) " || fail "changelog.Debian.gz does not start with this version"

# Globbed data: every source file is shipped (but the conffiles, which go to /etc).
same_set() {  # same_set SRC_GLOB_DIR EXT DEST_DIR
  local want have
  want=$(cd "$src/$1" 2>/dev/null && ls -1 -- *."$2" 2>/dev/null | grep -vx 'runbook.yml' | sort || true)
  have=$(cd "$root$3" 2>/dev/null && ls -1 -- *."$2" 2>/dev/null | sort || true)
  [ "$want" = "$have" ] || fail "$3 holds [$have], want [$want] (from $1)"
  echo "$3: $(wc -w <<<"$have") files"
}
same_set config/catalog toml /usr/share/transceiver-exporter/catalog
same_set config/prometheus yml /usr/share/transceiver-exporter/prometheus
same_set config/alertmanager yml /usr/share/transceiver-exporter/alertmanager
same_set config/grafana json /usr/share/transceiver-exporter/grafana
[ -n "$(ls "$root/usr/share/transceiver-exporter/catalog")" ] || fail "no catalog shipped"
[ -n "$(ls "$root/usr/share/transceiver-exporter/prometheus")" ] || fail "no Prometheus rules shipped"

# What postinst made: user and groups (sysusers), directories (tmpfiles), enablement.
grep -q '^transceiver-exporter:x:[0-9]*:[0-9]*:[^:]*:/var/lib/transceiver-exporter:/usr/sbin/nologin$' "$root/etc/passwd" \
  || { cat "$root/etc/passwd" >&2; fail "no system user transceiver-exporter in the root"; }
uid=$(awk -F: '$1=="transceiver-exporter"{print $3}' "$root/etc/passwd")
[ "$uid" -lt 1000 ] || fail "transceiver-exporter uid $uid is not a system uid"
grep -q '^i2c:x:[0-9]*:\(.*,\)\?transceiver-exporter\(,.*\)\?$' "$root/etc/group" \
  || { cat "$root/etc/group" >&2; fail "transceiver-exporter is not in group i2c"; }
i2c_gid=$(awk -F: '$1=="i2c"{print $3}' "$root/etc/group")
own_gid=$(awk -F: '$1=="transceiver-exporter"{print $3}' "$root/etc/group")
[ "$(stat -c '%a %u:%g' "$root/run/lock/transceiver-exporter")" = "3775 0:$i2c_gid" ] \
  || fail "lock dir is $(stat -c '%a %u:%g' "$root/run/lock/transceiver-exporter"), want 3775 0:$i2c_gid"
[ "$(stat -c '%a %u:%g' "$root/var/lib/transceiver-exporter")" = "750 $uid:$own_gid" ] \
  || fail "state dir is $(stat -c '%a %u:%g' "$root/var/lib/transceiver-exporter"), want 750 $uid:$own_gid"
[ -L "$root/etc/systemd/system/multi-user.target.wants/transceiver-exporter.service" ] \
  || fail "service not enabled (no multi-user.target.wants link)"
echo "postinst: user uid $uid in group i2c, lock and state directories, service enabled"

# The shipped config is valid on a machine without optics.
out=$("$root/usr/bin/transceiver_exporter" --check-config --config "$root/etc/transceiver-exporter/config.toml" 2>&1) \
  || { echo "$out" >&2; fail "transceiver_exporter --check-config rejects the shipped config"; }
echo "$out"
"$root/usr/bin/transceiver_exporter" --version | grep -q "$(dpkg-deb -f "$deb" Version | sed 's/-[^-]*$//')" \
  || fail "--version does not print the package's upstream version"
"$root/usr/bin/xcvrctl" --version >/dev/null || fail "xcvrctl --version failed"

# Man pages as installed.
for page in transceiver_exporter xcvrctl; do
  err=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$root/usr/share/man/man8/$page.8.gz" 2>&1 >/dev/null) \
    || fail "man -l $page.8.gz failed"
  [ -z "$err" ] || { echo "$err" >&2; fail "man -l $page.8.gz warned"; }
done

# The packaged unit against the packaged binary and man pages.
make_unit_root "$root"
verify_unit "$root"
echo "exposure (packaged unit): $(exposure "$root")"

# Remove: binaries and unit go, the service is masked (disabled, its enabled state kept for a
# reinstall), config and state stay.
log="$root.remove.log"
dpkg_root --remove transceiver-exporter >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; fail "dpkg --remove failed"; }
rm -f "$log"
[ ! -e "$root/usr/bin/transceiver_exporter" ] || fail "remove left the daemon"
[ ! -e "$root/lib/systemd/system/transceiver-exporter.service" ] || fail "remove left the unit"
[ "$(readlink "$root/etc/systemd/system/transceiver-exporter.service" || true)" = /dev/null ] \
  || fail "remove did not mask the service"
[ -e "$root/etc/transceiver-exporter/config.toml" ] || fail "remove deleted the conffile (only purge may)"
[ -e "$root/etc/transceiver-exporter/prometheus/runbook.yml" ] || fail "remove deleted runbook.yml (only purge may)"
[ -d "$root/var/lib/transceiver-exporter" ] || fail "remove deleted the state directory (only purge may)"

# Reinstall after remove: unmasked and enabled again (the admin's state was "enabled").
log="$root.reinstall.log"
dpkg_root -i "$deb" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; fail "reinstall failed"; }
rm -f "$log"
[ ! -L "$root/etc/systemd/system/transceiver-exporter.service" ] || fail "reinstall left the service masked"
[ -L "$root/etc/systemd/system/multi-user.target.wants/transceiver-exporter.service" ] || fail "reinstall did not re-enable"

# Purge: state and lock directories, conffiles, enablement state and mask go; the user stays.
log="$root.purge.log"
dpkg_root --purge transceiver-exporter >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; fail "dpkg --purge failed"; }
rm -f "$log"
[ ! -e "$root/var/lib/transceiver-exporter" ] || fail "purge left /var/lib/transceiver-exporter"
[ ! -e "$root/run/lock/transceiver-exporter" ] || fail "purge left /run/lock/transceiver-exporter"
[ ! -e "$root/etc/transceiver-exporter/config.toml" ] || fail "purge left the config"
[ ! -e "$root/etc/default/transceiver-exporter" ] || fail "purge left /etc/default/transceiver-exporter"
[ ! -e "$root/etc/transceiver-exporter/prometheus/runbook.yml" ] || fail "purge left runbook.yml"
[ ! -L "$root/etc/systemd/system/transceiver-exporter.service" ] || fail "purge left the mask"
[ ! -e "$root/etc/systemd/system/multi-user.target.wants/transceiver-exporter.service" ] || fail "purge left the service enabled"
grep -q '^transceiver-exporter:' "$root/etc/passwd" || fail "purge removed the system user (it must stay)"
echo "remove: masked, config and state kept; reinstall: enabled; purge: all gone but the user"
echo "deb_install: OK"

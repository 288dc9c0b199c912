#!/usr/bin/env bash
# Builds the .deb with CPack from an already built tree (ctest runs after the build) and checks
# its control data: name, version, Section/Priority, shlibdeps-generated Depends, conffiles and
# maintainer scripts.
#   deb_build.sh BUILD_DIR OUT_DIR EXPECTED_VERSION
source "$(dirname "$0")/common.sh"
build="$1"; out="$2"; version="$3"
need cpack dpkg-deb dpkg-shlibdeps strip
[ -f "$build/CPackConfig.cmake" ] || fail "$build/CPackConfig.cmake missing: include(packaging/Packaging.cmake) in CMakeLists.txt"

rm -rf "$out"; mkdir -p "$out"
log="$out/cpack.log"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >"$log" 2>&1 || { cat "$log" >&2; fail "cpack -G DEB failed"; }
shopt -s nullglob
debs=("$out"/*.deb)
[ ${#debs[@]} -eq 1 ] || { cat "$log" >&2; fail "expected one .deb in $out, found ${#debs[@]}"; }
deb="${debs[0]}"
arch=$(dpkg --print-architecture)
[ "$(basename "$deb")" = "transceiver-exporter_${version}_${arch}.deb" ] \
  || fail "unexpected file name $(basename "$deb") (want transceiver-exporter_${version}_${arch}.deb)"
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

field() { dpkg-deb -f "$deb" "$1"; }
dpkg-deb -I "$deb"
[ "$(field Package)" = transceiver-exporter ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), want $version"
[ "$(field Section)" = net ] || fail "Section: $(field Section)"
[ "$(field Priority)" = optional ] || fail "Priority: $(field Priority)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
depends=$(field Depends)
for dep in 'libc6 (>=' 'libstdc++6 (>=' 'libsystemd0' 'procps' 'systemd-sysusers' 'systemd-tmpfiles'; do
  [[ $depends == *"$dep"* ]] || fail "Depends lacks $dep (shlibdeps or CPACK_DEBIAN_PACKAGE_DEPENDS): $depends"
done

ctrl=$(mktemp -d); trap 'rm -rf "$ctrl"' EXIT
dpkg-deb -e "$deb" "$ctrl"
printf '/etc/transceiver-exporter/config.toml\n/etc/default/transceiver-exporter\n/etc/transceiver-exporter/prometheus/runbook.yml\n' | diff - "$ctrl/conffiles" \
  || fail "conffiles differ"
for s in postinst prerm postrm; do
  [ "$(stat -c %a "$ctrl/$s")" = 755 ] || fail "$s is not mode 0755"
  sh -n "$ctrl/$s" || fail "$s: syntax error"
done
# Binaries are stripped (lintian: unstripped-binary-or-object is an error).
data=$(mktemp -d); trap 'rm -rf "$ctrl" "$data"' EXIT
dpkg-deb -x "$deb" "$data"
for b in transceiver_exporter xcvrctl; do
  [ -x "$data/usr/bin/$b" ] || fail "/usr/bin/$b missing from the package"
  file_out=$(file -b "$data/usr/bin/$b" 2>/dev/null || true)
  if [ -n "$file_out" ]; then [[ $file_out == *stripped* && $file_out != *"not stripped"* ]] || fail "$b not stripped: $file_out"; fi
done
echo "deb_build: OK ($deb)"

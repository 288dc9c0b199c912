#!/usr/bin/env bash
# bash completion for xcvrctl and transceiver_exporter: loads under bash-completion and
# completes subcommands, options and option values.
#   completion.sh COMPLETION_DIR XCVRCTL_BINARY   (model names come from `xcvrctl emulate --list`)
source "$(dirname "$0")/common.sh"
dir="$1"; xcvrctl_bin="$2"
[ -x "$xcvrctl_bin" ] || fail "xcvrctl binary $xcvrctl_bin missing"
export PATH="$(dirname "$xcvrctl_bin"):$PATH"
bc=/usr/share/bash-completion/bash_completion
[ -f "$bc" ] || fail "$bc missing (package bash-completion; scripts/setup.sh installs it)"
for f in xcvrctl transceiver_exporter; do bash -n "$dir/$f" || fail "$dir/$f: syntax error"; done

# One bash runs every case; each line of its output is "WORDS => COMPLETIONS".
out=$(bash --norc --noprofile <<EOS
source "$bc"
source "$dir/xcvrctl"
source "$dir/transceiver_exporter"
comp() {
  local f=\$1; shift
  COMP_WORDS=("\$@"); COMP_CWORD=\$(( \${#COMP_WORDS[@]} - 1 ))
  COMP_LINE="\${COMP_WORDS[*]}"; COMP_POINT=\${#COMP_LINE}
  COMPREPLY=()
  "\$f" "\${COMP_WORDS[0]}" "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
  echo "\${COMP_WORDS[*]} => \${COMPREPLY[*]}"
}
comp _xcvrctl xcvrctl ""
comp _xcvrctl xcvrctl ve
comp _xcvrctl xcvrctl decode --f
comp _xcvrctl xcvrctl decode --format ""
comp _xcvrctl xcvrctl verify --
comp _xcvrctl xcvrctl verify --style f
comp _xcvrctl xcvrctl verify --netdev l
comp _xcvrctl xcvrctl show --
comp _xcvrctl xcvrctl show --netlink l
comp _xcvrctl xcvrctl emulate --
comp _xcvrctl xcvrctl emulate osfp-8
comp _xcvrctl xcvrctl discover --
comp _xcvrctl xcvrctl discover --optoe-drivers s
comp _transceiver_exporter transceiver_exporter --
comp _transceiver_exporter transceiver_exporter --log-level w
comp _transceiver_exporter transceiver_exporter --log.format l
complete -p xcvrctl transceiver_exporter
EOS
)
echo "$out"
expect() { grep -qxF -- "$1" <<<"$out" || fail "expected completion line: $1"; }
expect 'xcvrctl  => decode verify show emulate discover events'
expect 'xcvrctl ve => verify'
expect 'xcvrctl decode --f => --format'
expect 'xcvrctl decode --format  => auto binary ethtool sfputil junos i2cdump c-array bytearray'
expect 'xcvrctl verify -- => --file --i2c --address --optoe --netlink --netdev --trust-banks --ib --lid --cage --port --config --catalog --oui-registry --style --now --json --strict --help'
expect 'xcvrctl verify --style f => flat-top finned-top'
expect 'xcvrctl verify --netdev l => lo'
expect 'xcvrctl show -- => --file --i2c --address --optoe --netlink --netdev --trust-banks --ib --lid --cage --port --config --json --help'
expect 'xcvrctl show --netlink l => lo'
expect 'xcvrctl emulate -- => --fleet --port --list --seconds --json --help'
expect 'xcvrctl emulate osfp-8 => osfp-800g-2xsr4-finned osfp-800g-aec'
expect 'xcvrctl discover -- => --emit-config --json --sysfs-net --i2c-devices --sx-core --optoe-drivers --sonic-port-map --help'
expect 'xcvrctl discover --optoe-drivers s => sff8436'
expect 'transceiver_exporter -- => --config --check-config --web.listen-address --textfile --log-level --log.format --version --help'
expect 'transceiver_exporter --log-level w => warn'
expect 'transceiver_exporter --log.format l => logfmt'
expect 'complete -F _xcvrctl xcvrctl'
expect 'complete -F _transceiver_exporter transceiver_exporter'
echo "completion: OK"

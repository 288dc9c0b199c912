#!/usr/bin/env bash
# The dependency arrows of docs/architecture.md, checked on the includes: cmis/ includes only
# cmis/; app/ (main) only daemon/ and exporters/; coding/ only cmis/, coding/ and drivers' bounded
# readers (safe_file, toml_input, text_position);
# no transport under drivers/ includes the emulator (it is a source like the others, not a base);
# only the source registry names the transports: the daemon and xcvrctl's show and verify include
# no transport's folder (the daemon's netdev watch aside: a hot-plug trigger, not a source).
#   layering.sh <source dir>
set -euo pipefail
cd "$1"
status=0
check() {  # check <dir> <allowed include regex> [<forbidden include regex>]
  local bad
  bad=$(grep -Hns '^#include "' "$1"/*.cpp "$1"/*.hpp | grep -Ev "#include \"($2)" || true)
  if [ -n "${3:-}" ]; then
    # The registry lists every transport, the emulator too.
    bad+=$(grep -Hns '^#include "' "$1"/*.cpp "$1"/*.hpp | grep -E "#include \"($3)" | grep -v '^drivers/source_registry\.cpp:' || true)
  fi
  if [ -n "$bad" ]; then
    echo "$1/ includes outside its layer:"
    printf '  %s\n' "$bad"
    status=1
  fi
}
check cmis 'cmis/'
check app 'daemon/|exporters/'
check coding 'cmis/|coding/|base/safe_file\.hpp|base/text_position\.hpp|base/toml_input\.hpp'
for dir in drivers drivers/*/; do
  dir=${dir%/}
  check "$dir" 'cmis/|base/|drivers/|emulator/|dumpfile/' 'emulator/|dumpfile/'
done
registry_only() {  # registry_only <files...>
  local bad
  bad=$(grep -Hn '^#include "drivers/[a-z0-9_]*/' "$@" | grep -Ev '"drivers/(files/|netlink/netdev_watch\.hpp)' || true)
  if [ -n "$bad" ]; then
    echo "names a transport outside the source registry (drivers/source_registry.cpp):"
    printf '  %s\n' "$bad"
    status=1
  fi
}
registry_only daemon/*.cpp daemon/*.hpp cli/module_read.* cli/cmd_show.cpp cli/cmd_verify.cpp
[ "$status" -eq 0 ] && echo "layering: cmis/ and coding/ include only their layers; no transport includes the emulator; only the registry names transports"
exit "$status"

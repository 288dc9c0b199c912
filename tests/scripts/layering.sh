#!/usr/bin/env bash
# The rooms of docs/architecture.md and the arrows between them, checked on the includes of the
# product tree (everything but tests/):
#  1. A file includes only its own room and the rooms below it (the table below). Any other
#     include climbs a room (or crosses to a sibling) and fails: cmis/ and base/ include nothing
#     of ours, no transport includes another transport, the emulator or the dump-file parser,
#     and the renderers (exporters/) do not include the server above them (exporters/http/).
#  2. So outside its folder a transport (drivers/<transport>/) is named only by the source
#     registry (drivers/source_registry.cpp, which includes each source's `*_source.hpp`, the
#     emulator's and the dump file's too), discovery included: the daemon and xcvrctl go
#     through the registry.
#  3. No include loop: a unit is a file without its extension (foo.hpp and foo.cpp; a private
#     header foo_internal.hpp is part of foo); unit A including B and B including A (through
#     any of their files, or through a chain of units) is a loop, even when no file includes
#     itself.
#   layering.sh <source dir>
set -euo pipefail
cd "$1"

# room: the rooms it may include besides itself (lowest first), or single files of a room.
# drivers/* is every transport folder; health/ (the verdict) may be absent: it sits below every
# renderer, reads snapshots and knows none of its readers.
rooms='
cmis:
base:
coding: cmis base
drivers: cmis base
drivers/*: cmis base drivers
emulator: cmis base drivers
dumpfile: cmis base drivers
daemon: cmis base coding drivers
health: cmis base coding daemon/snapshot.hpp
exporters: cmis base coding drivers daemon health
exporters/http: cmis base coding drivers daemon health exporters
app: base daemon exporters exporters/http
cli: cmis base coding drivers emulator dumpfile daemon health
'
registry=drivers/source_registry.cpp

dirs=()
for d in cmis base coding drivers emulator dumpfile daemon health exporters app cli; do
  [ -d "$d" ] && dirs+=("$d")
done
# "<file> <included path>" for every #include "a/b…" of the product tree.
includes=$(find "${dirs[@]}" -type f \( -name '*.cpp' -o -name '*.hpp' \) -print0 | sort -z |
           xargs -0 awk '/^#include "[^"]*\/[^"]*"/ { split($0, q, "\""); print FILENAME, q[2] }')

status=0
report() {  # report <title> <lines>
  if [ -n "$2" ]; then
    echo "$1"
    printf '%s\n' "$2" | sed 's/^/  /'
    status=1
  fi
}

bad=$(printf '%s\n' "$includes" | awk -v rooms="$rooms" -v registry="$registry" '
  function room(p,  a, n) {
    n = split(p, a, "/")
    if (a[1] == "drivers" && n >= 3) return "drivers/" a[2]
    if (a[1] == "exporters" && a[2] == "http" && n >= 3) return "exporters/http"
    return a[1]
  }
  function rule(r) { return (r ~ /^drivers\//) ? "drivers/*" : r }
  function source(r) { return r ~ /^drivers\// || r == "emulator" || r == "dumpfile" }
  BEGIN {
    n = split(rooms, line, "\n")
    for (i = 1; i <= n; i++) {
      if (line[i] == "") continue
      split(line[i], kv, ":")
      known[kv[1]] = 1
      may[kv[1]] = " " kv[2] " "
    }
  }
  {
    from = room($1); to = room($2)
    if (to == from) next
    if (!(to in known) && !(rule(to) in known)) next  # not one of ours (a system header with a slash)
    if ($1 == registry && source(to) && $2 ~ /_source\.hpp$/) next
    if (index(may[rule(from)], " " rule(to) " ") == 0 && index(may[rule(from)], " " $2 " ") == 0) {
      m = may[rule(from)]; gsub(/^ +| +$/, "", m)
      print $1 " includes " $2 " (" from "/ may include " (m == "" ? "nothing of ours" : m) ")"
    }
  }')
report "includes that climb a room or cross to a sibling (tests/scripts/layering.sh, the table):" "$bad"

# The outputs read the views the health model made once per snapshot (health/fleet_view.hpp):
# none judges a port itself, so none includes the model (health/health.hpp; xcvrctl does, for
# the module it reads).
bad=$(printf '%s\n' "$includes" | awk '$1 ~ /^(exporters|app)\// && $2 ~ /^health\/health(_internal)?\.hpp$/')
report "an output includes the health model (render the PortView instead):" "$bad"

# Rule 3: units, then tsort (which names the members of each loop it finds).
edges=$(printf '%s\n' "$includes" | while read -r file inc; do
  [ -f "$inc" ] || continue
  a=${file%.*}; b=${inc%.*}
  a=${a%_internal}; b=${b%_internal}
  [ "$a" = "$b" ] || echo "$a $b"
done)
if ! loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null); then
  report "include loops between units (a unit: foo.hpp, foo.cpp and foo_internal.hpp):" \
         "$(printf '%s\n' "$loops" | awk '/input contains a loop/ { if (l != "") print l; l = ""; next }
                                          { sub(/^tsort: /, ""); l = l (l == "" ? "" : " -> ") $0 }
                                          END { if (l != "") print l }')"
fi

[ "$status" -eq 0 ] && echo "layering: every include stays in its room or goes down; only the registry names a source's folder; no output judges a port; no include loop"
exit "$status"

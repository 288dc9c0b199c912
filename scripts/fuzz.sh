#!/usr/bin/env bash
# Runs every libFuzzer target (build/fuzz/tests/fuzz_*) over seeds from tests/data.
#   fuzz.sh smoke          bounded run per target (CI): 20000 executions each
#   fuzz.sh long [SECONDS] longer run per target (default 600 s), corpus kept in build/fuzz/corpus
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-smoke}
seconds=${2:-600}
shopt -s nullglob
targets=("$root"/build/fuzz/tests/fuzz_*)
if [ ${#targets[@]} -eq 0 ]; then echo "fuzz: no targets built (scripts/build.sh fuzz)" >&2; exit 1; fi
seeds="$root/build/fuzz/seeds"
mkdir -p "$seeds"
# Seeds named after their folder: every dump's raw.txt is called the same.
for f in "$root"/tests/data/*/*; do
  case "$f" in *.md) continue ;; esac
  cp "$f" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
for t in "${targets[@]}"; do
  name=$(basename "$t")
  corpus="$root/build/fuzz/corpus/$name"
  mkdir -p "$corpus"
  if [ "$mode" = smoke ]; then
    "$t" -runs=20000 -max_len=65536 -timeout=10 "$corpus" "$seeds" 2>&1 | tail -n 2
  else
    "$t" -max_total_time="$seconds" -max_len=65536 -timeout=10 "$corpus" "$seeds" 2>&1 | tail -n 4
  fi
  echo "fuzz: $name ok"
done

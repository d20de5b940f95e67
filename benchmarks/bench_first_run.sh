#!/bin/bash
# The first `simcycle simulate` after a fresh non-editable install, per format, in CPU seconds
# (user + sys from /usr/bin/time), then a second run from another folder (the on-disk cache
# must load there), then `simcycle warm-up` on a fresh copy and a simulate after it.
#
#   bash benchmarks/bench_first_run.sh [PYTHON]     (default: .venv/bin/python)
#
# Each format gets its own fresh copy of the install (pip install --target), so no format
# profits from kernels another one compiled; nothing sets NUMBA_CACHE_DIR.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${1:-$ROOT/.venv/bin/python}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$PY" -m pip install -q --no-deps --target "$TMP/site" "$ROOT" >/dev/null 2>&1
cpu() {   # cpu FOLDER SITE ARGS...: "user+sys wall" of one simcycle command run in FOLDER
  local dir=$1 site=$2; shift 2
  mkdir -p "$dir"
  (cd "$dir" && /usr/bin/time -f "%U %S %e" env PYTHONPATH="$site" "$PY" -m simcycle "$@" \
     >/dev/null 2>"$dir/time") || true
  awk 'END {printf "%.1f CPU-s (%.0f s wall)", $1 + $2, $3}' "$dir/time"
}
for s in candidates-2022 grand-prix-2019 grand-prix-2022 acp-tour-2004-05; do
  cp -r "$TMP/site" "$TMP/site-$s"
  echo "$s: first simulate $(cpu "$TMP/a-$s" "$TMP/site-$s" simulate "$s" --sims 1)," \
       "second from another folder $(cpu "$TMP/b-$s" "$TMP/site-$s" simulate "$s" --sims 1)"
done
cp -r "$TMP/site" "$TMP/site-all"
echo "warm-up (every format): $(cpu "$TMP/c" "$TMP/site-all" warm-up --no-progress);" \
     "again: $(cpu "$TMP/c" "$TMP/site-all" warm-up --no-progress);" \
     "then simulate grand-prix-2019 elsewhere: $(cpu "$TMP/d" "$TMP/site-all" simulate \
     grand-prix-2019 --sims 1)"

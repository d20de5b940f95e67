#!/usr/bin/env bash
# End-to-end warm CLI time: a million Candidates 2022 tournaments from the start.
# The first run fills numba's on-disk cache; the timed runs are warm.
set -euo pipefail
cd "$(dirname "$0")/.."
SC=.venv/bin/simcycle
$SC simulate scenarios/candidates-2022.toml --at start --sims 1000 --json > /dev/null
for i in 1 2 3; do
  /usr/bin/env time -f "warm simulate --sims 1000000: %e s wall, %M KiB max RSS" \
    $SC simulate scenarios/candidates-2022.toml --at start --sims 1000000 --json > /dev/null
done
/usr/bin/env time -f "simcycle --help: %e s wall" $SC --help > /dev/null
# memory does not grow with --sims (streaming tallies): compare max RSS at 10x the simulations
/usr/bin/env time -f "warm simulate --sims 10000000: %e s wall, %M KiB max RSS" \
  $SC simulate scenarios/candidates-2022.toml --at start --sims 10000000 --json > /dev/null

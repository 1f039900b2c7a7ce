#!/usr/bin/env bash
# Mutation runs of the simulation (docs/simulation.md, Mutation runs): each patch under
# test/simulation/mutations/ breaks one rule of the service. For each, a scratch copy of HEAD gets
# the patch, the simulation runs there, and the line says whether a divergence caught it.
# The working tree is never changed. Needs DATABASE_URL (a PostgreSQL server it may create
# databases on). Usage: scripts/mutation-runs.sh [patch…]; SIM_SEED, SIM_SEQUENCES and SIM_STEPS
# as for the test (defaults: 20261126, 10, 12, as the test).
set -uo pipefail
repo=$(git rev-parse --show-toplevel)
cd "$repo"
export SIM_SEED=${SIM_SEED:-20261126} SIM_SEQUENCES=${SIM_SEQUENCES:-10} SIM_STEPS=${SIM_STEPS:-12} SIM_SHRINK=${SIM_SHRINK:-0}
patches=("$@")
[ ${#patches[@]} -eq 0 ] && patches=(test/simulation/mutations/*.patch)
status=0
for patch in "${patches[@]}"; do
  name=$(basename "$patch" .patch)
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/mutation-$name-XXXX")
  git worktree add --quiet --detach "$scratch" HEAD
  ln -s "$repo/node_modules" "$scratch/node_modules"
  log="$scratch.log"
  if ! git -C "$scratch" apply "$repo/$patch"; then
    echo "$name: the patch no longer applies"
    status=1
  else
    started=$(date +%s)
    (cd "$scratch" && npx jest test/simulation/simulation.test.ts --maxWorkers=1) >"$log" 2>&1
    code=$?
    took=$(($(date +%s) - started))
    if [ $code -ne 0 ] && grep -q '^ *divergence (seed' "$log"; then
      echo "$name: caught in ${took}s: $(grep -m1 -o 'divergence (seed.*' "$log" | cut -c1-400)"
    else
      echo "$name: NOT caught (exit $code, ${took}s; log $log)"
      status=1
    fi
  fi
  git worktree remove --force "$scratch"
done
exit $status

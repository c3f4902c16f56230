#!/bin/bash
# UNTESTED: written without a Slurm cluster at hand (see README.md in this folder).
#
# Usage: contrib/slurm/submit.sh BOARD SHARDS
# Queues SHARDS array tasks of the all-openings solve of Projective Hex on BOARD, then the
# merge, which runs once every task has ended (afterany: a task cut short still leaves the
# jobs it finished, and merge names the jobs that are missing).
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 BOARD SHARDS (e.g. $0 taylor:4 64)" >&2
    exit 2
fi
export BOARD=$1 SHARDS=$2
here=$(dirname "$0")
array=$(sbatch --parsable --export=ALL --array="1-$SHARDS" "$here/solve-shards.sbatch")
sbatch --export=ALL --dependency="afterany:$array" "$here/merge.sbatch"
echo "queued array job $array ($SHARDS shards of $BOARD) and its merge"

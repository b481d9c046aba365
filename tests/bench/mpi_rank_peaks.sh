#!/usr/bin/env bash
# Peak resident memory of every rank of an MPI run, and their sum.
#
#   tests/bench/mpi_rank_peaks.sh NP MOELOG bench ARGS...
#
# Runs `mpirun --oversubscribe -np NP` over a wrapper that measures each rank
# with `/usr/bin/time -f %M` (max RSS, KiB), prints each rank's peak and the
# sum over ranks in MB (10^6 bytes), then rank 0's output. One OpenMP thread
# per rank unless OMP_NUM_THREADS says otherwise.
set -eu
np=$1; shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
set +e
mpirun --oversubscribe -np "$np" -x OMP_NUM_THREADS bash -c \
  'exec /usr/bin/time -f %M -o "$0/rank.${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}" "$@"' "$dir" "$@" >"$dir/out" 2>&1
rc=$?
set -e
cat "$dir/out"
sum=0
for ((r = 0; r < np; r++)); do
  kib=$(tail -n 1 "$dir/rank.$r" 2>/dev/null || echo 0)
  echo "rank $r max RSS: $((kib * 1024 / 1000000)) MB"
  sum=$((sum + kib))
done
echo "sum over $np ranks: $((sum * 1024 / 1000000)) MB (exit $rc)"
exit $rc

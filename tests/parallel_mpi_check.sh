#!/usr/bin/env bash
# Runs one `mpirun ... moelog bench ...` command for CTest and checks it.
#   parallel_mpi_check.sh numerics <cmd...>
#       exit 0; every numerics line (y and, for forward_backward, the
#       gradients) has status=ok; rank 0 alone printed (one header line).
#   parallel_mpi_check.sh fail <exit> <regex> <cmd...>
#       exit status <exit> ("nonzero" for any failure), output matching
#       <regex> (grep -E), all within the CTest timeout.
set -u
mode=$1; shift
if [ "$mode" = numerics ]; then
  out=$("$@" 2>&1); rc=$?
  echo "$out"
  [ $rc -eq 0 ] || { echo "CHECK: exit status $rc, expected 0"; exit 1; }
  n=$(grep -c "numerics tensor=" <<<"$out")
  [ "$n" -ge 1 ] || { echo "CHECK: no numerics lines"; exit 1; }
  if grep -q "status=FAIL" <<<"$out"; then echo "CHECK: a numerics check failed"; exit 1; fi
  h=$(grep -c "^devices=" <<<"$out")
  [ "$h" -eq 1 ] || { echo "CHECK: $h header lines, expected 1 (rank 0 only)"; exit 1; }
  echo "CHECK: ok ($n numerics lines)"
  exit 0
fi
if [ "$mode" = fail ]; then
  want=$1; regex=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  echo "$out"
  if [ "$want" = nonzero ]; then
    [ $rc -ne 0 ] || { echo "CHECK: exit status 0, expected a failure"; exit 1; }
  else
    [ $rc -eq "$want" ] || { echo "CHECK: exit status $rc, expected $want"; exit 1; }
  fi
  grep -Eq "$regex" <<<"$out" || { echo "CHECK: output does not match /$regex/"; exit 1; }
  echo "CHECK: ok (exit $rc)"
  exit 0
fi
echo "usage: $0 numerics <cmd...> | fail <exit|nonzero> <regex> <cmd...>" >&2
exit 2

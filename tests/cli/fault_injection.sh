#!/usr/bin/env bash
# Injected faults leave no lie behind:
# - a full disk while gnuplot writes (RLIMIT_FSIZE with SIGXFSZ ignored, so
#   the write fails as on ENOSPC): exit 1, the old chart stays whole, the
#   region says the chart was not drawn and links no stale chart; the next
#   update draws it and `update --check` is then clean;
# - a kill -9 after the new .dat/.gp are written but before the chart is
#   installed (the old chart beside new inputs): `--check` reports it and
#   `update` redraws it, without --force;
# - a read-only store (a read-only bind mount, where bubblewrap can make one):
#   exit 1 and the document unchanged, no row the store does not hold.
# Usage: chart_faults.sh MOELOG_BINARY
set -uo pipefail
MOELOG=$(readlink -f "$1")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
logbook() {  # logbook TOPK_VALUES
  printf '# FS: Research Logbook\n\n## Experiment Log\n### 2026-04-01 11:00 - FS-1 sweep\n'
  printf -- '- Command: `for e in 16 32 64; do for tk in %s; do python bench_moe_hillclimb.py --tokens 1024 --hidden 512 --mlp-dim 256 --experts $e --topk $tk --distribution random; done; done`\n- Result: pending\n' "$1"
}
size() { stat -c %s "$1"; }

# Every run cached first, so the store takes no writes in the faulty update.
mkdir -p "$W/a" && cd "$W/a"
logbook "1 2 3 4 5 6 7" > lb.md
"$MOELOG" update lb.md > /dev/null || fail "first update"
big=$(size figures/lb/FS-1.svg)
[ "$(stat -c %a figures/lb/FS-1.svg)" = 644 ] || fail "a new chart is not readable by all: mode $(stat -c %a figures/lb/FS-1.svg)"
logbook "1 2 3 4 5 6" > lb.md
"$MOELOG" update lb.md > /dev/null || fail "second update"
small=$(size figures/lb/FS-1.svg)
cp figures/lb/FS-1.svg "$W/old.svg"
[ "$big" -gt $((small + 1024)) ] || fail "the test needs a larger chart for 7 values ($big vs $small bytes)"
# A file-size limit between the two: the new chart cannot be written whole.
limit_kb=$(( (small + big) / 2 / 1024 ))
[ "$limit_kb" -gt 32 ] || fail "limit $limit_kb KB is under SQLite's 32 KB shared-memory file"
logbook "1 2 3 4 5 6 7" > lb.md
(trap '' XFSZ; ulimit -f "$limit_kb"; "$MOELOG" update lb.md) > "$W/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "full disk in the chart phase: exit $rc, expected 1: $(tail -3 "$W/out")"
cmp -s figures/lb/FS-1.svg "$W/old.svg" || fail "the old chart was replaced or damaged"
grep -q "Chart not drawn" lb.md || fail "the region does not say the chart was not drawn"
grep -q "](figures/lb/FS-1.svg)" lb.md && fail "the region links a chart of other data"
ls -a figures/lb | grep -q moelog-tmp && fail "temporary files left: $(ls -a figures/lb)"
"$MOELOG" update lb.md > /dev/null || fail "the update after the full disk"
[ "$(size figures/lb/FS-1.svg)" = "$big" ] || fail "the chart was not redrawn whole"
"$MOELOG" update --check lb.md > /dev/null || fail "--check after the repair"

# The old chart beside new inputs, the region from before (a kill -9 between
# writing the inputs and installing the chart).
cp lb.md "$W/lb7.md"
cp figures/lb/FS-1.svg "$W/new.svg"
logbook "1 2 3 4 5 6" > lb.md
"$MOELOG" update lb.md > /dev/null || fail "update to six values"
cp lb.md "$W/lb6.md"
cp "$W/lb7.md" lb.md
"$MOELOG" update lb.md > /dev/null || fail "update to seven values"  # inputs and chart for 7
cp "$W/lb6.md" lb.md
cp "$W/old.svg" figures/lb/FS-1.svg   # the chart of six values, inputs of seven
# The document as of six values, edited to seven: the state a kill -9 leaves.
sed 's/for tk in 1 2 3 4 5 6;/for tk in 1 2 3 4 5 6 7;/' "$W/lb6.md" > lb.md
"$MOELOG" update --check lb.md > "$W/out" 2>&1
[ $? = 1 ] || fail "--check does not report the stale chart: $(cat "$W/out")"
"$MOELOG" update lb.md > /dev/null || fail "update after the kill"
cmp -s figures/lb/FS-1.svg "$W/new.svg" || fail "the stale chart was not redrawn"
"$MOELOG" update --check lb.md > /dev/null || fail "--check after the redraw"

# A read-only store.
mkdir -p "$W/r" && cd "$W/r"
printf '# R\n\n## Experiment Log\n### 2026-04-01 11:00 - R-1 x\n- Command: `python bench_moe_hillclimb.py --tokens 1024 --hidden 512 --mlp-dim 256 --experts 16 --topk 2 --impl fused_w13 --distribution random`\n- Result: pending\n' > lb.md
"$MOELOG" update lb.md > /dev/null || fail "update before the read-only store"
sed -i 's/--topk 2/--topk 4/' lb.md
cp lb.md "$W/r.before"
BWRAP=$(command -v bwrap || true)
if [ -n "$BWRAP" ] && "$BWRAP" --bind / / --dev /dev --proc /proc true 2> /dev/null; then
  "$BWRAP" --bind / / --ro-bind "$W/r/.moelog" "$W/r/.moelog" --dev /dev --proc /proc "$MOELOG" update lb.md > "$W/out" 2>&1
  rc=$?
  [ "$rc" = 1 ] || fail "read-only store: exit $rc, expected 1: $(tail -3 "$W/out")"
  cmp -s lb.md "$W/r.before" || fail "read-only store: the document changed"
else
  echo "note: bubblewrap cannot run here; the read-only store case is skipped"
fi

# The moelog binary replaced on disk while an update runs (rebuilt or
# upgraded during hours of cpu runs): the runs go on, none fails for want of
# a binary.
mkdir -p "$W/x/bin" && cd "$W/x"
cp "$MOELOG" bin/moelog
printf '# X\n\n## Experiment Log\n### 2026-04-01 11:00 - X-1 sweep\n- Command: `for e in 4 8 16; do for tk in 1 2 3 4; do python bench_moe_hillclimb.py --tokens 64 --hidden 32 --mlp-dim 16 --experts $e --topk $tk --distribution random --iters 1 --warmup 0; done; done`\n- Result: pending\n' > lb.md
PATH=/usr/bin:/bin bin/moelog update lb.md --target cpu > "$W/out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ "$(readlink /proc/$pid/exe 2> /dev/null)" = "$W/x/bin/moelog" ] && break; sleep 0.05; done
cp "$MOELOG" bin/moelog.new && mv -f bin/moelog.new bin/moelog
replaced_while_running=0
kill -0 "$pid" 2> /dev/null && replaced_while_running=1
wait "$pid"
rc=$?
[ "$replaced_while_running" = 1 ] || fail "the update ended before its binary was replaced (the case was not tried)"
[ "$rc" = 0 ] || fail "binary replaced during the update: exit $rc: $(grep -m3 -i 'error\|failed' "$W/out")"

# An update stopped part way (killed with its process group, as a closed
# terminal or a job scheduler does) keeps the runs it finished: the small first
# invocation's runs are in the store while the long second one runs, and the
# next update serves them. (SIGTERM: a shell without job control starts
# background jobs with SIGINT ignored.)
mkdir -p "$W/i" && cd "$W/i"
printf '# I\n\n## Experiment Log\n### 2026-04-01 11:00 - I-1 two sizes\n- Command: `for t in 64 262144; do python bench_moe_hillclimb.py --tokens $t --hidden 1024 --mlp-dim 1024 --experts 8 --topk 2 --distribution random --iters 100 --warmup 0; done`\n- Result: pending\n' > lb.md
setsid "$MOELOG" update lb.md --target cpu > "$W/out" 2>&1 &
pid=$!
stored=0
for _ in $(seq 600); do
  "$MOELOG" runs --db .moelog/runs.db 2> /dev/null | grep -q ' ok ' && { stored=1; break; }
  kill -0 "$pid" 2> /dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2> /dev/null || fail "interrupted update: it ended before it was interrupted (the case was not tried): $(tail -3 "$W/out")"
kill -TERM -- -"$pid" 2> /dev/null
wait "$pid"
# The run it had started (in a process group of its own) is stopped with it,
# not left running orphaned.
left=running
for _ in $(seq 50); do
  pgrep -f -- "bench --target cpu --tokens 262144 --hidden 1024" > /dev/null || { left=; break; }
  sleep 0.1
done
if [ -n "$left" ]; then
  pkill -KILL -f -- "bench --target cpu --tokens 262144 --hidden 1024"
  fail "interrupted update: the run it had started is still running"
fi
[ "$stored" = 1 ] || fail "interrupted update: the finished first run was not in the store while the second ran"
runs=$("$MOELOG" runs --db .moelog/runs.db)
[ "$(grep -c ' ok ' <<< "$runs")" -ge 1 ] || fail "interrupted update: the finished runs are not kept: $runs"
grep -q 262144 <<< "$runs" && fail "interrupted update: the interrupted run was stored: $runs"
"$MOELOG" update lb.md --target cpu --dry-run > "$W/out" 2>&1
[ "$(grep -c 'cache hit' "$W/out")" = 1 ] || fail "interrupted update: the next update does not serve the finished run: $(cat "$W/out")"

echo "$failures failure(s)"
[ "$failures" = 0 ]

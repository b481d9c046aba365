#!/usr/bin/env bash
# Absurd sizes and options are refused before anything is allocated: exit 2,
# naming the flag, in seconds (wall time, on a loaded machine too), under a 4 GB address-space limit -- on
# every target and parallel mode (the v5p model routes a bounded sample, so its
# token limit is far higher: 1e8 tokens are modeled). Usage: absurd_input.sh MOELOG_BINARY
set -uo pipefail
MOELOG=$1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
# AddressSanitizer reserves terabytes of address space: no limit under it
# (the limit then is the time and exit code alone).
# An unoptimized sanitizer build is slower too: the time budget grows with it.
LIMIT=4000000 MAXMS=5000
if grep -qa __asan_init "$MOELOG"; then LIMIT=unlimited MAXMS=10000; fi
expect() {  # expect CODE FLAG ARGS...: exit CODE, stderr naming FLAG, within MAXMS
  local code=$1 flag=$2; shift 2
  local t0=$(date +%s%N)
  (ulimit -v "$LIMIT"; timeout 20 "$MOELOG" "$@") > "$WORK/out" 2> "$WORK/err"
  local rc=$? ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  if [ "$rc" != "$code" ] || { [ -n "$flag" ] && ! grep -q -- "$flag" "$WORK/err"; } || [ "$ms" -gt "$MAXMS" ]; then
    echo "FAIL: moelog $* -> exit $rc in $ms ms (want $code naming $flag): $(head -c 300 "$WORK/err")"
    failures=$((failures + 1))
  fi
}
# CPU time (user + system) is measured, not wall time: the budget is the
# model's, whatever else the machine runs. The budget guards against the
# orders-of-magnitude regressions above (114 s), not against a slower CPU:
# the 13-point sweep takes 0.4-1.3 s of CPU across the machines CI runs on.
CPUMS=5000
if grep -qa __asan_init "$MOELOG"; then CPUMS=30000; fi
expect_budget() {
  local t
  t=$( { TIMEFORMAT='%3U %3S'; time (ulimit -v "$LIMIT"; timeout 60 "$MOELOG" "$@" > /dev/null 2> "$WORK/err"); } 2>&1 )
  local rc=$? ms
  ms=$(echo "$t" | tail -1 | awk '{ printf "%d", ($1 + $2) * 1000 }')
  if [ "$rc" != 0 ] || [ "$ms" -gt "$CPUMS" ]; then
    echo "FAIL: moelog $* -> exit $rc, $ms ms of CPU (budget $CPUMS): $(head -c 300 "$WORK/err")"
    failures=$((failures + 1))
  fi
}
SHAPE=(--hidden 64 --mlp-dim 64 --experts 8 --topk 2)
for target in v5p cpu; do
  for pm in none ep dp; do
    base=(bench --target "$target" --parallel-mode "$pm")
    if [ "$target" = v5p ]; then  # modeled from a bounded routing sample: little CPU, small
      expect_budget "${base[@]}" --tokens 100000000 --hidden 64 --mlp-dim 64 --experts 8 --topk 2
      expect 2 --tokens "${base[@]}" --tokens 2199023255556 --hidden 64 --mlp-dim 64 --experts 8 --topk 2
    else
      expect 2 --tokens "${base[@]}" --tokens 100000000 --hidden 64 --mlp-dim 64 --experts 8 --topk 2
      expect 2 --tokens "${base[@]}" --tokens 2147483648 --hidden 64 --mlp-dim 64 --experts 8 --topk 2
    fi
    expect 2 --experts "${base[@]}" --tokens 1024 --hidden 64 --mlp-dim 64 --experts 1000000 --topk 2
    expect 2 --hidden "${base[@]}" --tokens 1024 --hidden 10000000 --mlp-dim 64 --experts 8 --topk 2
    expect 2 --threads "${base[@]}" --tokens 1024 "${SHAPE[@]}" --threads 65536
    expect 2 --devices "${base[@]}" --tokens 1024 "${SHAPE[@]}" --devices 100000
    expect 2 --iters "${base[@]}" --tokens 1024 "${SHAPE[@]}" --iters 1000000000
  done
  expect 2 --mesh bench --target "$target" --parallel-mode ep --tokens 1024 "${SHAPE[@]}" --mesh data=1,expert=100000
done
# A repeated flag takes its last value (argparse's rule), never an error.
"$MOELOG" bench --target v5p --tokens 1024 "${SHAPE[@]}" --topk 4 --topk 2 --impl fused_w13 --distribution random \
  --json > "$WORK/rep.json" || { echo "FAIL: a repeated flag is an error"; failures=$((failures + 1)); }
grep -q '"topk": *2' "$WORK/rep.json" || { echo "FAIL: the last --topk did not win"; failures=$((failures + 1)); }
# --timeout: a bounded positive number of seconds.
printf '# t\n\n## Experiment Log\n### 2026-11-24 10:00 - T-1 x\n- Command: `moelog bench --tokens 64`\n- Result:\n' > "$WORK/t.md"
for bad in 1e10 nan inf 0 -1 abc; do expect 2 --timeout update --timeout "$bad" "$WORK/t.md"; done
# The v5p model at the largest shapes inside the limits: within the time
# budget and the address-space limit above (it once took 114 s and 8.8 GB
# here), and under 512 MB resident where GNU time can tell.
BIG=(bench --target v5p --tokens 1099511627776 --hidden 65536 --mlp-dim 65536 --experts 4096)
expect_budget "${BIG[@]}" --topk 64 --distribution both
expect_budget "${BIG[@]}" --topk 4096 --distribution both
expect_budget bench --target v5p --tokens 262144 --hidden 65536 --mlp-dim 65536 --experts 64 --topk 64 --distribution both
expect_budget bench --target v5p --tokens 4194304 --hidden 65536 --mlp-dim 65536 --experts 4096 --topk-list 1,2,4,8,16,32,64,128,256,512,1024,2048,4096 --distribution both
if [ -x /usr/bin/time ] && [ "$LIMIT" != unlimited ]; then
  /usr/bin/time -f '%M' -o "$WORK/rss" "$MOELOG" "${BIG[@]}" --topk 64 --distribution both > /dev/null 2>&1
  kb=$(tail -1 "$WORK/rss")
  [ "${kb:-0}" -lt 524288 ] || { echo "FAIL: the v5p model used $kb KB (budget 512 MB)"; failures=$((failures + 1)); }
fi
echo "$failures failure(s)"
[ "$failures" = 0 ]

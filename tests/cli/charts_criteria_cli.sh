#!/usr/bin/env bash
# End-to-end checks of `moelog check`, `moelog plot` and `moelog new` on
# copies of the seed logbooks (never on the source tree).
# usage: charts_criteria_cli.sh MOELOG SOURCE_DIR WORK_DIR
set -u
moelog=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cp "$src"/recipes/*.md "$work"/ || exit 1
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# check: the int8 example criteria are unmet without runs (exit 4), one line each.
out=$("$moelog" check moe_ep_int8_criteria.md); rc=$?
[ $rc -eq 4 ] || fail "check unmet: rc=$rc"
[ "$(grep -c ': unmet: ' <<<"$out")" -eq 3 ] || fail "expected 3 unmet lines: $out"
grep -q ': manual: We can state' <<<"$out" || fail "manual line missing: $out"

# check: the seed logbook without predicates is all manual (exit 0).
"$moelog" check moe_ep_benchmark_logbook.md >/dev/null || fail "manual-only logbook should exit 0"

# check: a bad predicate is a parse error with file:line (exit 3).
printf '# T\n\n## Stop Criteria\n- ok\n- bad <!-- moelog: sweep topk {1,2} -->\n' > bad.md
err=$("$moelog" check bad.md 2>&1); rc=$?
[ $rc -eq 3 ] || fail "bad predicate: rc=$rc"
grep -q '^bad.md:5: ' <<<"$err" || fail "no file:line: $err"

# check --recorded: the EP table criterion is met by the figures in the logbook.
{ sed -n '/^## Stop Criteria/q;p' moe_ep_benchmark_logbook.md
  sed -n '/^## Stop Criteria/,$p' moe_ep_benchmark_criteria.md
  echo
  sed -n '/^## Experiment Matrix/,$p' moe_ep_benchmark_logbook.md; } > ep.md || fail "could not build ep.md"
out=$("$moelog" check ep.md --recorded)
grep -q ': met: We have apples-to-apples EP vs baseline tables' <<<"$out" || fail "table criterion not met: $out"

# plot: a top-k sweep (lines) and a remat A/B (bars) give non-empty SVGs with .dat and .gp.
for id in MOE-EP-BENCHMARK-20260209-1456 MOE-EP-BENCHMARK-20260209-1451 MOE-EP-BENCHMARK-20260209-1511; do
  "$moelog" plot moe_ep_benchmark_logbook.md --entry $id >/dev/null || fail "plot $id"
  for ext in svg dat gp; do [ -s figures/$id.$ext ] || fail "figures/$id.$ext missing or empty"; done
  grep -q '</svg>' figures/$id.svg || fail "figures/$id.svg is not a complete SVG"
done
"$moelog" plot moe_ep_benchmark_logbook.md --entry NO-SUCH-ID >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown entry should exit 2"

# new: logbook + entry, then check it (all manual: exit 0).
"$moelog" new logbook --topic "CLI test" --prefix CLI-T --out new.md 2>/dev/null || fail "new logbook"
[ "$("$moelog" new entry new.md --label one)" = "CLI-T-000" ] || fail "first entry id"
[ "$("$moelog" new entry new.md --label two --command 'moelog bench --topk 2')" = "CLI-T-001" ] || fail "second entry id"
"$moelog" check new.md >/dev/null || fail "new logbook check"
echo "charts/criteria CLI checks passed"

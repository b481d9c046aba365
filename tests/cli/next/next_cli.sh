#!/usr/bin/env bash
# End-to-end checks of `moelog check --suggest` and `moelog next` on copies
# of the seed logbooks and of a small logbook of our own (never on the
# source tree): predicates from prose, evidence kinds, and a hill-climb that
# `next --write` and `update` drive on the model target with no hand edits.
# usage: next_cli.sh MOELOG SOURCE_DIR WORK_DIR
set -u
moelog=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cp "$src"/recipes/*.md "$src"/tests/cli/next/climb_logbook.md "$src"/tests/cli/next/cell_logbook.md "$work"/ || exit 1
cp "$src"/tests/golden/idioms_gpu_jobs/input.md "$work"/gpu_logbook.md || exit 1
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# --- predicates from prose: the int8 seed --------------------------------
cp moe_ep_int8_logbook.md before.md
out=$("$moelog" check moe_ep_int8_logbook.md --suggest) || fail "suggest: $out"
grep -q 'suggest: pairs quant_mode=none vs quant_mode=int8 same tokens,hidden,mlp_dim,experts,topk' <<<"$out" ||
  fail "A vs B not read: $out"
grep -q 'suggest: sweep topk in {1,2,4,6,8} where quant_mode=int8; pairs quant_mode=none vs quant_mode=int8' <<<"$out" ||
  fail "sweep not read: $out"
grep -q 'manual: asks for a judgement' <<<"$out" || fail "judgement should stay manual: $out"
cmp -s before.md moe_ep_int8_logbook.md || fail "--suggest without --write changed the file"
"$moelog" update moe_ep_int8_logbook.md >/dev/null 2>&1 || fail "update of the int8 seed"
"$moelog" check moe_ep_int8_logbook.md --suggest --write --only 1 2>/dev/null >/dev/null || fail "--write --only 1"
[ "$(grep -c '<!-- moelog: ' moe_ep_int8_logbook.md)" -eq 1 ] || fail "--only 1 should add one predicate"
"$moelog" check moe_ep_int8_logbook.md --suggest --write 2>/dev/null >/dev/null || fail "--write"
[ "$(grep -c '<!-- moelog: pairs\|<!-- moelog: sweep' moe_ep_int8_logbook.md)" -eq 2 ] || fail "two predicates expected"
# The prose is unchanged: on a fresh copy, removing the added comment lines gives the file back.
cp before.md prose.md
"$moelog" check prose.md --suggest --write >/dev/null 2>&1 || fail "--write on a fresh copy"
[ "$(grep -c '<!-- moelog: ' prose.md)" -eq 2 ] || fail "two predicates on the fresh copy"
grep -v '^  <!-- moelog: \(pairs\|sweep\)' prose.md | cmp -s - before.md || fail "the prose changed"
# check evaluates them; the planned entry's modeled runs meet nothing (predicted, not met).
out=$("$moelog" check moe_ep_int8_logbook.md); rc=$?
grep -q ': predicted: We have direct `quant_mode=none`' <<<"$out" || fail "A/B should be predicted: $out"
grep -q ': unmet: We have one top-k sweep' <<<"$out" || fail "sweep should be unmet: $out"
! grep -q ': met: ' <<<"$out" || fail "nothing is met by a plan: $out"
[ $rc -eq 4 ] || fail "unmet wins over predicted: rc=$rc"
out=$("$moelog" check moe_ep_int8_criteria.md --logbook moe_ep_int8_logbook.md); rc=$?
! grep -q ': met: ' <<<"$out" || fail "shipped criteria met by a plan: $out"
grep -q ': predicted: We have direct' <<<"$out" || fail "shipped A/B criterion should be predicted: $out"
"$moelog" check moe_ep_int8_logbook.md --write >/dev/null 2>&1; [ $? -eq 2 ] || fail "--write without --suggest is a usage error"
"$moelog" check moe_ep_int8_logbook.md --suggest --only x >/dev/null 2>&1; [ $? -eq 2 ] || fail "--only x"

# --- the EP seed: suggestions, and next says what beats the best or why nothing can
out=$("$moelog" check moe_ep_benchmark_logbook.md --suggest) || fail "EP suggest"
grep -q 'suggest: repeats at least 2 where parallel_mode=ep' <<<"$out" || fail "repeats not read: $out"
grep -q 'suggest: table parallel_mode {none,ep} x topk {2,8}' <<<"$out" || fail "table not read: $out"
out=$("$moelog" next moe_ep_benchmark_logbook.md) || fail "next on the EP seed: $out"
grep -q '^best so far: ' <<<"$out" || fail "no best: $out"
if grep -q '^no proposal on a validated path: ' <<<"$out"; then
  grep -q 'exhausted at this shape' <<<"$out" || fail "no reason: $out"
else
  grep -q '% over the best' <<<"$out" || fail "no gain: $out"
fi
grep -q '^exploration: unvalidated paths' <<<"$out" || fail "unvalidated paths not listed apart: $out"
# Exploration is an interval, never a point; no figure listed twice.
! grep -E '^  - [^[]*: [0-9.]+ TF/s' <<<"$out" || fail "an exploration without an interval: $out"
[ "$(grep -o '^  - .*: \[[0-9.]*, [0-9.]*\]' <<<"$out" | sed 's/.*: //' | sort | uniq -d | wc -l)" -eq 0 ] ||
  fail "a figure listed twice: $out"
# Exploration changes as few keys as it can: the key counts never decrease
# down the list (a combination after its parts), and at the end of the EP
# seed the top five hold the single-key change its authors ran next
# (quant_mode=int8 on the EP path, the int8 logbook's first entry).
keys=$(sed -n '/^exploration: /,/^$/p' <<<"$out" | grep '^  - ' | sed 's/: \[.*//' | awk -F', ' '{print NF}')
[ -n "$keys" ] && [ "$keys" = "$(sort -n <<<"$keys")" ] || fail "exploration not fewest keys first: $out"
sed -n '/^exploration: /,/^$/p' <<<"$out" | grep '^  - ' | head -5 | grep -q '^  - quant_mode=int8: \[' ||
  fail "the top five miss quant_mode=int8: $out"
cp moe_ep_benchmark_logbook.md ep_before.md
n_before=$(grep -c '^### ' moe_ep_benchmark_logbook.md)
out=$("$moelog" next moe_ep_benchmark_logbook.md --write --date "2026-02-10 09:00" 2>&1) || fail "--write on the EP seed: $out"
[ "$(grep -c '^### ' moe_ep_benchmark_logbook.md)" -eq $((n_before + 1)) ] || fail "one entry appended: $out"
head -c "$(wc -c <ep_before.md)" moe_ep_benchmark_logbook.md | cmp -s - ep_before.md || fail "the seed's text changed"
"$moelog" update moe_ep_benchmark_logbook.md --dry-run >/dev/null 2>&1 || fail "update plans the new entry"

# --- a GPU logbook of another harness: criteria and record, exit 0 ---------
out=$("$moelog" next gpu_logbook.md 2>&1) || fail "next on a GPU logbook: $out"
! grep -q 'not found' <<<"$out" || fail "GPU logbook: $out"

# --- one missing cell: the first proposal, and --write + update meet it ---
"$moelog" update cell_logbook.md >/dev/null 2>&1 || fail "update cells"
out=$("$moelog" check cell_logbook.md); [ $? -eq 4 ] || fail "the table should be unmet: $out"
grep -q 'missing parallel_mode=none,topk=8' <<<"$out" || fail "the missing cell: $out"
out=$("$moelog" next cell_logbook.md) || fail "next cells: $out"
grep -q '^C1\. the missing cell parallel_mode=none, topk=8 (topk=8 from run ' <<<"$out" || fail "first proposal: $out"
grep -q 'completes: The model gives an EP vs non-EP table' <<<"$out" || fail "criterion named: $out"
cp cell_logbook.md cells_before.md
out=$("$moelog" next cell_logbook.md --write --date "2026-03-02 09:00" 2>&1) || fail "next --write cells: $out"
grep -q '^### 2026-03-02 09:00 - CELL-003 Next: topk=8' cell_logbook.md || fail "entry: $(tail -12 cell_logbook.md)"
"$moelog" update cell_logbook.md >/dev/null 2>&1 || fail "update after --write"
out=$("$moelog" check cell_logbook.md)
grep -q ': met: The model gives an EP vs non-EP table' <<<"$out" || fail "the table is not met after --write + update: $out"

# --- a hill-climb on the model target, no hand edits ---------------------
"$moelog" update climb_logbook.md >/dev/null 2>&1 || fail "update climb"
"$moelog" check climb_logbook.md >/dev/null; [ $? -eq 4 ] || fail "the start should leave the criterion unmet"
met=0
for step in 1 2 3 4; do
  out=$("$moelog" next climb_logbook.md -n 2 --write --date "2026-03-0$step 12:00" 2>&1) || fail "next --write step $step: $out"
  "$moelog" update climb_logbook.md >/dev/null 2>&1 || fail "update step $step"
  out=$("$moelog" check climb_logbook.md); rc=$?
  if grep -q ': met: The model predicts at least 320 TF/s' <<<"$out"; then met=$step; break; fi
done
[ $met -gt 0 ] || fail "the climb never met the model criterion: $out"
# The measured criterion is not met by predictions: it is predicted (exit 7 when nothing is unmet).
grep -q ': predicted: A measured run reaches 320 TF/s' <<<"$out" || fail "measured criterion should be predicted: $out"
[ $rc -eq 7 ] || fail "predicted only: exit 7, got $rc"
grep -q '^### 2026-03-01 12:00 - CLIMB-002 Next: ' climb_logbook.md || fail "entry heading: $(grep '^###' climb_logbook.md)"
grep -q -- '- Hypothesis: the v5p model predicts ' climb_logbook.md || fail "hypothesis"
grep -q "execute -- /bin/bash -lc 'set -euo pipefail; .venv/bin/python lib/levanter/scripts/bench/bench_moe_hillclimb.py .*--parallel-mode ep.*'\`" climb_logbook.md ||
  fail "command not in the latest command's form: $(grep -n 'CLIMB-002' -A4 climb_logbook.md)"
grep -q '<!-- moelog:begin id=CLIMB-002 ' climb_logbook.md || fail "update did not table the new entry"
"$moelog" ids climb_logbook.md >/dev/null || fail "ids"
echo "CLI checks passed"

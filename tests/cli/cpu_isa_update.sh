#!/usr/bin/env bash
# The CPU engine end to end on whatever ISA this process sees (CI runs it
# plain, with ONEDNN_MAX_CPU_ISA=AVX2 and with AVX512_CORE):
# - `moelog update --target cpu` of a small logbook (bf16, f32, int8, EP,
#   forward and backward, numerics checked) succeeds and writes every table;
# - the ISA appears in `moelog runs` and in bench's devices line;
# - a run cached under one ISA tier is not reused under another;
# - native bf16 forced where oneDNN lacks it is exit 5 with the way out.
# Usage: cpu_isa_update.sh MOELOG_BINARY LOGBOOK
set -euo pipefail
MOELOG=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp "$SRC" "$WORK/isa.md"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$MOELOG" update --target cpu "$WORK/isa.md" > "$WORK/update.out" 2>&1 || { cat "$WORK/update.out"; fail "update exited $?"; }
regions=$(grep -c 'moelog:begin' "$WORK/isa.md" || true)
[ "$regions" = 3 ] || fail "expected 3 result regions, found $regions"
if grep -q 'failed' "$WORK/isa.md"; then fail "a run failed: $(grep failed "$WORK/isa.md")"; fi

# A planned entry (its Result pending) that moelog measured here is evidence,
# not a prediction: no "Prediction, not run" over measured rows or chart.
printf '# P\n\n## Experiment Log\n### 2026-04-01 11:00 - P-1 planned\n- Command (planned):\n  - `python bench_moe_hillclimb.py --tokens 128 --hidden 64 --mlp-dim 32 --experts 4 --topk 2 --distribution random --iters 1 --warmup 0`\n- Result: pending.\n' > "$WORK/planned.md"
"$MOELOG" update --target cpu "$WORK/planned.md" > "$WORK/planned.out" 2>&1 || { cat "$WORK/planned.out"; fail "planned update exited $?"; }
grep -q "measured by moelog on this machine's CPU\|Measured by moelog on this machine's CPU" "$WORK/planned.md" || fail "planned entry: no measured table: $(cat "$WORK/planned.md")"
if grep -q 'Prediction' "$WORK/planned.md"; then fail "a measured run called a prediction: $(grep Prediction "$WORK/planned.md")"; fi

isa=$("$MOELOG" runs --db "$WORK/.moelog/runs.db" --format csv | sed -n 2p)
case "$isa" in *isa=*bf16=*kernels=*) ;; *) fail "moelog runs has no cpu_isa: $isa" ;; esac
if [ "${ONEDNN_MAX_CPU_ISA:-}" = AVX2 ]; then
  case "$isa" in *"isa=avx2 bf16=f32-compute kernels=avx2"*) ;; *) fail "capped to AVX2 but ran: $isa" ;; esac
fi

"$MOELOG" bench --target cpu --tokens 256 --hidden 64 --mlp-dim 64 --experts 4 --topk 2 --impl fused_w13 \
  --distribution random --iters 1 --warmup 0 > "$WORK/bench1.out"
line=$(head -1 "$WORK/bench1.out")
case "$line" in devices=*isa=*bf16=*kernels=*) ;; *) fail "devices line without the ISA: $line" ;; esac

# Same config, same ISA: cached. Another kernel tier: not cached.
"$MOELOG" update --target cpu --dry-run "$WORK/isa.md" > "$WORK/dry.out" 2>&1
grep -qi 'miss' "$WORK/dry.out" && { cat "$WORK/dry.out"; fail "same ISA: expected every unit cached"; }
MOELOG_CPU_ISA=baseline "$MOELOG" update --target cpu --dry-run "$WORK/isa.md" > "$WORK/dry2.out" 2>&1
grep -qi 'miss' "$WORK/dry2.out" || { cat "$WORK/dry2.out"; fail "another kernel tier reused the cached runs"; }

# Native bf16 where oneDNN has none (AVX2 cap): a clear error, exit 5.
set +e
MOELOG_BF16=native ONEDNN_MAX_CPU_ISA=AVX2 "$MOELOG" bench --target cpu --tokens 256 --hidden 64 --mlp-dim 64 \
  --experts 4 --topk 2 --impl fused_w13 --distribution random --iters 1 --warmup 0 > "$WORK/bench.out" 2> "$WORK/bench.err"
rc=$?
set -e
[ "$rc" = 5 ] || { cat "$WORK/bench.err"; fail "forced native bf16 on AVX2: exit $rc, expected 5"; }
grep -q 'bfloat16 matmul' "$WORK/bench.err" && grep -q -- '--dtype float32' "$WORK/bench.err" && \
  grep -q 'isa=avx2' "$WORK/bench.err" || { cat "$WORK/bench.err"; fail "unclear message"; }
grep -q 'internal error' "$WORK/bench.err" && fail "reported as an internal error"
echo "ok: $isa"

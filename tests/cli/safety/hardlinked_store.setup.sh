# Another project's moelog store, hard-linked where this logbook's store goes.
mkdir -p "$OUT/project"
printf '# P\n## Experiment Log\n### 2026-11-24 09:00 - P-001 x\n- Command: `python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 1`\n' > "$OUT/project/p.md"
"$MOELOG" update "$OUT/project/p.md" > /dev/null
mkdir -p "$DOC/.moelog"
ln "$OUT/project/.moelog/runs.db" "$DOC/.moelog/runs.db"

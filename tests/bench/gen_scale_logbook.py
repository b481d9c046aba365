#!/usr/bin/python3
"""Writes a logbook of N entries for the scale benchmark (BENCHMARKS.md section 7):
each entry one hillclimb command on the v5p model, 12 distinct configs among them.
Usage: gen_scale_logbook.py N OUT.md"""
import sys
n=int(sys.argv[1])
out=["# Scale: Research Logbook","","## Experiment ID Prefix","- `SC`","","## Experiment Log"]
for i in range(n):
    tk=2+(i%4); h=[256,512,1024][i%3]
    out.append(f"### 2026-01-{1+i//1440%28:02d} {i//60%24:02d}:{i%60:02d} - SC-{i:05d} entry {i}")
    out.append("- Hypothesis: scale")
    out.append(f"- Command: `python bench_moe_hillclimb.py --tokens 4096 --hidden {h} --mlp-dim 256 --experts 16 --topk {tk} --impl fused_w13 --distribution random`")
    out.append("- Result: pending")
    out.append("")
open(sys.argv[2],"w").write("\n".join(out)+"\n")

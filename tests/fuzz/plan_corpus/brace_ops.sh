X=2; python bench_moe_hillclimb.py --tokens 64 --topk ${#X} --experts ${X/2/8} --mlp-dim ${!X}

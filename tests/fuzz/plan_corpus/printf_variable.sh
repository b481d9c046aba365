printf -v TK %s 8
python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk ${TK:-2}

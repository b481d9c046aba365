for a in 1 2; do for b in x y; do python bench_moe_hillclimb.py --tokens 64 --topk $a --impl ${b:-both}; done; done

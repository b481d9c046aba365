python bench_moe_hillclimb.py --tokens 64 --topk $'\x32'

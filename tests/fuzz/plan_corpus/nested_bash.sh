bash -c 'bash -c "python bench_moe_hillclimb.py --tokens 64 --topk $(id -u)"'

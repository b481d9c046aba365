python bench_moe_hillclimb.py --tokens 64 --trace-dir /tmp¡/p

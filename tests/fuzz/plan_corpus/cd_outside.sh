cd /etc && mkdir -p ../../x && python bench_moe_hillclimb.py --tokens 64

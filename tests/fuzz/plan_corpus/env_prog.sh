env LD_PRELOAD=/tmp/x.so python bench_moe_hillclimb.py --tokens 64; env -i sh -c id

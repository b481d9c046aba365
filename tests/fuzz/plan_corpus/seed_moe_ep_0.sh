lib/levanter/scripts/bench/bench_moe_hillclimb.py

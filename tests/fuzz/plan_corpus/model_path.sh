python bench_moe_hillclimb.py --tokens 64 --hardware ../../forged.json --model-params /tmp/p.json

date -f /tmp/outside/canary.txt
sleep 1
hostname pwned
python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2

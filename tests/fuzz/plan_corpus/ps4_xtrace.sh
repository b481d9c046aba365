PS4='$(touch /tmp/outside/pwned-ps4)'
set -x
mkdir -p logs
python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2

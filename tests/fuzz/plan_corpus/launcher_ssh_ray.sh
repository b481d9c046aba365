ssh tpu-host 'python -m levanter.bench --x 1'
ray job submit --address http://127.0.0.1:8265 --working-dir . -- python lib/levanter/scripts/bench/bench_moe_hillclimb.py --experts 32

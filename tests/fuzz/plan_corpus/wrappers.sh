JAX_PLATFORMS=tpu timeout -k 5 600 nohup time nice -n 3 stdbuf -oL python -m lib.levanter.scripts.bench.bench_moe_hillclimb --tokens 64 > logs/x 2>&1
sbatch -N 1 --wrap 'srun python3.11 bench_moe_hillclimb.py --tokens 64'
uv run iris --cluster=c job run -e A 1 -e B -- timeout 5
timeout
srun -N
source "$HOME/.local/bin/env"
python bench_moe_hillclimb.py --trace-dir "$HOME/t" --kernel x --ep-list 1

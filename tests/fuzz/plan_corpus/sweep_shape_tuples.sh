set -euo pipefail
for shape in "4096 1024 512 8" "8192 2048 1024 16"; do
  read -r T H M E <<<"$shape"
  for K in 1 2; do
    python3 lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens "$T" --hidden "$H" --mlp-dim "$M" --experts "$E" --topk "$K"
  done
done

set -euxo pipefail; python bench_moe_hillclimb.py --tokens 64

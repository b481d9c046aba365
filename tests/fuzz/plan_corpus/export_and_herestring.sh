cd .
export X="$(touch /tmp/outside/pwned-export)"
read -r A <<< "$(touch /tmp/outside/pwned-read)"
for v in $(touch /tmp/outside/pwned-for); do python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2; done

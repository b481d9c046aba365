cd ~/checkout
source .venv/bin/activate
sudo rm -f /tmp/libtpu_lockfile
mkdir -p /tmp/profiles
LOG=/tmp/sweep_$(date +%Y%m%d_%H%M%S).log
: > "$LOG"
for k in 2 4; do
  if [ -f "$LOG.k$k.done" ]; then continue; fi
  echo "topk=$k" | tee -a "$LOG"
  .venv/bin/python lib/levanter/scripts/bench/bench_moe_hillclimb.py --topk "$k" 2>&1 | tee -a "$LOG"
  touch "$LOG.k$k.done"
done

grep -q "ATK-002.svg: is a FIFO" "$W/out.txt" || { echo "no FILE: message naming the FIFO: $(cat "$W/out.txt")"; exit 1; }
[ -p "$DOC/figures/attack/ATK-002.svg" ] || { echo "the FIFO was replaced"; exit 1; }

grep -q "ATK-002.dat: is a FIFO" "$W/out.txt" || { echo "no FILE: message naming the FIFO: $(cat "$W/out.txt")"; exit 1; }

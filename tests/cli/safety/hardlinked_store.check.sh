grep -q "runs.db: has 2 hard links" "$W/out.txt" || { echo "no FILE: message naming the hard link: $(cat "$W/out.txt")"; exit 1; }

ln -s "$OUT/canary.txt" "$DOC/attack.md.lock"

mkdir -p "$DOC/figures/attack"
for id in ATK-001 ATK-002; do
  ln -s "$OUT/canary.txt" "$DOC/figures/attack/$id.tmp.svg"
  ln -s "$OUT/canary.txt" "$DOC/figures/attack/$id.dat.tmp"
done

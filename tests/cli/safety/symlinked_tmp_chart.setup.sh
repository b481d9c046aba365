mkdir -p "$DOC/figures"
for id in ATK-001 ATK-002; do
  ln -s "$OUT/canary.txt" "$DOC/figures/$id.tmp.svg"
  ln -s "$OUT/canary.txt" "$DOC/figures/$id.dat.tmp"
done

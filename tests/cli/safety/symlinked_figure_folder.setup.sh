mkdir -p "$DOC/figures"
ln -s "$OUT" "$DOC/figures/attack"

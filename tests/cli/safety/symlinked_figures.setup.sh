ln -s "$OUT" "$DOC/figures"

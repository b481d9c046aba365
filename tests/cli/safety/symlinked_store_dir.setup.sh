ln -s "$OUT" "$DOC/.moelog"

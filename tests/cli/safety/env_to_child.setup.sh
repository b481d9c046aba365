. "$SRC/evil_lib.setup.inc"
mkdir -p "$DOC/bin" "$DOC/forged"
for p in cat tee agent; do printf '#!/bin/sh\ntouch "%s/pwned-path-%s"\n' "$OUT" "$p" > "$DOC/bin/$p"; chmod +x "$DOC/bin/$p"; done
echo '{"not": "a model"}' > "$DOC/forged/v5p_params.json"

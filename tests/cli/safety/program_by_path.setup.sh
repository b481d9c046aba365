mkdir -p "$DOC/bin"
for p in echo sh; do printf '#!/bin/sh\ntouch "%s/pwned-bin-%s"\n' "$OUT" "$p" > "$DOC/bin/$p"; chmod +x "$DOC/bin/$p"; done

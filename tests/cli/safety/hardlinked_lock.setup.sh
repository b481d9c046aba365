# The document's lock file hard-linked to a file outside the folder (moelog removes its lock when done).
ln "$OUT/canary.txt" "$DOC/attack.md.lock"

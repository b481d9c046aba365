# The store's shared-memory file hard-linked to an unrelated file: SQLite
# would truncate and map it.
mkdir -p "$DOC/.moelog"
echo "precious" > "$OUT/precious.txt"
ln "$OUT/precious.txt" "$DOC/.moelog/runs.db-shm"

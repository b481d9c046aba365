# A genuine moelog store plus an AFTER INSERT trigger whose cross join never
# ends: update hung forever. Now the store is refused before anything runs.
cp "$DOC/attack.md" "$W/original.md"
mkdir -p "$DOC/.moelog"
"$MOELOG" update --db "$DOC/.moelog/runs.db" "$W/original.md" > /dev/null
cp "$DOC/attack.md" "$W/original.md"
sqlite3 "$DOC/.moelog/runs.db" "CREATE TRIGGER hang AFTER INSERT ON runs BEGIN
  SELECT count(*) FROM runs a, runs b, runs c, runs d, runs e, runs f, runs g, runs h; END;"

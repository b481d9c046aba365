# Another application's SQLite file, reached through a link.
sqlite3 "$OUT/other.db" "CREATE TABLE notes(x); INSERT INTO notes VALUES ('keep me');"
mkdir -p "$DOC/.moelog"
ln -s "$OUT/other.db" "$DOC/.moelog/runs.db"

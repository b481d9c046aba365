# Another application's SQLite file where the store would be.
mkdir -p "$DOC/.moelog"
sqlite3 "$DOC/.moelog/runs.db" "CREATE TABLE notes(x); INSERT INTO notes VALUES ('keep me');"
echo "$DOC/.moelog/runs.db" >> "$W/protect"

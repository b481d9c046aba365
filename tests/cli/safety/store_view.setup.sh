# A genuine moelog store plus a view and a table of someone else's.
cp "$DOC/attack.md" "$W/original.md"
mkdir -p "$DOC/.moelog"
"$MOELOG" update --db "$DOC/.moelog/runs.db" "$W/original.md" > /dev/null
cp "$DOC/attack.md" "$W/original.md"
sqlite3 "$DOC/.moelog/runs.db" "CREATE VIEW served AS SELECT * FROM runs; CREATE TABLE extra(x);"

# A genuine moelog store (made by the sender's moelog) plus one trigger that
# deletes every row inserted after it: update exited 0 with a table while the
# store kept nothing. Now the store is refused before anything runs.
cp "$DOC/attack.md" "$W/original.md"
mkdir -p "$DOC/.moelog"
"$MOELOG" update --db "$DOC/.moelog/runs.db" "$W/original.md" > /dev/null
cp "$DOC/attack.md" "$W/original.md"
sqlite3 "$DOC/.moelog/runs.db" "CREATE TRIGGER eat AFTER INSERT ON runs BEGIN DELETE FROM runs; END;"

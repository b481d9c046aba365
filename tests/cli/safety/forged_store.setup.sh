# The sender updates the logbook once (with their own key), edits the stored
# figures and provenance, and ships .moelog/runs.db with the logbook.
cp "$DOC/attack.md" "$W/sender.md"
XDG_CONFIG_HOME="$W/sender-config" "$MOELOG" update --db "$DOC/.moelog/runs.db" "$W/sender.md" > /dev/null
sqlite3 "$DOC/.moelog/runs.db" "UPDATE runs SET metrics_json = json_set(metrics_json, '\$.tflops', 999.999),
  tflops = 999.999, entry_id = 'OTHER-1', logbook_path = '/elsewhere/other.md', host = 'sender-host'"

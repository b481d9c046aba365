# The logbook's escape sequences, bell and carriage return (in a title, a
# region ID and a command that needs consent) reach no terminal: moelog's
# output holds none of their bytes.
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$W/out.txt"; then
  echo "control bytes of the logbook in moelog's output: $(cat -v "$W/out.txt" | head -5)"
  exit 1
fi
grep -q "ATK-002: skipped: needs --allow-shell" "$W/out.txt" || { echo "no consent report: $(cat "$W/out.txt")"; exit 1; }

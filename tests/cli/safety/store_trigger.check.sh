# Refused with the reason, the logbook untouched.
cmp -s "$DOC/attack.md" "$W/original.md" || { echo "the logbook was changed"; exit 1; }
grep -q "trigger 'eat' on 'runs' is not one of moelog's" "$W/out.txt" || { echo "no reason given: $(cat "$W/out.txt")"; exit 1; }

cmp -s "$DOC/attack.md" "$W/original.md" || { echo "the logbook was changed"; exit 1; }
grep -Eq "(view 'served'|table 'extra') is not one of moelog's" "$W/out.txt" || { echo "no reason given: $(cat "$W/out.txt")"; exit 1; }

# The forged figure is neither served nor counted; moelog says the store was edited.
if grep -q '999.999' "$DOC/attack.md"; then echo "forged figure in the document"; exit 1; fi
grep -q "differs from the v5p model (tflops 999.999 stored" "$W/out.txt" || { echo "tampering not reported: $(cat "$W/out.txt")"; exit 1; }
grep -q "foreign run(s) in the store ignored" "$W/out.txt" || { echo "foreign rows not reported"; exit 1; }
n=$("$MOELOG" runs --logbook "$DOC/attack.md" --where tflops=999.999 --format csv 2> /dev/null | tail -n +2 | wc -l)
[ "$n" = 0 ] || { echo "forged rows counted by runs --logbook"; exit 1; }
n=$("$MOELOG" runs --db "$DOC/.moelog/runs.db" --all --where tflops=999.999 --format csv | tail -n +2 | grep -c 'foreign')
[ "$n" -gt 0 ] || { echo "runs --all does not show the foreign rows with their origin"; exit 1; }
"$MOELOG" update --check "$DOC/attack.md" > /dev/null 2>&1 || { echo "a second update is not clean"; exit 1; }
# compare in store mode serves no forged row either: the foreign rows are counted, never shown.
"$MOELOG" compare --db "$DOC/.moelog/runs.db" --a topk=1 --b topk=2 > "$W/compare.txt" 2>&1
if grep -q '999.999' "$W/compare.txt"; then echo "compare serves the forged row: $(cat "$W/compare.txt")"; exit 1; fi
grep -q "foreign runs\? ignored" "$W/compare.txt" || { echo "compare does not count the foreign rows: $(cat "$W/compare.txt")"; exit 1; }

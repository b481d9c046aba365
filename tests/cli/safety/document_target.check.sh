# The conflict is reported, and no run of the document's target was made.
grep -q 'asks for --target cpu' "$W/out.txt" || { echo "conflict not reported"; exit 1; }
n=$("$MOELOG" runs --db "$DOC/.moelog/runs.db" --where target=cpu --format csv | tail -n +2 | wc -l)
[ "$n" = 0 ] || { echo "$n cpu run(s) stored"; exit 1; }

# Nothing the document wrote reaches the store or the document.
if sed -n "/moelog:begin/,/moelog:end/p" "$DOC/attack.md" | grep -q '| 999'; then echo "forged figure in the document"; exit 1; fi
n=$("$MOELOG" runs --db "$DOC/.moelog/runs.db" --where tflops=999 --format csv | tail -n +2 | wc -l)
[ "$n" = 0 ] || { echo "forged figure stored"; exit 1; }

# The cpu run itself succeeded: the document's environment was not its environment.
grep -q '0 failed' "$W/out.txt" || { echo "runs failed: $(cat "$W/out.txt")"; exit 1; }

# The chart drawn once (a stamp in the region), then its data file replaced by a FIFO.
"$MOELOG" update "$DOC/attack.md" > /dev/null
rm "$DOC/figures/attack/ATK-002.dat"
mkfifo "$DOC/figures/attack/ATK-002.dat"
# The region edited so the update has something to write.
sed -i 's/^- Result:$/- Result: see below/' "$DOC/attack.md"

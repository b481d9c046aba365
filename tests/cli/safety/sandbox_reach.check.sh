# Inside the sandbox: no file outside the folder, an empty $HOME, /run and
# /tmp, no host socket, no secret from /etc; the trace's link and count are
# not followed or believed.
S="$DOC/.moelog/scratch"
[ -d "$S" ] || { echo "the script did not run"; exit 1; }
[ ! -e "$S/leaked-canary.txt" ] || { echo "copied a file from outside the folder"; exit 1; }
[ ! -s "$S/home-list.txt" ] || { echo "\$HOME is visible: $(cat "$S/home-list.txt")"; exit 1; }
# /tmp holds only the folders moelog binds: the trace folder, the path to the
# scratch folder, and (read-only) moelog and its data when they live under /tmp.
tmp_top() { case "$1" in /tmp/*) p=${1#/tmp/}; echo "${p%%/*}" ;; esac; }
grep -v -e '^/' -e '^$' -e '^moelog-trace-' -e "^$(basename "$W")\$" -e 'No such file' \
  -e "^$(tmp_top "$MOELOG")\$" -e "^$(tmp_top "$(readlink -f "$SRC")")\$" "$S/run-list.txt" | grep -q . &&
  { echo "/run, /var/run or /tmp not empty: $(cat "$S/run-list.txt")"; exit 1; }
[ ! -s "$S/sockets.txt" ] || { echo "host sockets reachable: $(head -3 "$S/sockets.txt")"; exit 1; }
grep -q '^root:' "$S/shadow.txt" 2> /dev/null && { echo "/etc/shadow readable"; exit 1; }
if sqlite3 "$DOC/.moelog/runs.db" "SELECT stdout_tail FROM runs" | grep -q 'PATH='; then echo "moelog's environment stored"; exit 1; fi
[ "$(sqlite3 "$DOC/.moelog/runs.db" "SELECT status FROM runs WHERE entry_id = 'ATK-002'")" = failed ] ||
  { echo "the linked trace output was read as a result"; exit 1; }

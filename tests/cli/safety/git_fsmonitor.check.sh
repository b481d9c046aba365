# The provenance was read (commit, dirty) without running the repository's commands.
row=$("$MOELOG" runs --db "$DOC/.moelog/runs.db" --format json | head -c 100000)
commit=$(git -C "$DOC" -c core.fsmonitor= rev-parse HEAD)
case "$row" in *"$commit"*) ;; *) echo "git commit $commit not recorded"; exit 1 ;; esac

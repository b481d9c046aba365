# A repository shipped with the logbook whose configuration runs commands:
# fsmonitor, a clean filter on a modified file, hooks. Reading its commit and
# dirty state must run none of them.
git -C "$DOC" init -q
echo one > "$DOC/tracked.txt"
git -C "$DOC" add tracked.txt
git -C "$DOC" -c user.name=a -c user.email=a@b commit -qm init
git -C "$DOC" config core.fsmonitor "touch $OUT/pwned-fsmonitor; false"
git -C "$DOC" config filter.evil.clean "touch $OUT/pwned-filter; cat"
git -C "$DOC" config core.hooksPath "$DOC/hooks"
git -C "$DOC" config core.pager "touch $OUT/pwned-pager; cat"
echo '* filter=evil' > "$DOC/.gitattributes"
echo two > "$DOC/tracked.txt"

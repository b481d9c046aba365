#!/usr/bin/env bash
# Files, keys and bytes a received folder can hold are checked before moelog
# uses them: a key that cannot sign stops the command with the fix, before
# anything runs; a logbook that is a device or a FIFO is refused at once; a
# logbook linked into place is written at its target; C1 control characters
# of a logbook never reach the terminal. Usage: hostile_input.sh MOELOG_BINARY
set -uo pipefail
MOELOG=$(readlink -f "$1")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# AddressSanitizer reserves terabytes of address space: no limit under it
# (the time bound and the message still tell), and more time for its slowness.
LIMIT=2000000 MAXMS=5000
if grep -qa __asan_init "$MOELOG"; then LIMIT=unlimited MAXMS=30000; fi
LOGBOOK='# Hostile

## Experiment Log
### 2026-11-24 10:00 - HOS-001 control
- Command: `python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2`
- Result:
'

# --- A key of mode 0644 (a dotfiles checkout): refused with the fix before
# anything runs; no store is made, the logbook is unchanged.
mkdir -p "$WORK/key/cfg/moelog" "$WORK/key/doc"
head -c 32 /dev/urandom > "$WORK/key/cfg/moelog/store.key"
chmod 644 "$WORK/key/cfg/moelog/store.key"
printf '%s' "$LOGBOOK" > "$WORK/key/doc/log.md"
cp "$WORK/key/doc/log.md" "$WORK/key/original.md"
XDG_CONFIG_HOME="$WORK/key/cfg" timeout 60 "$MOELOG" update "$WORK/key/doc/log.md" > "$WORK/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "a key of mode 0644: exit $rc, want 1: $(cat "$WORK/out")"
grep -q "chmod 600 $WORK/key/cfg/moelog/store.key" "$WORK/out" || fail "a key of mode 0644: no fix said: $(cat "$WORK/out")"
[ -e "$WORK/key/doc/.moelog/runs.db" ] && fail "a key of mode 0644: a store was made (unsigned rows)"
cmp -s "$WORK/key/doc/log.md" "$WORK/key/original.md" || fail "a key of mode 0644: the logbook changed"
# The same key linked into place from elsewhere (stow, chezmoi), 0600: used.
mkdir -p "$WORK/key/dotfiles"
mv "$WORK/key/cfg/moelog/store.key" "$WORK/key/dotfiles/store.key"
chmod 600 "$WORK/key/dotfiles/store.key"
ln -s "$WORK/key/dotfiles/store.key" "$WORK/key/cfg/moelog/store.key"
XDG_CONFIG_HOME="$WORK/key/cfg" timeout 60 "$MOELOG" update "$WORK/key/doc/log.md" > "$WORK/out" 2>&1 ||
  fail "a linked 0600 key: update failed: $(cat "$WORK/out")"
XDG_CONFIG_HOME="$WORK/key/cfg" timeout 60 "$MOELOG" update --check "$WORK/key/doc/log.md" > "$WORK/out" 2>&1 ||
  fail "a linked 0600 key: update --check after a clean update fails: $(cat "$WORK/out")"
grep -q "foreign" "$WORK/out" && fail "a linked 0600 key: the user's own runs read as foreign: $(cat "$WORK/out")"

# --- The logbook itself: a link to /dev/zero and a FIFO are refused at once.
mkdir -p "$WORK/files"
ln -s /dev/zero "$WORK/files/zero.md"
mkfifo "$WORK/files/fifo.md"
for cmd in "update" "ids" "check" "update --dry-run"; do
  for f in zero fifo; do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    (ulimit -v "$LIMIT"; timeout 20 "$MOELOG" $cmd "$WORK/files/$f.md") > "$WORK/out" 2>&1
    rc=$? ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    [ "$rc" = 124 ] && fail "$cmd $f.md hung"
    [ "$rc" = 0 ] && fail "$cmd $f.md: exit 0"
    [ "$ms" -gt "$MAXMS" ] && fail "$cmd $f.md took $ms ms"
    grep -Eq "is a (device|FIFO)" "$WORK/out" || fail "$cmd $f.md: not said: $(head -c 300 "$WORK/out")"
  done
done

# --- A logbook linked into place is written at its target; the link stays.
mkdir -p "$WORK/link/notes" "$WORK/link/doc"
printf '%s' "$LOGBOOK" > "$WORK/link/notes/log.md"
ln -s "$WORK/link/notes/log.md" "$WORK/link/doc/log.md"
timeout 60 "$MOELOG" update "$WORK/link/doc/log.md" > "$WORK/out" 2>&1 || fail "a linked logbook: update failed: $(cat "$WORK/out")"
[ -L "$WORK/link/doc/log.md" ] || fail "a linked logbook: the link was replaced by a file"
grep -q "moelog:begin" "$WORK/link/notes/log.md" || fail "a linked logbook: its target was not written"

# --- C1 controls (U+009B CSI, U+009D OSC, and bare bytes 0x9B 0x9D) in a
# title, an ID and a criterion: printed by ids, update --dry-run and check
# --suggest as '?', never raw.
mkdir -p "$WORK/c1"
printf '# C1 \xc2\x9b2J title\n\n## Stop Criteria\n- HOS-001 \xc2\x9d0;x\x07 has been run and recorded \x9b31m\n\n## Experiment Log\n### 2026-11-24 10:00 - C1 \xc2\x9b2J entry \x9d0;t\n- Command: `python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2`\n- Result:\n' > "$WORK/c1/log.md"
for cmd in "ids" "update --dry-run" "check --suggest"; do
  # shellcheck disable=SC2086
  timeout 60 "$MOELOG" $cmd "$WORK/c1/log.md" > "$WORK/out" 2>&1
  if python3 - "$WORK/out" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
text = data.decode('utf-8', errors='surrogateescape')
bad = [c for c in text if 0x80 <= ord(c) <= 0x9f or 0xdc80 <= ord(c) <= 0xdc9f or ord(c) == 0x1b or ord(c) == 7]
sys.exit(1 if bad else 0)
PY
  then :; else fail "$cmd printed a C1 or C0 control: $(cat -v "$WORK/out" | head -5)"; fi
done

echo "$failures failure(s)"
[ "$failures" = 0 ]

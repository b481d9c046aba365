#!/usr/bin/env bash
# Someone else's logbook runs nothing and writes nowhere without consent.
# Each NAME.md here is a small logbook whose second entry attacks moelog in one
# way (NAME.setup.sh, when present, plants links, repositories, libraries,
# FIFOs, hard links or a forged store first; it gets $MOELOG). Each is
# updated with `moelog update` and no consent (a few sandbox cases give
# --allow-shell in their args: the script runs, inside the sandbox); then:
# - the files outside the document's folder (a canary folder the attack
#   targets, and any file the setup lists as protected) are unchanged and
#   nothing was created there;
# - no program but moelog and gnuplot (under coreutils' timeout) was started (strace's execve trace,
#   where ptrace is allowed; always: spies named bash, sh, date, git, ... put
#   first on PATH record any PATH lookup);
# - the exit code is the one the logbook's `<!-- expect-exit: N -->` names,
#   and an entry that needs consent is reported as FILE:LINE;
# - no lock or temporary file is left beside the document;
# - NAME.check.sh, when present, passes (e.g. no forged figure was stored).
# - it ends within 120 s (no FIFO, count or pattern makes it hang);
# Placeholders: @OUT@ (the canary folder), @DOC@ (the document's folder),
# @LIB@ (a folder for the setup's helpers). `<!-- args: ... -->` adds flags.
# Usage: run_attacks.sh MOELOG_BINARY ATTACK_DIR [NAME...]
set -uo pipefail
MOELOG=$(readlink -f "$1")
SRC=$(cd "$2" && pwd)
shift 2
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$SRC"/*.md; do names+=("$(basename "$f" .md)"); done
fi

GNUPLOT=$(command -v gnuplot || echo /usr/bin/gnuplot)
TIMEOUT=$(command -v timeout || echo /usr/bin/timeout)
HAVE_STRACE=0
if command -v strace > /dev/null && strace -f -qq -e trace=execve -o /dev/null true 2> /dev/null; then
  HAVE_STRACE=1
else
  echo "note: strace cannot trace here; checking programs through PATH spies only"
fi

failures=0
fail() { echo "FAIL [$name]: $*"; failures=$((failures + 1)); }

snapshot() {  # every file and link under the canary folder and protected files, with contents
  (cd "$W" && find outside -mindepth 1 -printf '%y %p %l\n' | sort
   find outside -type f -print0 | sort -z | xargs -0 -r sha256sum
   [ -f protect ] && xargs -r sha256sum < protect) 2>&1
}

for name in "${names[@]}"; do
  W=$(mktemp -d)
  OUT=$W/outside DOC=$W/doc LIB=$W/lib
  mkdir -p "$OUT" "$DOC" "$LIB" "$W/spy"
  echo intact > "$OUT/canary.txt"
  sed -e "s|@OUT@|$OUT|g" -e "s|@DOC@|$DOC|g" -e "s|@LIB@|$LIB|g" "$SRC/$name.md" > "$DOC/attack.md"
  if [ -f "$SRC/$name.setup.sh" ]; then
    (cd "$W" && SRC=$SRC W=$W OUT=$OUT DOC=$DOC LIB=$LIB MOELOG=$MOELOG bash -e "$SRC/$name.setup.sh") ||
      { fail "setup failed"; continue; }
  fi
  for p in bash sh dash date sleep hostname git tee cat mkdir echo printf touch env curl python python3 uv rm; do
    printf '#!/bin/sh\necho "%s $*" >> "%s/spied.log"\n' "$p" "$W" > "$W/spy/$p"
    chmod +x "$W/spy/$p"
  done
  before=$(snapshot)
  expect=$(sed -n 's/^<!-- expect-exit: \([0-9]*\) -->$/\1/p' "$DOC/attack.md")
  read -r -a args <<< "$(sed -n 's/^<!-- args: \(.*\) -->$/\1/p' "$DOC/attack.md")"
  cmd=("$MOELOG" update "${args[@]}" "$DOC/attack.md")
  consented=0
  [[ " ${args[*]} " == *" --allow-shell "* ]] && consented=1
  if [ $HAVE_STRACE = 1 ]; then cmd=(strace -f -qq -s 512 -e trace=execve -o "$W/trace" "${cmd[@]}"); fi
  # A hang is a failure too (a FIFO where a file should be, a runaway loop).
  (cd "$DOC" && PATH="$W/spy:$PATH" OMP_NUM_THREADS=2 "$TIMEOUT" -k 5 120 "${cmd[@]}") > "$W/out.txt" 2>&1
  rc=$?
  [ "$rc" = 124 ] && fail "hung: killed after 120 s"

  [ "$rc" = "$expect" ] || fail "exit $rc, expected $expect: $(tail -5 "$W/out.txt")"
  after=$(snapshot)
  [ "$before" = "$after" ] || fail "files outside the document's folder changed: $(diff <(echo "$before") <(echo "$after"))"
  [ $consented = 0 ] && [ -e "$W/spied.log" ] && fail "a program was looked up in PATH and started: $(cat "$W/spied.log")"
  if [ $HAVE_STRACE = 1 ] && [ $consented = 0 ]; then
    # execve("PATH", [...]) = 0: only moelog, gnuplot, timeout, and the sh
    # that popen uses to start exactly "timeout -k 5 60 gnuplot 2>'...'".
    bad=$(grep -o 'execve("[^"]*", \[[^]]*' "$W/trace" |
          grep -v -e "^execve(\"$MOELOG\"" -e "^execve(\"$GNUPLOT\"" -e "^execve(\"$TIMEOUT\"" |
          grep -v -F -e "execve(\"/bin/sh\", [\"sh\", \"-c\", \"$TIMEOUT -k 5 60 $GNUPLOT 2>'" || true)
    [ -n "$bad" ] && fail "started a program other than moelog or gnuplot: $(echo "$bad" | head -3)"
  fi
  if [ "$expect" = 6 ]; then
    grep -q "attack.md:[0-9]*: ATK-002: skipped: needs --allow-shell" "$W/out.txt" ||
      fail "no FILE:LINE report of the entry that needs consent: $(cat "$W/out.txt")"
  fi
  if [ -f "$SRC/$name.check.sh" ]; then
    why=$(cd "$W" && SRC=$SRC W=$W OUT=$OUT DOC=$DOC MOELOG=$MOELOG bash "$SRC/$name.check.sh" 2>&1) || fail "$why"
  fi
  left=$(cd "$DOC" && find . -maxdepth 2 \( -name '*.lock' -o -name '*moelog-tmp*' -o -name '*.tmp-*' \) ! -type l)
  [ -n "$left" ] && fail "left behind: $left"
  if [ -n "${KEEP:-}" ]; then echo "kept $W"; else rm -rf "$W"; fi
  echo "checked $name (exit $rc)"
done
echo "$failures failure(s) in ${#names[@]} attack(s)"
[ "$failures" = 0 ]

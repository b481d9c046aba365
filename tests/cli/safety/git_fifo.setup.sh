# A repository whose config and index are FIFOs: libgit2 would block reading them.
mkdir -p "$DOC/.git/refs/heads" "$DOC/.git/objects"
echo "ref: refs/heads/main" > "$DOC/.git/HEAD"
mkfifo "$DOC/.git/config" "$DOC/.git/index"

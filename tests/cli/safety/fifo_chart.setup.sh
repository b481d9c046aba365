# A FIFO where the entry's chart goes: reading it would block forever.
mkdir -p "$DOC/figures/attack"
mkfifo "$DOC/figures/attack/ATK-002.svg"

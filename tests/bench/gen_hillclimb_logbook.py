#!/usr/bin/python3
"""Writes a hillclimb logbook of about N lines for the update-speed benchmark
(BENCHMARKS.md section 7): the bundled EP seed logbook
(recipes/moe_ep_benchmark_logbook.md), then its Experiment Log again, one day
later each time, with other token counts, so each copy models shapes of its own,
until the logbook has at least N lines (whole entries only). The same N gives
the same bytes.
Usage: gen_hillclimb_logbook.py N OUT.md [SEED_LOGBOOK]"""
import os
import re
import sys

# Token counts of each copy after the first (32768 and 65536 in the seed).
TOKENS = [{"32768": "16384", "65536": "49152"},
          {"32768": "49152", "65536": "98304"},
          {"32768": "8192", "65536": "24576"},
          {"32768": "24576", "65536": "81920"}]


def entries(log_lines):
    """The log's entries, each a list of lines starting at its ### heading."""
    out = []
    for line in log_lines:
        if line.startswith("### "):
            out.append([])
        if out:
            out[-1].append(line)
    return out


def copy_entry(entry, k):
    """Entry `entry` of copy k (k >= 1): dated k days later, other token counts."""
    tokens = TOKENS[(k - 1) % len(TOKENS)]
    out = []
    for line in entry:
        line = re.sub(r"2026-02-(\d\d)", lambda m: "2026-02-%02d" % (int(m.group(1)) + k), line)
        line = re.sub(r"(--tokens |tokens=)(\d+)", lambda m: m.group(1) + tokens.get(m.group(2), m.group(2)), line)
        out.append(line)
    return out


def main():
    n = int(sys.argv[1])
    seed = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "recipes", "moe_ep_benchmark_logbook.md")
    lines = open(seed, encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    log_at = lines.index("## Experiment Log")
    log = entries(lines[log_at + 1:])
    out = list(lines)
    k = 1
    while len(out) < n:
        for e in log:
            if len(out) >= n:
                break
            if out and out[-1] != "":
                out.append("")
            out.extend(copy_entry(e, k))
        k += 1
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

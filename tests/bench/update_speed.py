#!/usr/bin/python3
"""Times a fresh `moelog update` of a hillclimb logbook (BENCHMARKS.md section 7):
gen_hillclimb_logbook.py writes the logbook (about --lines lines), and each run
updates a fresh copy of it with an empty store (every invocation modeled, every
chart drawn). The whole process is timed from outside: wall time, and the CPU
time (user + system) of moelog and of the children it waited for (gnuplot).

With --vs, the two builds run in turn (A B A B ...), and the ratios A/B are
taken pair by pair, so a machine whose speed drifts still gives a fair ratio;
the medians are the figures. Each run's written logbook and figures are hashed,
and every run must write the same bytes (a speed change must not move a figure).

Usage: update_speed.py --moelog BIN [--vs BIN_B] [--lines 1000] [--pairs 5]
                       [--target v5p] [--keep DIR]"""
import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def tree_hash(root):
    """SHA-256 over every file under root (names and bytes), in name order."""
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            if rel.startswith(".moelog") or rel.endswith(".db") or ".db-" in rel:
                continue  # the run store holds run IDs and times
            h.update(rel.encode() + b"\0")
            with open(p, "rb") as fh:
                h.update(fh.read())
            h.update(b"\0")
    return h.hexdigest()


def run_once(binary, logbook, target, work):
    """One fresh update in a new folder: (wall s, cpu s, peak MiB, output hash)."""
    d = tempfile.mkdtemp(dir=work)
    path = os.path.join(d, os.path.basename(logbook))
    shutil.copyfile(logbook, path)
    cmd = [binary, "update", "--target", target, path]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}:\n{err}")
    # ru covers moelog and the children it waited for (gnuplot, timeout).
    cpu = ru.ru_utime + ru.ru_stime
    digest = tree_hash(d)
    shutil.rmtree(d)
    return wall, cpu, ru.ru_maxrss / 1024.0, digest


def describe(name, xs):
    return f"{name} median {statistics.median(xs):.3f} (min {min(xs):.3f}, max {max(xs):.3f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moelog", required=True)
    ap.add_argument("--vs", default="")
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--target", default="v5p")
    ap.add_argument("--keep", default="", help="folder for the logbook (default: a temporary one)")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="moelog-update-speed-")
    os.makedirs(work, exist_ok=True)
    logbook = os.path.join(work, "hillclimb.md")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_hillclimb_logbook.py"), str(a.lines), logbook], check=True)
    with open(logbook, encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    builds = [("A", a.moelog)] + ([("B", a.vs)] if a.vs else [])
    print(f"fresh `moelog update --target {a.target}` of a {lines}-line hillclimb logbook, {a.pairs} rounds")
    for name, b in builds:
        print(f"  {name}: {b}")
    res = {name: [] for name, _ in builds}
    digests = set()
    run_once(a.moelog, logbook, a.target, work)  # warm-up: page cache, ccache-free binaries
    for r in range(a.pairs):
        for name, b in builds:
            wall, cpu, peak, digest = run_once(b, logbook, a.target, work)
            res[name].append((wall, cpu, peak))
            digests.add(digest)
            print(f"round {r + 1} {name}: wall {wall:.3f} s, cpu {cpu:.3f} s, peak {peak:.0f} MiB")
    for name, _ in builds:
        walls = [x[0] for x in res[name]]
        cpus = [x[1] for x in res[name]]
        peaks = [x[2] for x in res[name]]
        print(f"{name}: {describe('wall s', walls)}; {describe('cpu s', cpus)}; peak {statistics.median(peaks):.0f} MiB")
    if a.vs:
        for i, what in ((0, "wall"), (1, "cpu")):
            ratios = [x[i] / y[i] for x, y in zip(res["A"], res["B"])]
            print(f"A/B {what}: {describe('ratio', ratios)} over {len(ratios)} pairs")
    print("outputs: " + ("identical in every run" if len(digests) == 1 else f"{len(digests)} DIFFERENT outputs"))
    if not a.keep:
        shutil.rmtree(work)
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())

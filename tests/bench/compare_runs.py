#!/usr/bin/python3
"""Benchmarks of BENCHMARKS.md that span processes (standard library only).

  peer    `moelog bench` against the PyTorch peer (tests/bench/peer_torch.py).
          The two run in alternating short processes (peer, moelog, peer,
          moelog, ...) so both see the same mix of this machine's full- and
          half-rate AMX windows; per side it reports best and median step time
          over all rounds, and the speedups peer/moelog of the bests and of the
          medians.
  memory  Peak resident memory (max RSS from wait4) of `moelog bench` runs
          against the lower bound weights + activations + gradients of the
          pass, and the same after subtracting the max RSS of a tiny run of the
          same binary (the process baseline: code, libraries, oneDNN).
  ep      Simulated-device EP against --parallel-mode none at equal total work,
          alternating processes; compute time only (communication excluded).

Examples:
  OMP_PROC_BIND=true OMP_PLACES=cores /usr/bin/python3 tests/bench/compare_runs.py peer \\
      --moelog build-rel/logbook/moelog --tokens 8192 --hidden 1024 --mlp-dim 512 --experts 16 --topk 2
  /usr/bin/python3 tests/bench/compare_runs.py memory --moelog build-rel/logbook/moelog
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "peer_torch.py")
TORCH_PYTHON = "/usr/bin/python3"


def run(cmd, env=None):
    """Runs cmd; returns its stdout. Raises on failure."""
    proc = subprocess.run(cmd, capture_output=True, env=env, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}\n{proc.stdout}")
    return proc.stdout


def run_rss(cmd, env=None):
    """Runs cmd with stdout to a pipe; returns (stdout, max RSS in bytes)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        os.dup2(w, 1)
        try:
            os.execvpe(cmd[0], cmd, env if env is not None else os.environ)
        finally:
            os._exit(127)
    os.close(w)
    chunks = []
    with os.fdopen(r) as f:
        chunks.append(f.read())
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed with status {status}")
    return "".join(chunks), usage.ru_maxrss * 1024


def shape_args(a):
    return ["--tokens", str(a.tokens), "--hidden", str(a.hidden), "--mlp-dim", str(a.mlp_dim),
            "--experts", str(a.experts), "--topk", str(a.topk)]


def moelog_cmd(a, pass_, iters, warmup, extra=()):
    return [a.moelog, "bench", *shape_args(a), "--dtype", getattr(a, "dtype", "bfloat16"), "--impl", a.impl,
            "--backend", a.backend,
            "--distribution", "random", "--bench-pass", pass_, "--iters", str(iters), "--warmup", str(warmup),
            "--json", *extra]


def moelog_samples(out):
    doc = json.loads(out)
    return doc["runs"][0]["time_samples_s"], doc["runs"][0]


def cmd_peer(a):
    passes = a.passes or ["forward", "forward_backward"]
    report = {"shape": vars(a).copy(), "passes": {}}
    report["shape"].pop("func", None)
    for p in passes:
        ours, peer = [], []
        for r in range(a.rounds):
            out = run([TORCH_PYTHON, PEER, *shape_args(a), "--pass", p, "--iters", str(a.iters),
                       "--warmup", str(a.warmup), "--threads", str(a.threads), "--dtype", a.dtype, "--json"])
            peer += json.loads(out.strip().splitlines()[-1])["time_samples_s"]
            s, _ = moelog_samples(run(moelog_cmd(a, p, a.iters, a.warmup, ["--threads", str(a.threads)])))
            ours += s
            print(f"  round {r + 1}/{a.rounds} {p}: peer median {statistics.median(peer):.4f}s "
                  f"moelog median {statistics.median(ours):.4f}s", file=sys.stderr, flush=True)
        flops = 6.0 * a.tokens * a.topk * a.hidden * a.mlp_dim * (3 if p == "forward_backward" else 1)
        rec = {
            "moelog_time_best_s": min(ours), "moelog_time_median_s": statistics.median(ours),
            "peer_time_best_s": min(peer), "peer_time_median_s": statistics.median(peer),
            "moelog_samples_s": ours, "peer_samples_s": peer,
        }
        rec["moelog_gflops_best"] = flops / rec["moelog_time_best_s"] / 1e9
        rec["moelog_gflops_median"] = flops / rec["moelog_time_median_s"] / 1e9
        rec["peer_gflops_best"] = flops / rec["peer_time_best_s"] / 1e9
        rec["peer_gflops_median"] = flops / rec["peer_time_median_s"] / 1e9
        rec["speedup_best"] = rec["peer_time_best_s"] / rec["moelog_time_best_s"]
        rec["speedup_median"] = rec["peer_time_median_s"] / rec["moelog_time_median_s"]
        report["passes"][p] = rec
        print(f"peer_vs_moelog pass={p} T={a.tokens} H={a.hidden} M={a.mlp_dim} E={a.experts} K={a.topk} "
              f"samples={len(ours)}/{len(peer)} "
              f"moelog_gflops_best={rec['moelog_gflops_best']:.1f} moelog_gflops_median={rec['moelog_gflops_median']:.1f} "
              f"peer_gflops_best={rec['peer_gflops_best']:.1f} peer_gflops_median={rec['peer_gflops_median']:.1f} "
              f"speedup_best={rec['speedup_best']:.2f} speedup_median={rec['speedup_median']:.2f}", flush=True)
    if a.json:
        print(json.dumps(report))


def lower_bound(a, pass_, es=2):
    """Bytes that any implementation of the pass must hold at once."""
    w = 3 * a.experts * a.hidden * a.mlp_dim * es        # w1, w3, w2
    x = a.tokens * a.hidden * es
    if pass_ == "forward":
        return w + 2 * x                                 # weights, x, y
    return 2 * w + 3 * x                                 # + weight grads; x, y, dx


def cmd_memory(a):
    tiny = argparse.Namespace(**vars(a))
    tiny.tokens, tiny.hidden, tiny.mlp_dim, tiny.experts, tiny.topk = 64, 64, 32, 4, 2
    report = {}
    for p in (a.passes or ["forward", "forward_backward"]):
        _, base = run_rss(moelog_cmd(tiny, p, 1, 0))
        out, rss = run_rss(moelog_cmd(a, p, a.iters, a.warmup))
        _, run0 = moelog_samples(out)
        lb = lower_bound(a, p)
        tk = a.tokens * a.topk
        stored = lb + (tk * 3 * a.mlp_dim * 2 if p == "forward_backward" else 0)
        rec = {"max_rss_bytes": rss, "baseline_rss_bytes": base, "lower_bound_bytes": lb,
               "lower_bound_with_saved_activations_bytes": stored, "engine_estimate_bytes": run0["memory_bytes"],
               "ratio_raw": rss / lb, "ratio_above_baseline": (rss - base) / lb}
        report[p] = rec
        print(f"memory pass={p} T={a.tokens} H={a.hidden} M={a.mlp_dim} E={a.experts} K={a.topk} "
              f"max_rss_MiB={rss / 2**20:.1f} baseline_MiB={base / 2**20:.1f} lower_bound_MiB={lb / 2**20:.1f} "
              f"ratio_raw={rec['ratio_raw']:.2f} ratio_above_baseline={rec['ratio_above_baseline']:.2f} "
              f"estimate_MiB={run0['memory_bytes'] / 2**20:.1f}", flush=True)
    if a.json:
        print(json.dumps(report))


def cmd_ep(a):
    modes = [("none", []), ("ep", ["--parallel-mode", "ep", "--devices", str(a.devices),
                                   "--ep-comm-path", a.ep_comm_path])]
    res = {m: {"compute": [], "total": []} for m, _ in modes}
    for r in range(a.rounds):
        for m, extra in modes:
            out = run(moelog_cmd(a, a.passes[0] if a.passes else "forward", a.iters, a.warmup, extra))
            samples, run0 = moelog_samples(out)
            comm = run0.get("comm", {})
            comm_s = comm.get("comm_s", 0.0)
            compute = comm.get("compute_s", 0.0) if m == "ep" else 0.0
            res[m]["total"] += samples
            # compute time per step: the engine's measured compute split when
            # it reports one, else the step time minus communication.
            res[m]["compute"].append(compute if compute > 0 else run0["time_median_s"] - comm_s)
    none_c = statistics.median(res["none"]["compute"])
    ep_c = statistics.median(res["ep"]["compute"])
    print(f"ep_overhead T={a.tokens} H={a.hidden} M={a.mlp_dim} E={a.experts} K={a.topk} devices={a.devices} "
          f"path={a.ep_comm_path} none_median_s={none_c:.4f} ep_compute_median_s={ep_c:.4f} "
          f"ep_total_median_s={statistics.median(res['ep']['total']):.4f} overhead={ep_c / none_c - 1:+.3f}",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name, fn in (("peer", cmd_peer), ("memory", cmd_memory), ("ep", cmd_ep)):
        s = sub.add_parser(name)
        s.set_defaults(func=fn)
        s.add_argument("--moelog", default="build-rel/logbook/moelog")
        s.add_argument("--tokens", type=int, default=8192)
        s.add_argument("--hidden", type=int, default=1024)
        s.add_argument("--mlp-dim", type=int, default=512)
        s.add_argument("--experts", type=int, default=16)
        s.add_argument("--topk", type=int, default=2)
        s.add_argument("--impl", default="fused_w13")
        s.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float32"],
                       help="both sides' dtype (peer only; ONEDNN_MAX_CPU_ISA=AVX2 measures the AVX2 path)")
        s.add_argument("--backend", default="gmm")
        s.add_argument("--pass", dest="passes", action="append", choices=["forward", "forward_backward"])
        s.add_argument("--rounds", type=int, default=5)
        s.add_argument("--iters", type=int, default=3)
        s.add_argument("--warmup", type=int, default=1)
        s.add_argument("--threads", type=int, default=2)
        s.add_argument("--devices", type=int, default=4)
        s.add_argument("--ep-comm-path", default="compact_psum")
        s.add_argument("--json", action="store_true")
    a = ap.parse_args()
    a.func(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The PyTorch MoE layer a user would otherwise write: the peer moelog's CPU
engine is benchmarked against (BENCHMARKS.md).

HF Mixtral style: one weight tensor per expert (leaf tensors, so autograd
does not materialise full-size zero gradients of a stacked tensor), a Python
loop over experts, torch.where on the one-hot routing mask, index_select of
the expert's tokens, the SwiGLU expert MLP w2(silu(w1 x) * w3 x), the routing
weight applied to the expert output, and index_add_ into the output. bf16
tensors (oneDNN AMX matmuls inside torch), torch.set_num_threads(2).

Routing statistics match `moelog bench --distribution random`: iid N(0,1)
logits, top-k experts per token, softmax over the k selected logits. As in
moelog's timed forward, routing is fixed (computed once, outside the timed
region); the dispatch (mask, where, index_select) and combine are timed.
forward_backward times forward + loss = mean(y^2) (f32) + backward to the
gradients of x and of every expert weight, like moelog's training step.

FLOPs use the harness convention: forward 6*T*K*H*M, forward_backward 3x.

Run with the Debian interpreter (the pyenv python cannot import torch):
  OMP_PROC_BIND=true OMP_PLACES=cores /usr/bin/python3 tests/bench/peer_torch.py \
      --tokens 8192 --hidden 1024 --mlp-dim 512 --experts 16 --topk 2 --pass forward
Prints one `peer ...` line per pass and, with --json, one JSON object per line.
"""

import argparse
import json
import resource
import statistics
import sys
import time

import torch
import torch.nn.functional as F


class Expert(torch.nn.Module):
    """One SwiGLU expert, Mixtral's MixtralBlockSparseTop2MLP."""

    def __init__(self, hidden, mlp_dim, dtype, gen):
        super().__init__()
        # nn.Linear layout [out, in]; scaled by 1/sqrt(fan_in) like moelog's data.
        def param(out_dim, in_dim):
            w = torch.randn(out_dim, in_dim, generator=gen) / (in_dim ** 0.5)
            return torch.nn.Parameter(w.to(dtype))
        self.w1 = param(mlp_dim, hidden)
        self.w3 = param(mlp_dim, hidden)
        self.w2 = param(hidden, mlp_dim)

    def forward(self, x):
        return F.linear(F.silu(F.linear(x, self.w1)) * F.linear(x, self.w3), self.w2)


class MoeLayer(torch.nn.Module):
    def __init__(self, hidden, mlp_dim, experts, dtype, seed):
        super().__init__()
        gen = torch.Generator().manual_seed(seed)
        self.experts = torch.nn.ModuleList(Expert(hidden, mlp_dim, dtype, gen) for _ in range(experts))

    def forward(self, x, routing_weights, selected):
        # x [T,H]; routing_weights [T,K] (x dtype); selected [T,K] int64.
        tokens, hidden = x.shape
        out = torch.zeros((tokens, hidden), dtype=x.dtype)
        mask = F.one_hot(selected, num_classes=len(self.experts)).permute(2, 1, 0)  # [E,K,T]
        for e, expert in enumerate(self.experts):
            idx, top_x = torch.where(mask[e])
            if top_x.numel() == 0:
                continue
            rows = x.index_select(0, top_x)
            y = expert(rows) * routing_weights[top_x, idx, None]
            out.index_add_(0, top_x, y.to(x.dtype))
        return out


def make_routing(tokens, experts, topk, seed, dtype):
    """Random top-k routing with softmax over the selected logits."""
    gen = torch.Generator().manual_seed(seed + 1)
    logits = torch.randn(tokens, experts, generator=gen)
    top_vals, selected = torch.topk(logits, topk, dim=-1)
    weights = torch.softmax(top_vals, dim=-1).to(dtype)
    return weights, selected


def max_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def check(layer, x, weights, selected):
    """The layer against a per-token float64 loop (small shapes only)."""
    got = layer(x, weights, selected).double()
    xd = x.double()
    want = torch.zeros_like(got)
    for t in range(x.shape[0]):
        for k in range(selected.shape[1]):
            ex = layer.experts[int(selected[t, k])]
            w1, w3, w2 = ex.w1.double(), ex.w3.double(), ex.w2.double()
            h = F.silu(xd[t] @ w1.T) * (xd[t] @ w3.T)
            want[t] += weights[t, k].double() * (h @ w2.T)
    return float((got - want).abs().max() / want.abs().max().clamp_min(1e-30))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", type=int, default=8192)
    ap.add_argument("--hidden", type=int, default=1024)
    ap.add_argument("--mlp-dim", type=int, default=512)
    ap.add_argument("--experts", type=int, default=16)
    ap.add_argument("--topk", type=int, default=2)
    ap.add_argument("--dtype", choices=["bfloat16", "float32"], default="bfloat16")
    ap.add_argument("--pass", dest="passes", action="append", choices=["forward", "forward_backward"],
                    help="repeatable; default both, interleaved")
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="compare with a float64 loop (tiny shapes)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    passes = args.passes or ["forward", "forward_backward"]

    torch.set_num_threads(args.threads)
    dtype = torch.bfloat16 if args.dtype == "bfloat16" else torch.float32
    layer = MoeLayer(args.hidden, args.mlp_dim, args.experts, dtype, args.seed)
    gen = torch.Generator().manual_seed(args.seed + 2)
    x = torch.randn(args.tokens, args.hidden, generator=gen).to(dtype)
    weights, selected = make_routing(args.tokens, args.experts, args.topk, args.seed, dtype)

    if args.check:
        with torch.no_grad():
            err = check(layer, x, weights, selected)
        tol = 3e-2 if dtype == torch.bfloat16 else 1e-4
        print(f"peer check max_rel_err={err:.3e} status={'ok' if err <= tol else 'FAIL'}")
        if err > tol:
            return 1

    def forward():
        with torch.no_grad():
            layer(x, weights, selected)

    xg = x.clone().requires_grad_(True)

    def forward_backward():
        layer.zero_grad(set_to_none=True)
        xg.grad = None
        y = layer(xg, weights, selected)
        loss = y.float().pow(2).mean()
        loss.backward()

    fns = {"forward": forward, "forward_backward": forward_backward}
    base_flops = 6.0 * args.tokens * args.topk * args.hidden * args.mlp_dim
    flops = {"forward": base_flops, "forward_backward": 3 * base_flops}
    samples = {p: [] for p in passes}
    for p in passes:  # the first call and the warmup are untimed
        for _ in range(1 + args.warmup):
            fns[p]()
    for _ in range(args.iters):  # passes interleaved
        for p in passes:
            t0 = time.perf_counter()
            fns[p]()
            samples[p].append(time.perf_counter() - t0)
    for p in passes:
        s = samples[p]
        best, med = min(s), statistics.median(s)
        rec = {
            "peer": "torch", "torch_version": torch.__version__, "threads": torch.get_num_threads(),
            "pass": p, "tokens": args.tokens, "hidden": args.hidden, "mlp_dim": args.mlp_dim,
            "experts": args.experts, "topk": args.topk, "dtype": args.dtype, "flops": flops[p],
            "time_best_s": best, "time_median_s": med, "time_mean_s": statistics.mean(s),
            "time_samples_s": s, "gflops_best": flops[p] / best / 1e9, "gflops_median": flops[p] / med / 1e9,
            "max_rss_bytes": max_rss_bytes(),
        }
        if args.json:
            print(json.dumps(rec), flush=True)
        else:
            print(f"peer pass={p} T={args.tokens} H={args.hidden} M={args.mlp_dim} E={args.experts} "
                  f"K={args.topk} dtype={args.dtype} threads={rec['threads']} "
                  f"time_best_s={best:.6f} time_median_s={med:.6f} "
                  f"gflops_best={rec['gflops_best']:.1f} gflops_median={rec['gflops_median']:.1f} "
                  f"max_rss_bytes={rec['max_rss_bytes']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

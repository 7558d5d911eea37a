"""What a training step of the card network costs, phase by phase, plain or with compiled blocks.

    python -m experiments.bench_cards --data data/relaxed_scout.npz --arch cover --size base \
        --layers 6 --compile --rounds 3 --profile 15
    git show REF:agents/cardnet_torch.py > /tmp/old_cardnet_torch.py
    python -m experiments.bench_cards --data data/msc_heldout.npz --arch tally --size small \
        --layers 6 --baseline /tmp/old_cardnet_torch.py --rounds 6

Times ``--steps`` Adam steps on random batches of a ``card_data`` file (ranks relabelled, as in
training): the batch's inputs, the forward pass with the losses, the backward pass and the
optimiser, in milliseconds a step. With ``--compile`` a second network of the same seed has
its blocks compiled (``torch.compile``), and the two alternate for ``--rounds`` rounds, so a
noisy machine weighs on both alike; the ratio is of the medians. ``--baseline FILE`` does the
same with the network built, from the same seed, by another version of
``agents/cardnet_torch.py`` (a before-and-after of a change to the network's code in one
process: two checkouts would both import the installed package). ``--profile N`` prints the
torch profiler's ``N`` costliest operators over a few plain steps, which is where to look
before changing the network's code. The losses are the trainer's in form (binary
cross-entropy on every legal move, cross-entropy on the teacher's move), not imported from it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pyramid_env.agents.cardnet_torch import ARCHS, SIZES, build, relabel, tokens
from pyramid_env.benchmark import machine
from pyramid_env.lab.card_data import load_data
from pyramid_env.workers import limit_threads

PHASES = ("inputs", "forward", "backward", "optimiser")


def step_times(net: nn.Module, data: dict[str, Any], steps: int, batch: int,
               rng: np.random.Generator) -> dict[str, float]:  # fmt: skip
    """Milliseconds a step in each phase, the mean over ``steps`` steps after two untimed."""
    opt = torch.optim.AdamW(net.parameters(), 1e-3)
    legal, wins = torch.as_tensor(data["legal"]), torch.as_tensor(data["wins"]).float()
    teacher = torch.as_tensor(data["teacher"].astype(np.int64))
    sums = dict.fromkeys(PHASES, 0.0)
    for step in range(steps + 2):
        t = [time.perf_counter()]
        idx = rng.integers(0, len(teacher), batch)
        inp = tokens(torch.as_tensor(relabel(data["obs"][idx], rng)))
        t.append(time.perf_counter())
        out = net(inp, legal[idx])
        q = nn.functional.binary_cross_entropy_with_logits(out[:, 1], wins[idx], reduction="none")
        pol = out[:, 0].masked_fill(~legal[idx], -1e9)
        loss = (q * legal[idx]).sum() / legal[idx].sum() + nn.functional.cross_entropy(
            pol, teacher[idx]
        )
        t.append(time.perf_counter())
        opt.zero_grad()
        loss.backward()
        t.append(time.perf_counter())
        opt.step()
        t.append(time.perf_counter())
        if step >= 2:  # the first steps allocate (and compile)
            for name, a, b in zip(PHASES, t, t[1:], strict=False):
                sums[name] += (b - a) * 1000
    return {k: v / steps for k, v in sums.items()}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Time the step; print and return one JSON row (``--out``: also written there)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, required=True, help="a card_data file")
    p.add_argument("--positions", type=int, default=20_000, help="drawn from the file's first")
    p.add_argument("--arch", default="cover", choices=ARCHS[:-1])
    p.add_argument("--size", default="base", choices=list(SIZES))
    p.add_argument("--layers", type=int, help="the depth (default: the size's)")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--steps", type=int, default=20, help="timed steps a round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--compile", action="store_true", help="also time compiled blocks")
    p.add_argument("--baseline", type=Path, help="also time the network as another version of "
                   "agents/cardnet_torch.py (a file) builds it")  # fmt: skip
    p.add_argument("--profile", type=int, default=0, help="rows of the profiler's table")
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    for name in ("positions", "batch", "steps", "rounds", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name} {getattr(args, name)}: at least 1")
    if args.baseline and not args.baseline.is_file():
        p.error(f"--baseline {args.baseline}: no such file (a version of cardnet_torch.py)")
    limit_threads(args.threads)
    data = load_data(args.data, args.positions)
    builders = {"plain": build}
    if args.compile:
        builders["compiled"] = build
    if args.baseline:
        spec = importlib.util.spec_from_file_location("baseline_cardnet_torch", args.baseline)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        builders["baseline"] = module.build
    nets = {}
    for way, make in builders.items():
        torch.manual_seed(0)
        nets[way] = make(args.arch, args.size, args.layers)
        if way == "compiled":
            for i, block in enumerate(nets[way].blocks):
                nets[way].blocks[i] = torch.compile(block, dynamic=False)
    times: dict[str, list[dict[str, float]]] = {way: [] for way in nets}
    for r in range(args.rounds):
        for way in list(nets)[:: 1 if r % 2 == 0 else -1]:
            times[way].append(step_times(nets[way], data, args.steps, args.batch,
                                         np.random.default_rng(r)))  # fmt: skip
    row: dict[str, Any] = {
        k: v for k, v in vars(args).items() if k not in ("out", "data", "baseline")
    }
    row |= {"data": str(args.data), "machine": machine(), "torch": torch.__version__}
    row |= {"baseline_file": str(args.baseline)} if args.baseline else {}
    for way, rounds in times.items():
        row[way] = {k: round(statistics.median(t[k] for t in rounds), 1) for k in PHASES}
        row[way]["step"] = round(statistics.median(sum(t.values()) for t in rounds), 1)
    if args.compile:
        row["compiled_over_plain"] = round(row["compiled"]["step"] / row["plain"]["step"], 3)
    if args.baseline:
        row["plain_over_baseline"] = round(row["plain"]["step"] / row["baseline"]["step"], 3)
    print(json.dumps(row))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(row, indent=1) + "\n")
    if args.profile:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU]) as prof:
            step_times(nets["plain"], data, 3, args.batch, np.random.default_rng(0))
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=args.profile))
    return row


if __name__ == "__main__":
    main()

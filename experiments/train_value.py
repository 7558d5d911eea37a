"""Train a value network for the free-stock lookahead agent, from the solver's labels.

    python -m experiments.train_value --config configs/value_relaxed.toml --ship value-relaxed
    python -m experiments.train_value --deals 200 --epochs 1 --out runs/value-tiny   # a smoke run

The network scores the leaves of the lookahead agent's two-move search (the method:
docs/experiments.md).
"""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents.lookahead import LookaheadAgent, after_counts, features_batch
from pyramid_env.agents.policy import MLPPolicy
from pyramid_env.engine import state as st
from pyramid_env.seeds import SEED_SETS
from pyramid_env.solver import DealTables, free_stock_moves, free_stock_oracle

DEFAULTS: dict[str, Any] = {
    "rules": "relaxed",
    "deals": 12000,
    "p_good": 0.75,
    "hidden": 256,
    "epochs": 6,
    "batch": 512,
    "lr": 1e-3,
    "seed": 0,
    "depth": 2,
    "val_deals": "val[:500]",
}


def examples(rules: str, deals: list[int], p_good: float, seed: int) -> tuple[np.ndarray, ...]:
    """``(X, y)``: abstract positions (uint8 features) and their exact won/lost labels."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for n in deals:
        s = st.State(n, rules)
        wins = free_stock_oracle(s)
        tables = DealTables(s)
        pyr, counts = s.pyr, tables.stock_counts(s.left)
        while pyr:
            moves = free_stock_moves(pyr, tables.prank, counts, s.rules.covering_pair)
            if not moves:
                break
            pyrs = [after for after, _, _, _ in moves]
            afters = [after_counts(counts, q) for _, q, _, _ in moves]
            won = [wins(p, c) for p, c in zip(pyrs, afters, strict=True)]
            xs.append(features_batch(pyrs, tables.prank, afters).astype(np.uint8))
            ys.extend(won)
            good = [k for k, w in enumerate(won) if w]
            k = good[rng.integers(len(good))] if good and rng.random() < p_good else None
            k = int(rng.integers(len(moves))) if k is None else k
            pyr, counts = pyrs[k], afters[k]
    return np.concatenate(xs), np.array(ys, np.float32)


def train(x: np.ndarray, y: np.ndarray, cfg: dict[str, Any]) -> tuple[MLPPolicy, float]:
    """A ReLU MLP fitted by binary cross-entropy; returns it and the held-out accuracy."""
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(cfg["seed"])
    xt, yt = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    order = torch.randperm(len(xt))
    held, fit = order[: len(xt) // 20], order[len(xt) // 20 :]
    h = cfg["hidden"]
    net = nn.Sequential(
        nn.Linear(x.shape[1], h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1)
    )
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(cfg["epochs"]):
        for group in opt.param_groups:
            group["lr"] = cfg["lr"] * 0.5 ** max(0, epoch - 2)
        perm = fit[torch.randperm(len(fit))]
        for k in range(0, len(perm), cfg["batch"]):
            b = perm[k : k + cfg["batch"]]
            loss = loss_fn(net(xt[b]).squeeze(1), yt[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        acc = ((net(xt[held]).squeeze(1) > 0).float() == yt[held]).float().mean().item()
    linears = [m for m in net if isinstance(m, nn.Linear)]
    layers = [(m.weight.detach().numpy().T, m.bias.detach().numpy()) for m in linears]
    return MLPPolicy(layers, "relu"), acc


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Build examples, train, evaluate the agent on val, write the run folder."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", type=Path, help="a TOML file of settings (see DEFAULTS)")
    for key, value in DEFAULTS.items():
        p.add_argument("--" + key.replace("_", "-"), type=type(value), default=None)
    p.add_argument("--out", type=Path, default=Path("runs/value"))
    p.add_argument("--ship", help="also save as a shipped agent under this name")
    args = p.parse_args(argv)
    cfg = dict(DEFAULTS)
    if args.config:
        cfg |= tomllib.loads(args.config.read_text())
    cfg |= {k: v for k in DEFAULTS if (v := getattr(args, k)) is not None}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "config.json").write_text(json.dumps(cfg, indent=1))

    from pyramid_env.evaluation import evaluate

    start = time.time()
    deals = SEED_SETS["train"][: cfg["deals"]]
    x, y = examples(cfg["rules"], list(deals), cfg["p_good"], cfg["seed"])
    made = time.time() - start
    value, acc = train(x, y, cfg)
    trained = time.time() - start - made
    value.meta = {
        "kind": "value",
        "rules": cfg["rules"],
        "depth": cfg["depth"],
        "observe_stock": "seen",
        "deals": cfg["deals"],
        "examples": len(y),
        "epochs": cfg["epochs"],
        "seconds": round(time.time() - start),
    }
    value.save(args.out / "value.npz")
    agent = LookaheadAgent(cfg["depth"], value, name="value")
    report = evaluate(agent, cfg["rules"], cfg["val_deals"])
    metrics = {
        "examples": len(y),
        "won_share": float(y.mean()),
        "held_out_accuracy": acc,
        "examples_seconds": round(made),
        "train_seconds": round(trained),
        "val": report.summary(),
    }
    (args.out / "metrics.json").write_text(json.dumps(metrics, indent=1, default=str))
    print(json.dumps(metrics, indent=1, default=str))
    if args.ship:
        from pyramid_env.lab.shipping import ship

        ship(args.out / "value.npz", args.ship)
    return metrics


if __name__ == "__main__":
    main()

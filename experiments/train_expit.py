r"""Expert iteration: a Q-and-value network learns from honest search it then guides.

    python -m experiments.train_expit --config configs/expit_msc.toml --ship expit-msc \\
        --ship-search expit-search-msc
    python -m experiments.train_expit --set rounds.count=1 --set rounds.first_deals=20 \\
        --set eval.seeds='"val[:10]"'                                    # a smoke run

Each round the search plays, the network learns its counts, and the next round's search
follows the network (the method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
import csv
import functools
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents import MLPPolicy
from pyramid_env.agents.expit import (
    ExpitPolicyAgent,
    ExpitSearchAgent,
    order_agent,
    record_games,
)
from pyramid_env.benchmark import machine
from pyramid_env.engine.moves import NUM_MOVES
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.env import PyramidEnv
from pyramid_env.env import observation as ob
from pyramid_env.env.observation import rank_maps
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.config import add_config_args, config_from_args
from pyramid_env.seeds import SEED_SETS
from pyramid_env.sweep import sweep

ROOT = Path(__file__).parents[1]

MAX_MOVES = 12  # moves counted per decision, at most (a position rarely has more)
PACKED = sum(n for _, n, _ in ob.PIECES) + 13  # the dict pieces' numbers, then unseen ranks


def parse(argv: list[str] | None) -> tuple[dict[str, Any], argparse.Namespace]:
    """The config (TOML and overrides) and the other arguments."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_config_args(p, ROOT / "configs" / "expit_msc.toml", ROOT / "runs", steps=False)
    p.add_argument("--ship", help="copy the best network to agents/trained/NAME.npz")
    p.add_argument("--ship-search", help="copy the search agent to agents/trained/NAME.npz")
    p.add_argument("--finish", type=Path, metavar="RUN",
                   help="keep the rounds of the run folder RUN (trained with this config) and "
                   "redo only the final choice: the [policy], [agent] and agent_cpu_cap "
                   "settings may differ from RUN's")  # fmt: skip
    args = p.parse_args(argv)
    return config_from_args(args), args


class Data:
    """The positions played so far, compact: packed observation, Q and value targets."""

    def __init__(self) -> None:
        """Empty."""
        self.obs: list[np.ndarray] = []
        self.q_moves: list[np.ndarray] = []  # the moves the search counted (-1: none)
        self.q: list[np.ndarray] = []  # their shares of winnable samples
        self.value: list[float] = []  # the share of samples winnable; NaN: not searched

    def add_games(self, rules: Rules, deals: list[int], games: list[dict[str, Any]]) -> None:
        """Replay each recorded game through the env, keeping every position's example.

        The workers return moves, not observations (a few bytes a decision); the env replays
        them here and the observation comes from the env's own encoder, as a player sees it.
        """
        env = PyramidEnv(rules, obs_mode="dict")
        for n, game in zip(deals, games, strict=True):
            env.reset(options={"deal": n})
            encoder = ob.Encoder(env.state, reveal_stock=False)
            steps = zip(game["actions"], game["q"], game["values"], strict=True)
            for action, q, value in steps:
                obs = encoder.encode(env.state, env.known_stock(), with_unseen=True)
                self.obs.append(
                    np.concatenate([*(obs[k] for k, _, _ in ob.PIECES), obs["unseen"]]).astype(
                        np.int16
                    )
                )
                moves = np.full(MAX_MOVES, -1, np.int16)
                shares = np.zeros(MAX_MOVES, np.float16)
                for i, (a, share) in enumerate(q[:MAX_MOVES]):
                    moves[i], shares[i] = a, share
                self.q_moves.append(moves)
                self.q.append(shares)
                self.value.append(np.nan if value is None else value)
                env.step(action)

    def __len__(self) -> int:
        """Positions held."""
        return len(self.value)


def counts_input(packed: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
    """Packed positions ``(B, PACKED)`` -> the ``"counts"`` observation ``(B, 922)``.

    With ``rng``, each position's ranks are relabelled by a random :func:`rank_maps` table
    first (the training data's augmentation: the same move is right in the relabelled
    position, since the moves name places, not ranks).
    """
    pieces, at = {}, 0
    for name, size, _ in ob.PIECES:
        pieces[name] = packed[:, at : at + size]
        at += size
    pieces["unseen"] = packed[:, at:]
    if rng is not None:
        maps = rank_maps(len(packed), rng)
        pieces["pyramid"] = np.take_along_axis(maps, pieces["pyramid"].astype(np.int64), 1)
        pieces["stock"] = np.take_along_axis(maps, pieces["stock"].astype(np.int64), 1)
        unseen = np.zeros_like(pieces["unseen"])
        np.put_along_axis(unseen, maps[:, 1:14] - 1, pieces["unseen"], 1)
        pieces["unseen"] = unseen
    return ob.counts(pieces)


def build_net(hidden: list[int]) -> Any:
    """ReLU trunk; the last layer gives 327 logits and the win logit (one shared trunk)."""
    from torch import nn

    layers: list[nn.Module] = []
    for a, b in zip([ob.COUNTS_SIZE, *hidden[:-1]], hidden, strict=True):
        layers += [nn.Linear(a, b), nn.ReLU()]
    layers.append(nn.Linear(hidden[-1], NUM_MOVES + 1))
    return nn.Sequential(*layers)


def fit(net: Any, opt: Any, data: Data, cfg: dict[str, Any], rng: np.random.Generator) -> dict:
    """``cfg["epochs"]`` passes over ``data``; the mean losses of the last pass.

    Q head: binary cross-entropy of each counted move's output against its share of winnable
    samples; value head: the same against the position's share, times ``value_weight``.
    """
    import torch
    from torch import nn

    x = np.asarray(data.obs)
    q_moves = torch.as_tensor(np.asarray(data.q_moves).astype(np.int64))
    q = torch.as_tensor(np.asarray(data.q, np.float32))
    values = np.asarray(data.value, np.float32)
    valued = ~np.isnan(values)
    counted = q_moves >= 0
    bce = nn.functional.binary_cross_entropy_with_logits
    for _ in range(cfg["epochs"]):
        order = rng.permutation(len(values))
        sums = {"q": 0.0, "value": 0.0}
        for i in range(0, len(order), cfg["batch_size"]):
            idx = order[i : i + cfg["batch_size"]]
            aug = rng if cfg.get("augment", False) else None
            out = net(torch.as_tensor(counts_input(x[idx], aug)))
            sel = counted[idx]
            picked = out[:, :NUM_MOVES].gather(1, q_moves[idx].clamp(min=0))
            q_loss = bce(picked[sel], q[idx][sel])
            vsel = torch.as_tensor(valued[idx])
            value = bce(out[:, NUM_MOVES][vsel], torch.as_tensor(values[idx])[vsel])
            loss = q_loss.nan_to_num() + cfg["value_weight"] * value.nan_to_num()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sums["q"] += float(q_loss.detach().nan_to_num()) * int(sel.sum())
            sums["value"] += float(value.detach().nan_to_num()) * int(vsel.sum())
    return {"q": sums["q"] / max(int(counted.sum()), 1),
            "value": sums["value"] / max(int(valued.sum()), 1)}  # fmt: skip


def export(net: Any, meta: dict[str, Any]) -> MLPPolicy:
    """The torch network as a numpy :class:`MLPPolicy` with a value head."""
    from torch import nn

    layers = [
        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
        for m in net
        if isinstance(m, nn.Linear)
    ]
    return MLPPolicy(layers, "relu", meta | {"value_head": True, "obs_mode": "counts"})


def search_grid(agent: dict[str, Any]) -> list[dict[str, Any]]:
    """Every combination of the ``[agent]`` settings (a list gives several values to try)."""
    keys = list(agent)
    values = [v if isinstance(v, list) else [v] for v in agent.values()]
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*values)]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    cfg, args = parse(argv)
    import torch
    from torch.utils.tensorboard import SummaryWriter

    torch.set_num_threads(cfg.get("threads", 1))
    torch.manual_seed(cfg["seed"])
    rules = get_rules(cfg["rules"])  # the rules travel inward as Rules from here
    start = time.time()
    workers = cfg.get("workers", 2)
    if args.finish:
        run, rows = args.finish, finished_rounds(args.finish, cfg)
        (run / "config.json").write_text(json.dumps(cfg, indent=2))  # the choice made now
        writer = SummaryWriter(str(run))
    else:
        run = args.runs / f"{cfg['exp_name']}__{cfg['seed']}__{int(time.time())}"
        run.mkdir(parents=True, exist_ok=True)
        (run / "config.json").write_text(json.dumps(cfg, indent=2))
        writer = SummaryWriter(str(run))
        rows = train_rounds(cfg, rules, run, writer, workers, start)
    return finish(cfg, rules, run, rows, writer, workers, start, args)


CHOICE_KEYS = ("policy", "agent", "agent_cpu_cap")  # what --finish may change


def finished_rounds(run: Path, cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of ``run``'s eval.csv, once its config is checked to match ``cfg``'s training."""
    done = json.loads((run / "config.json").read_text())
    for key in sorted(set(done) | set(cfg)):
        if key not in CHOICE_KEYS and done.get(key) != cfg.get(key):
            raise SystemExit(
                f"--finish {run}: its {key}={done.get(key)!r}, the config's {cfg.get(key)!r}; "
                f"only {', '.join(CHOICE_KEYS)} may differ"
            )
    with open(run / "eval.csv") as f:
        return [{k: float(v) for k, v in row.items()} | {"round": int(row["round"])}
                for row in csv.DictReader(f)]  # fmt: skip


def train_rounds(
    cfg: dict[str, Any], rules: Rules, run: Path, writer: Any, workers: int, start: float
) -> list[dict[str, Any]]:
    """The rounds of search and learning; one row of figures per round (eval.csv)."""
    import torch

    run_name = run.name
    train = SEED_SETS["train"]
    net = build_net(cfg["net"]["hidden"])
    opt = torch.optim.AdamW(net.parameters(), lr=cfg["train"]["learning_rate"],
                            weight_decay=cfg["train"].get("weight_decay", 0.0))  # fmt: skip
    rng = np.random.default_rng(cfg["seed"])
    data = Data()
    order = cfg["search"].get("order", "greedy")
    order_agent(order)  # an unknown name stops here, before any work
    meta = {"algo": "ExIt", "kind": "expit", "rules": rules.name, "seed": cfg["seed"],
            "run": run_name, "heads": "q,value", "delta": cfg["policy"]["delta"],
            "order": order}  # fmt: skip
    rows: list[dict[str, Any]] = []
    net_path: Path | None = None
    used, search_cpu = 0, 0.0
    for r in range(cfg["rounds"]["count"]):
        n = cfg["rounds"]["first_deals"] if r == 0 else cfg["rounds"]["deals"]
        deals = list(train[used : used + n])
        used += n
        play = functools.partial(
            record_games,
            rules=rules,
            net=None if net_path is None else str(net_path),
            samples=cfg["search"]["samples"],
            budget=cfg["search"]["budget"],
            seed=cfg["seed"],
            round_=r,
            top_k=cfg["search"].get("top_k", 0),
            learner=cfg["search"].get("learner", 0.0),
            order=order,
        )
        t0 = time.time()
        games = sweep(play, deals, workers=workers, chunk_size=25, progress=f"round {r}")
        search_s = time.time() - t0
        cpu = sum(g["cpu"] for g in games)
        search_cpu += cpu
        data.add_games(rules, deals, games)
        t0 = time.time()
        losses = fit(net, opt, data, cfg["train"], rng)
        fit_s = time.time() - t0
        policy = export(net, meta | {"round": r, "samples": len(data), "deals": used})
        net_path = run / f"round{r}.npz"
        policy.save(net_path)
        t0 = time.time()
        s = evaluate(ExpitPolicyAgent(policy, name=f"round{r}"), rules, cfg["eval"]["seeds"],
                     workers=workers).summary()  # fmt: skip
        row = {
            "round": r,
            "deals": used,
            "positions": len(data),
            "search_win_rate": float(np.mean([g["won"] for g in games])),
            "search_cpu_s": round(cpu, 1),
            "search_wall_s": round(search_s, 1),
            "fit_s": round(fit_s, 1),
            "q_loss": round(losses["q"], 4),
            "value_loss": round(losses["value"], 4),
            "val_win_rate": s["win_rate"],
            "solver_normalised": s["solver_normalised"],
            "eval_s": round(time.time() - t0, 1),
            "cpu_h": round((search_cpu + time.process_time()) / 3600, 3),
            "wall_s": round(time.time() - start),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
        for key in ("val_win_rate", "solver_normalised", "search_win_rate", "q_loss",
                    "value_loss", "positions", "cpu_h"):  # fmt: skip
            writer.add_scalar(f"expit/{key}", row[key], r)
        with open(run / "eval.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            w.writerows(rows)
    return rows


def finish(
    cfg: dict[str, Any],
    rules: Rules,
    run: Path,
    rows: list[dict[str, Any]],
    writer: Any,
    workers: int,
    start: float,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """Choose the round, the network's ``delta`` and the search agent's settings on val."""
    best = max(rows, key=lambda row: (row["val_win_rate"], row["round"]))
    policy = MLPPolicy.load(run / f"round{best['round']}.npz")
    deltas = []
    for delta in cfg["policy"]["delta_grid"]:
        summary = evaluate(ExpitPolicyAgent(policy, delta=delta), rules, cfg["eval"]["seeds"],
                           workers=workers).summary()  # fmt: skip
        deltas.append({"delta": delta, "val_win_rate": summary["win_rate"]})
        print(json.dumps(deltas[-1]), flush=True)
    chosen_delta = max(deltas, key=lambda d: (d["val_win_rate"], -d["delta"]))
    policy.meta["delta"] = chosen_delta["delta"]
    policy.meta["val_win_rate"] = chosen_delta["val_win_rate"]
    policy.meta["wall_s"] = round(time.time() - start)
    policy.save(run / "best.npz")
    grid = search_grid(cfg["agent"])
    trials = []
    for settings in grid:
        t0 = time.time()
        agent = ExpitSearchAgent(policy, name="expit-search", **settings)
        summary = evaluate(agent, rules, cfg["eval"]["seeds"], workers=workers).summary()
        trials.append(
            {
                **settings,
                "val_win_rate": summary["win_rate"],
                "solver_normalised": summary["solver_normalised"],
                "cpu_per_deal": summary["cpu_per_deal"],
                "eval_s": round(time.time() - t0, 1),
            }
        )
        print(json.dumps(trials[-1]), flush=True)
    with open(run / "agent_grid.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(trials[0]))
        w.writeheader()
        w.writerows(trials)
    cap = cfg.get("agent_cpu_cap", float("inf"))  # seconds of CPU per deal
    within = [t for t in trials if t["cpu_per_deal"] <= cap]
    chosen = (
        max(within, key=lambda t: (t["val_win_rate"], -t["cpu_per_deal"]))
        if within
        else min(trials, key=lambda t: t["cpu_per_deal"])
    )
    settings = {k: chosen[k] for k in grid[0]}
    searcher = MLPPolicy(policy.layers, policy.activation,
                         policy.meta | {"kind": "expit-search", "search": settings})  # fmt: skip
    searcher.save(run / "best-search.npz")
    search_eval = chosen
    metrics = {
        "run": run.name,
        "rounds": rows,
        "best_round": best["round"],
        "policy_delta": deltas,
        "search_agent": search_eval,
        "search_grid": trials,
        "wall_s": round(time.time() - start),
        "machine": machine(),
    }
    print(json.dumps(metrics["search_agent"]), flush=True)
    writer.add_scalar("expit/search_agent_val_win_rate", chosen["val_win_rate"], best["round"])
    writer.close()
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2))
    if args.ship or args.ship_search:
        from pyramid_env.lab.shipping import ship

        if args.ship:
            ship(run / "best.npz", args.ship)
        if args.ship_search:
            ship(run / "best-search.npz", args.ship_search)
    return metrics


if __name__ == "__main__":
    main()

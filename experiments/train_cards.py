"""Train a network alone on solver-labelled positions: the card network or a flat MLP.

    python -m experiments.train_cards --data data/msc.npz --arch cards --positions 100000 \
        --steps 20000 --seed 0 --out runs/cards_msc_s0

Two outputs per move: a Q logit (binary cross-entropy on the solver's verdicts: the chance a
move keeps the deal winnable, given what a player sees) and a policy logit (cross-entropy on
the teacher's move); ranks relabelled at random in every batch. The way of playing (Q, policy
or both, :meth:`pyramid_env.agents.cardnet.CardNet.act_logits`) is chosen on ``val``. ``--arch
cards`` is :class:`CardTorch`, the twin of the shipped numpy ``CardNet``; ``--arch flat`` an
MLP on the counts observation. The recipe and its results: docs/learning.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pyramid_env.agents.cardnet import CardNet, CardNetAgent
from pyramid_env.agents.cardnet_metrics import held_out
from pyramid_env.agents.cardnet_torch import (
    ARCHS,
    INPUTS,
    SIZES,
    build,
    counts_from_packed,
    export,
    grow,
    load_shipped,
    relabel,
    tokens,
    with_inputs,
    with_probe,
)
from pyramid_env.benchmark import machine
from pyramid_env.engine.moves import MOVES, MoveKind
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.card_data import PHASES, TARGETS, load_data, losing_move
from pyramid_env.lab.partner import PartnerHead, partner_right, watch
from pyramid_env.lab.shipping import TRAINING, training
from pyramid_env.workers import limit_threads

REFERENCE = ("greedy", "greedy-careful")
# The ways to play chosen between on val: by Q, the policy's log-probabilities weighted by
# ``tie`` added (0.01: a tie-break; 1: the policy unless Q says its move loses), by the policy
# alone, or by both: log policy + ``tie`` x log Q.
PLAYS = (("q", 0.01), ("q", 0.1), ("q", 1.0), ("policy", 0.0), ("both", 3.0), ("sample", 1.0))


def bf16_fast() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware (AVX-512 BF16 or AMX).

    Without it, ``torch.autocast`` to bfloat16 is emulated and training runs slower than in
    float32, so ``--bf16`` defaults to what the CPU has. torch names the test
    privately; a torch without it counts as no.
    """
    tests = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(bool(getattr(torch.cpu, name, lambda: False)()) for name in tests)


def losses(out: torch.Tensor, legal: torch.Tensor, wins: torch.Tensor, teacher: torch.Tensor,
           weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """The Q loss (BCE on every legal move's verdict) and the policy loss (CE on the teacher).

    Each position counts at its ``weight``; in the Q loss, each of its legal moves does.
    """
    per_move = legal * weight[:, None]
    bce = nn.functional.binary_cross_entropy_with_logits(out[:, 1], wins, reduction="none")
    q_loss = (bce * per_move).sum() / per_move.sum()
    pol = out[:, 0].masked_fill(~legal, -1e9)
    p_each = nn.functional.cross_entropy(pol, teacher, reduction="none")
    return q_loss, (p_each * weight).sum() / weight.sum()


def hard_positions(data: dict[str, np.ndarray]) -> np.ndarray:
    """Where a legal move loses by the verdicts (with soft targets too): where a choice matters."""
    return losing_move(data["legal"], data.get("verdict", data["wins"]))


def position_weights(data: dict[str, np.ndarray], hard_weight: float) -> torch.Tensor:
    """``hard_weight`` at the :func:`hard_positions`, else 1."""
    hard = torch.as_tensor(hard_positions(data)).float()
    return 1.0 + (hard_weight - 1.0) * hard


def safe_choices(data: dict[str, np.ndarray]) -> np.ndarray:
    """Where the teacher removes cards with the draw open and no legal move loses.

    The counterpart of the :func:`hard_positions`: the same choice (take a pair, or draw
    on), where taking it is right. Drawn up alone, the hard positions (where the teacher mostly
    draws) may teach a network to leave a pair it cannot judge, and so to loop past winning
    pairs; ``--safe-share`` shows it these as well.
    """
    legal = np.asarray(data["legal"], bool)
    turns = np.array([m.kind in (MoveKind.DRAW, MoveKind.RECYCLE) for m in MOVES])
    removes = ~turns[data["teacher"].astype(np.int64)]
    return removes & (legal & turns).any(1) & ~hard_positions(data)


def batches(data: dict[str, np.ndarray], batch: int, hard_share: float,
            rng: np.random.Generator, safe_share: float = 0.0) -> Any:  # fmt: skip
    """Endless batches of position indices: uniform, or ``hard_share`` of each from the hard.

    Where positions with a losing move are rare (under unlimited passes), a uniform batch
    holds a few; weighting them up (``--hard-weight``) leaves the gradient as noisy, while
    drawing a share of every batch from them shows the network many more of them a step.
    ``safe_share`` of each batch is drawn from the :func:`safe_choices` likewise.
    """
    n = len(data["teacher"])
    pools = []
    for flag, share, find in (("--hard-share", hard_share, hard_positions),
                              ("--safe-share", safe_share, safe_choices)):  # fmt: skip
        if not share:
            continue
        pool = np.flatnonzero(find(data))
        if not len(pool) or not 0 < share < 1:
            what = "hard" if find is hard_positions else "safe-choice"
            raise SystemExit(f"{flag} {share}: in (0, 1), with {what} positions in the data "
                             f"({len(pool)} here)")  # fmt: skip
        pools.append((pool, round(share * batch)))
    rest = batch - sum(k for _, k in pools)
    if rest < 0:
        raise SystemExit(f"--hard-share {hard_share} and --safe-share {safe_share}: "
                         "at most 1 in all")  # fmt: skip
    while True:
        yield np.concatenate([*(rng.choice(pool, k) for pool, k in pools),
                              rng.integers(0, n, rest)])  # fmt: skip


def fit(net: nn.Module, data: dict[str, np.ndarray], steps: int, batch: int, lr: float,
        seed: int, log: Any = None, bf16: bool = False, hard_weight: float = 1.0,
        ema: float = 0.0, every: int = 0, checkpoint: Any = None,
        hard_share: float = 0.0, safe_share: float = 0.0, partner: Any = None,
        partner_weight: float = 1.0) -> list[dict[str, float]]:  # fmt: skip
    """``steps`` Adam steps on random batches, one-cycle schedule; the losses every 500 steps.

    ``bf16``: matrix products in bfloat16 (``torch.autocast``; the card network trains about
    twice as fast on a CPU with AVX-512 BF16), the weights and the losses in float32.
    ``hard_weight``: the weight of a position with a losing legal move (the others weigh 1),
    where a choice matters. ``ema``: keep an exponential moving average of the weights with
    this decay (Polyak averaging) and leave it in ``net`` at the end, so that a network taken
    mid-schedule, at a high learning rate, is as fair a sample of the run as the last one.
    ``every``: call ``checkpoint(step, net)`` every so many steps (with the average's weights
    in ``net`` meanwhile), which is how a curve of play against training steps is drawn from one
    run. ``hard_share``: the share of every batch drawn from the positions where a move loses
    (:func:`batches`), ``safe_share`` the share from their counterparts (:func:`safe_choices`).
    ``partner``: a :class:`PartnerHead` trained beside, its loss weighted ``partner_weight``.
    """
    if steps == 0:  # the network as it is (with --init: the starting network, evaluated)
        return []
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    params = [*net.parameters(), *(partner.parameters() if partner is not None else [])]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=1e-4)
    seen, hook = watch(net) if partner is not None else ({}, None)  # what the head reads
    plan = torch.as_tensor(data["partner"].astype(np.int64)) if partner is not None else None
    warmup = max(0.05, 3 / steps)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps, pct_start=warmup)
    flat = net.meta["arch"] == "flat"
    legal, wins = torch.as_tensor(data["legal"]), torch.as_tensor(data["wins"])
    teacher = torch.as_tensor(data["teacher"].astype(np.int64))
    weight = position_weights(data, hard_weight)
    history, sums = [], np.zeros(4)
    avg = torch.optim.swa_utils.AveragedModel(
        net, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(ema)
    ) if ema else None  # fmt: skip
    draw = batches(data, batch, hard_share, rng, safe_share)
    for step in range(1, steps + 1):
        idx = next(draw)
        x = relabel(data["obs"][idx], rng)
        inp = torch.as_tensor(counts_from_packed(x)) if flat else tokens(torch.as_tensor(x))
        with torch.autocast("cpu", torch.bfloat16, enabled=bf16):
            out = (net(inp) if flat else net(inp, legal[idx])).float()
        q_loss, p_loss = losses(out, legal[idx], wins[idx].float(), teacher[idx], weight[idx])
        loss = q_loss + p_loss
        if partner is not None:
            a_loss, a_right = partner(seen["h"], plan[idx])
            loss = loss + partner_weight * a_loss
            sums[2:] += (a_loss.item(), a_right.item())
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if avg is not None:
            avg.update_parameters(net)
        sums[:2] += (q_loss.item(), p_loss.item())
        if step % 500 == 0:
            row = {"step": step, "q_loss": sums[0] / 500, "policy_loss": sums[1] / 500}
            if partner is not None:
                row |= {"partner_loss": sums[2] / 500, "partner_right": sums[3] / 500}
            history.append(row)
            if log:
                log(row)
            sums[:] = 0
        if every and checkpoint and (step % every == 0 or step == steps):
            with _averaged(net, avg):
                checkpoint(step, net)
    if avg is not None:
        net.load_state_dict(avg.module.state_dict())
    if hook is not None:
        hook.remove()
    return history


@contextlib.contextmanager
def _averaged(net: nn.Module, avg: Any) -> Any:
    """``net`` with the moving average's weights for the block, its own weights after it."""
    if avg is None:
        yield
        return
    own = {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(avg.module.state_dict())
    try:
        yield
    finally:
        net.load_state_dict(own)


def choose_play(net: CardNet, rules: str, seeds: str, workers: int, done: list[dict[str, Any]] = (),
                plays: tuple = PLAYS) -> list[dict[str, Any]]:  # fmt: skip
    """The network alone on ``seeds`` with each way of playing in ``plays`` not in ``done``."""
    rows = list(done)
    for play, tie in plays:
        if any((r["play"], r["tie"]) == (play, tie) for r in rows):
            continue
        net.meta |= {"play": play, "tie": tie}
        s = evaluate(CardNetAgent(net), rules, seeds, workers=workers).summary()
        rows.append({"play": play, "tie": tie} | {k: s[k] for k in (
            "wins", "deals", "solver_winnable", "solver_normalised", "norm_ci_low",
            "norm_ci_high", "cpu_per_deal")})  # fmt: skip
    return rows


def train_one(args: argparse.Namespace, data: dict[str, Any], arch: str, n: int, seed: int,
              heldout: dict[str, Any] | None) -> dict[str, Any]:  # fmt: skip
    """Train one network on the first ``n`` positions; evaluate it; write its run folder."""
    sub = {k: (v[:n] if isinstance(v, np.ndarray) else v) for k, v in data.items()}
    out = args.out / f"{arch}_{n}_s{seed}"
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    if args.init is not None:  # go on from a trained network (the same architecture)
        start = CardNet.load(args.init)
        # a probe or the cycle order added to a network without it starts as nothing
        # (cardnet_torch.with_probe, with_inputs)
        base = "rel" if arch in ("probe", *INPUTS) and not start.meta.get(arch) else arch
        base = "tally" if base == "rel" and arch == "cover" and start.meta.get("tally") else base
        loops = args.loops or start.meta.get("loops", 1)  # --loops: its blocks more times
        width = SIZES[args.size]["d"]
        if start.meta.get("d", width) != width:
            raise SystemExit(
                f"--init {args.init} has width {start.meta['d']}; --size "
                f"{args.size} builds width {width}: give the file's size"
            )
        depth = start.meta.get("layers")  # its own blocks; --layers adds blocks on top
        net = load_shipped(build(base, args.size, depth, loops), start)
        if base != arch:
            net = with_probe(net) if arch == "probe" else with_inputs(net, arch)
        if args.layers is not None:  # deeper: blocks on top that start as nothing
            try:
                net = grow(net, args.layers)
            except ValueError as err:
                raise SystemExit(f"--layers {args.layers} with --init {args.init}: {err}") from err
    else:
        net = build(arch, args.size, args.layers, args.loops or 1)
    t0 = time.time()
    with open(out / "train.jsonl", "w") as f:

        def log(row: dict[str, float]) -> None:
            f.write(json.dumps(row | {"seconds": round(time.time() - t0, 1)}) + "\n")
            f.flush()

        ckpt_meta = {"rules": data["rules"], "positions": n, "seed": seed, "obs_mode": "counts"}

        def checkpoint(step: int, now: nn.Module) -> None:
            (out / "steps").mkdir(exist_ok=True)
            export(now, ckpt_meta | {"steps": step}).save(out / "steps" / f"step_{step:06d}.npz")

        aux = PartnerHead(net.meta["d"]) if args.partner else None
        history = fit(
            net, sub, args.steps, args.batch, args.lr, seed, log, args.bf16, args.hard_weight,
            args.ema, args.checkpoints, checkpoint, args.hard_share, args.safe_share, aux,
            args.partner,
        )  # fmt: skip
    result: dict[str, Any] = {
        "rules": data["rules"], "arch": arch, "size": args.size, "positions": n,
        "deals": len(np.unique(sub["deal"])), "steps": args.steps, "batch": args.batch,
        "bf16": args.bf16, "lr": args.lr, "hard_weight": args.hard_weight,
        "hard_share": args.hard_share, "safe_share": args.safe_share,
        "q_target": args.q_target, "gamma": args.gamma, "ema": args.ema, "phase": args.phase,
        "partner": args.partner,
        "layers": net.meta.get("layers"), "loops": net.meta.get("loops", 1),
        "data": [str(p) for p in args.data], "init": str(args.init) if args.init else None,
        "seed": seed, "params": sum(p.numel() for p in net.parameters()),
        "train_seconds": round(time.time() - t0, 1), "final": history[-1] if history else {},
    }  # fmt: skip
    if heldout is not None:
        result["heldout"] = held_out(net.eval(), heldout)
        if aux is not None and "partner" in heldout:
            result["heldout"]["partner_right"] = partner_right(net, aux, heldout)
    if aux is not None:  # not part of the shipped network: for experiments/partner_probe.py
        torch.save(aux.state_dict(), out / "partner.pt")
    meta = {k: result[k] for k in ("rules", "positions", "steps", "seed")}
    shipped = export(net, meta | {"obs_mode": "counts", "train": training(result)})
    shipped.save(out / "net.npz")
    return finish(out, result | {"machine": machine(), "val": []}, args)


def finish(out: Path, result: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """Evaluate the ways of playing not yet measured; store the best in the network's file."""
    result.setdefault("machine", machine())
    net = CardNet.load(out / "net.npz")  # play the stored (float16) weights
    result["val"] = choose_play(net, result["rules"], args.eval_seeds, args.workers, result["val"],
                                args.plays)  # fmt: skip
    best = max(result["val"], key=lambda r: (r["solver_normalised"], r["play"] == "policy"))
    result["best_play"] = {"play": best["play"], "tie": best["tie"]}
    net.meta |= result["best_play"]
    net.save(out / "net.npz")
    (out / "result.json").write_text(json.dumps(result, indent=1))
    return result


def write_curve(folder: Path) -> None:
    """``curve.jsonl``: every finished run's result in the folder, one line each."""
    runs = sorted(folder.glob("*/result.json"))
    lines = [json.dumps(json.loads(p.read_text())) + "\n" for p in runs]
    tmp = folder / "curve.jsonl.tmp"
    tmp.write_text("".join(lines))
    tmp.replace(folder / "curve.jsonl")


def parser() -> argparse.ArgumentParser:
    """The command line, apart so a recipe's arguments can be read as a run reads them."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    d = TRAINING  # the settings' defaults, which a network's meta records (lab.shipping)
    p.add_argument("--data", type=Path, nargs="+", required=True, help="card_data files")
    p.add_argument("--init", type=Path, help="a trained network to start from")
    p.add_argument("--heldout", type=Path, help="a card_data file to score held-out losses on")
    p.add_argument("--arch", nargs="+", default=["cards"], choices=ARCHS)
    p.add_argument("--size", default="base", choices=list(SIZES))
    p.add_argument("--layers", type=int, help="the card network's depth (default: the "
                   "size's); with --init, blocks added on top of the network's own, each "
                   "starting as nothing (cardnet_torch.grow)")  # fmt: skip
    p.add_argument("--loops", type=int, help="the card network's blocks applied this many "
                   "times, with the same weights (default 1; with --init, its own)")  # fmt: skip
    p.add_argument("--positions", type=int, nargs="+", help="default: all the file holds")
    p.add_argument("--seeds", type=int, nargs="+", default=[0])
    p.add_argument("--steps", type=int, default=20_000)
    p.add_argument("--batch", type=int, default=d["batch"])
    p.add_argument("--lr", type=float, default=d["lr"])
    p.add_argument("--hard-weight", type=float, default=d["hard_weight"],
                   help="weight of the positions with a losing legal move (where a choice "
                   "matters)")  # fmt: skip
    p.add_argument("--hard-share", type=float, default=d["hard_share"],
                   help="share of every batch drawn from the positions with a losing legal "
                   "move (0: uniform batches)")  # fmt: skip
    p.add_argument("--safe-share", type=float, default=d["safe_share"],
                   help="share of every batch drawn from the positions where the teacher "
                   "removes with the draw open and no move loses (the hard positions' "
                   "counterparts)")  # fmt: skip
    p.add_argument(
        "--q-target",
        default=d["q_target"],
        choices=list(TARGETS),
        help="the Q labels: the true order's verdicts, card_data --soft's shares, "
        "card_data --rollout's (greedy-careful's outcome after each move: an honest value), "
        "or the verdicts discounted by --gamma per extra pass a move needs (card_data --passes)",
    )
    p.add_argument(
        "--partner",
        type=float,
        default=d["partner"],
        help="weight of an auxiliary loss: "
        "each card's partner in a winning line (card_data --line; 0: none)",
    )
    p.add_argument("--gamma", type=float, default=d["gamma"], help="--q-target passes: the value "
                   "kept per extra pass a move needs, in (0, 1]")  # fmt: skip
    p.add_argument(
        "--bf16",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="matrix products in bfloat16 (default: where the CPU has them in hardware)",
    )
    p.add_argument("--ema", type=float, default=d["ema"], help="decay of a moving average of the "
                   "weights, which the run then ends with (0: none)")  # fmt: skip
    p.add_argument("--checkpoints", type=int, default=0, help="save the network every so many "
                   "steps, in <run>/steps/ (experiments/cards_steps.py plays them)")  # fmt: skip
    p.add_argument(
        "--phase",
        default=d["phase"],
        choices=list(PHASES),
        help="train and score held-out on these positions only: all, those with a card unseen "
        "(hidden), or those with every card seen (known: the endgame, labels exact)",
    )
    p.add_argument("--eval-seeds", default="val[:300]")
    p.add_argument(
        "--plays",
        nargs="+",
        choices=[f"{p}:{t}" for p, t in PLAYS],
        help="the ways of playing tried on --eval-seeds (default: all of them)",
    )
    p.add_argument("--workers", type=int, default=2, help="processes for the val games")
    p.add_argument("--threads", type=int, default=2, help="torch threads for training")
    p.add_argument("--out", type=Path, required=True)
    return p


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = parser()
    args = p.parse_args(argv)
    if not 0 <= args.ema < 1:
        p.error(f"--ema {args.ema}: a decay in [0, 1) (0: no moving average)")
    if args.layers is not None and (args.layers < 1 or "flat" in args.arch):
        p.error(f"--layers {args.layers}: a card network's depth, 1 or more (not with flat)")
    if args.loops is not None and (args.loops < 1 or "flat" in args.arch):
        p.error(f"--loops {args.loops}: times a card network's blocks run, 1 or more (not flat)")
    if args.checkpoints < 0:
        p.error(f"--checkpoints {args.checkpoints}: a number of steps, 0 for none")
    if args.bf16 is None:
        args.bf16 = bf16_fast()
    limit_threads(args.threads)
    plays = [w.partition(":") for w in args.plays] if args.plays else None
    args.plays = tuple((w, float(t)) for w, _, t in plays) if plays else PLAYS
    if not 0 < args.gamma <= 1:
        p.error(f"--gamma {args.gamma}: a discount in (0, 1]")
    if args.partner < 0:
        p.error(f"--partner {args.partner}: the auxiliary loss's weight, 0 (none) or more")
    n = max(args.positions) if args.positions else None
    data = load_data(args.data, n, args.q_target, args.gamma, args.phase)
    if args.partner and "partner" not in data:
        p.error(f"--partner {args.partner}: --data has no plan targets (card_data --line)")
    if not len(data["teacher"]):
        p.error(f"--data {' '.join(map(str, args.data))}: no positions to train on")
    heldout = load_data(args.heldout, None, phase=args.phase) if args.heldout else None
    sizes = args.positions or [len(data["teacher"])]
    args.out.mkdir(parents=True, exist_ok=True)
    reference = args.out / "reference.json"
    if not reference.exists():  # the hand-written rules on the same deals, to compare with
        rows = {}
        for name in REFERENCE:
            s = evaluate(name, data["rules"], args.eval_seeds, workers=args.workers).summary()
            rows[name] = {k: s[k] for k in ("wins", "solver_normalised", "norm_ci_low",
                                             "norm_ci_high", "cpu_per_deal")}  # fmt: skip
        reference.write_text(json.dumps(rows, indent=1))
    results = []
    for n in sizes:
        for arch in args.arch:
            for seed in args.seeds:
                run = args.out / f"{arch}_{n}_s{seed}"
                if (run / "result.json").exists():  # finished: kept, not trained again
                    r = json.loads((run / "result.json").read_text())
                    if not set(args.plays) <= {(v["play"], v["tie"]) for v in r["val"]}:  # new ways
                        r = finish(run, r, args)
                else:
                    r = train_one(args, data, arch, n, seed, heldout)
                results.append(r)
                write_curve(args.out)
                best = max(r["val"], key=lambda v: v["solver_normalised"])
                print(f"{arch} {n:>9,} seed {seed}: {best['solver_normalised']:.3f} of the "
                      f"solver's wins ({best['play']}, tie {best['tie']}), "
                      f"{r['train_seconds']:.0f} s", flush=True)  # fmt: skip
    return results


if __name__ == "__main__":
    main()

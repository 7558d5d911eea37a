"""Other ways to play card networks: several as one (mean logits), or by policy within a Q margin.

    python -m experiments.cards_combine --nets A.npz B.npz C.npz --seeds "val[:300]"
    python -m experiments.cards_combine --nets A.npz --filter 0.02 0.1 --heldout held.npz
    python -m experiments.cards_combine --nets A.npz --ways sample:1 sample:0.5 --seeds "val[:500]"
    python -m experiments.cards_combine --nets A.npz --filter 0.5 --sample-filter --seeds "val[:9]"
    python -m experiments.cards_combine --nets A.npz --pair-bias -1 0 1 --seeds "val[:500]"

Both are still a network alone (observation in, move out, nothing else read). ``--heldout``
scores each way of combining a network's two heads on solver-labelled positions: how often the
chosen move keeps the deal winnable where some legal move loses it, split by whether every stock
card has been seen, and the wrong choices where every card is seen counted by kind. The
findings: docs/learning.md, "Its own games, several networks as one, and where its two heads
disagree", and "Which phase the networks lose in". ``--pair-bias B``: the first network with
``B`` added to every pair move's policy logit (still a network: one of its biases moved).
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents.cardnet import PAIR_IDS, CardNet, CardNetAgent, filter_scores, parse_way
from pyramid_env.engine.moves import MOVES, MoveKind
from pyramid_env.engine.state import SLOTS
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.card_data import all_seen, load_data

WAYS = ("q", "policy", "both", "sample")  # --ways: CardNet's ways of playing but the filter
SUMMARY = ("wins", "deals", "solver_winnable", "solver_normalised", "norm_ci_low",
           "norm_ci_high", "cpu_per_deal")  # fmt: skip


class Ensemble(CardNet):
    """Several card networks as one: the mean of their logits, played as the first one's meta."""

    def __init__(self, nets: list[CardNet], play: str, tie: float) -> None:
        """See the class docstring."""
        self.nets = nets
        self.w = {f"{i}.{k}": v for i, n in enumerate(nets) for k, v in n.w.items()}
        self.meta = dict(nets[0].meta) | {"play": play, "tie": tie}

    def forward(self, obs: np.ndarray) -> np.ndarray:
        """The mean of the networks' ``(B, 2, 327)`` outputs."""
        return np.mean([n.forward(obs) for n in self.nets], axis=0)

    def save(self, path: str | Path) -> None:
        """Refused: ``CardNet.load`` reads one network, and this is several."""
        raise NotImplementedError(f"{path}: an ensemble is not saved; save its networks")


class SampledFilter(CardNet):
    """A network's policy drawn from among the moves whose Q is within ``margin`` of the best.

    The filter's veto with the sampling player's escape from loops: ``"filter"`` play takes the
    policy's favourite among the moves Q keeps, which loops where Q rates a draw as safe as the
    winning pair (under unlimited passes a draw never loses).
    """

    def __init__(self, net: CardNet, margin: float) -> None:
        """See the class docstring."""
        super().__init__(net.w, net.meta | {"play": "sample", "tie": 1.0})
        self.margin = margin

    def act_logits(self, obs: np.ndarray, legal: np.ndarray | None = None) -> np.ndarray:
        """The policy's logits where Q keeps the move, minus infinity where it vetoes it."""
        if legal is None:
            raise ValueError("a sampled filter compares legal moves: pass legal")
        return filter_scores(self.forward(obs), legal, self.margin)


def with_pair_bias(net: CardNet, bias: float) -> CardNet:
    """A copy of ``net`` whose policy logit of every pair move is ``bias`` higher."""
    w = dict(net.w)
    w["heads.bias"] = w["heads.bias"].copy()
    w["heads.bias"][0, PAIR_IDS] += bias
    return CardNet(w, dict(net.meta))


def _share(right: np.ndarray, where: np.ndarray) -> float | None:
    """The share of ``right`` among the positions ``where`` (None if there are none)."""
    return float(right[where].mean()) if where.any() else None


def move_kind(a: int) -> str:
    """A move's kind for the table of mistakes: a pair says where its two cards lie."""
    m = MOVES[a]
    if m.kind is not MoveKind.PAIR:
        return m.kind.name
    both = (m.a < SLOTS) + (m.b < SLOTS)
    return ("PAIR stock-stock", "PAIR pyramid-stock", "PAIR pyramid-pyramid")[both]


def mistakes(choice: np.ndarray, wins: np.ndarray, where: np.ndarray) -> dict[str, int]:
    """At the positions ``where``, the wrong choices counted by their kind and what wins there.

    Keys read ``"PAIR pyramid-stock, not DRAW"``: the kind chosen, then the kinds of the
    winning moves; most common first.
    """
    counts: collections.Counter[str] = collections.Counter()
    for i in np.flatnonzero(where & ~wins[np.arange(len(choice)), choice]):
        won = " / ".join(sorted({move_kind(a) for a in np.flatnonzero(wins[i])}))
        counts[f"{move_kind(int(choice[i]))}, not {won}"] += 1
    return dict(counts.most_common())


def heldout(path: Path, nets: list[Path], margins: list[float],
            biases: list[float] = ()) -> list[dict[str, Any]]:  # fmt: skip
    """Per network and way of combining its heads: the chosen move right where a move loses.

    With several networks, their mean (as :class:`Ensemble` plays them) is scored too.
    """
    from pyramid_env.agents.cardnet_torch import counts_from_packed  # torch only for this

    d = load_data([path], None)
    legal, wins = d["legal"], d["wins"].astype(bool)
    hard = wins.sum(1) < legal.sum(1)
    seen = all_seen(d["obs"])  # no unseen card of any rank
    x = counts_from_packed(d["obs"])
    t = d["teacher"].astype(np.int64)
    t_right = wins[np.arange(len(t)), t]  # the teacher's own move, for scale
    rows = [{"net": "teacher", "way": "teacher", "hard": int(hard.sum()),
             "right": _share(t_right, hard), "right_seen": _share(t_right, hard & seen),
             "right_hidden": _share(t_right, hard & ~seen)}]  # fmt: skip
    print(json.dumps(rows[-1]), flush=True)
    outs = {}
    for net_path in nets:
        net = CardNet.load(net_path)
        outs[str(net_path)] = np.concatenate(
            [net.forward(x[i : i + 1024]) for i in range(0, len(x), 1024)]
        )
    if len(nets) > 1:  # the networks as one (Ensemble's mean of their outputs)
        outs["ensemble"] = np.mean(list(outs.values()), axis=0)
    for net_name, out in outs.items():
        pol = np.where(legal, out[:, 0], -1e9)
        pol -= pol.max(1, keepdims=True)
        q = np.where(legal, 1.0 / (1.0 + np.exp(-out[:, 1])), -1.0)
        ways = {"Q": q, "policy": pol}
        ways |= {f"Q + {t} log policy": q + t * pol for t in (0.01, 0.1, 1.0)}
        for m in margins:
            ways[f"policy within {m} of the best Q"] = np.where(
                legal, filter_scores(out, legal, m), -np.inf
            )
        pair = np.isin(np.arange(legal.shape[1]), PAIR_IDS)
        ways |= {f"policy, pairs {b:+g}": pol + b * pair for b in biases}
        for name, score in ways.items():
            choice = score.argmax(1)
            right = wins[np.arange(len(choice)), choice]
            turns = choice < 2  # a draw or a recycle
            teacher_removes = d["teacher"] >= 2
            rows.append({"net": net_name, "way": name, "hard": int(hard.sum()),
                         "right": _share(right, hard),
                         "right_seen": _share(right, hard & seen),
                         "right_hidden": _share(right, hard & ~seen),
                         "teacher": float((choice == d["teacher"]).mean()),
                         "turns": float(turns.mean()),
                         "teacher_turns": float((d["teacher"] < 2).mean()),
                         "turns_not_teacher": float((turns & teacher_removes).mean()),
                         "mistakes_seen": mistakes(choice, wins, hard & seen)})  # fmt: skip
            print(json.dumps(rows[-1]), flush=True)
    return rows


def play(nets: list[Path], seeds: str, rules: str, margins: list[float], ways: list[str],
         workers: int, sample_filter: bool = False,
         biases: list[float] = ()) -> list[dict[str, Any]]:  # fmt: skip
    """The ensemble of ``nets`` in each way of playing, or the first net by ``margins``' filter.

    With ``sample_filter`` the filter's kept moves are drawn from the policy
    (:class:`SampledFilter`).
    """
    loaded = [CardNet.load(p) for p in nets]
    agents = []
    for b in biases:  # the first network by its policy, its pair moves' logits moved by b
        net = with_pair_bias(loaded[0], b)
        net.meta |= {"play": "policy", "tie": 0.0}
        agents.append((f"pairs {b:+g}", CardNetAgent(net, name=f"pairs{b:+g}")))
    if margins and not biases:
        for m in margins:
            if sample_filter:
                agent = CardNetAgent(SampledFilter(loaded[0], m), name=f"sfilter-{m}")
                agents.append((f"sampled filter {m}", agent))
                continue
            net = CardNet(loaded[0].w, loaded[0].meta | {"play": "filter", "tie": m})
            agents.append((f"filter {m}", CardNetAgent(net, name=f"filter-{m}")))
    elif not biases:
        for way in ways:
            how, tie = parse_way(way, WAYS)
            agents.append((way, CardNetAgent(Ensemble(loaded, how, tie), name="ensemble")))
    rows = []
    for name, agent in agents:
        s = evaluate(agent, rules, seeds, workers=workers).summary()
        rows.append({"way": name, "nets": [str(p) for p in nets], "seeds": seeds}
                    | {k: s[k] for k in SUMMARY})  # fmt: skip
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nets", type=Path, nargs="+", required=True)
    p.add_argument("--rules", default="msc")
    p.add_argument("--seeds", help="play on these deals (the ensemble, or --filter)")
    p.add_argument("--heldout", type=Path, help="score the heads' ways on this card_data file")
    p.add_argument("--filter", type=float, nargs="+", default=[], metavar="MARGIN")
    p.add_argument("--sample-filter", action="store_true",
                   help="with --filter: draw from the policy among the kept moves")  # fmt: skip
    p.add_argument("--ways", nargs="+", default=["q:0.1", "both:3", "q:1.0"],
                   help="the ensemble's ways of playing, play:tie")  # fmt: skip
    p.add_argument(
        "--pair-bias",
        type=float,
        nargs="+",
        default=[],
        metavar="B",
        help="the first network by its policy, B added to every pair move's logit",
    )
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    if bool(args.seeds) == bool(args.heldout):
        p.error("give --seeds (play) or --heldout (score positions), one of them")
    if args.pair_bias and args.filter and args.seeds:
        p.error("--pair-bias and --filter: play one way of reading the first network at a time")
    if args.sample_filter and not (args.filter and args.seeds):
        p.error("--sample-filter plays the filter: give --filter MARGIN... and --seeds")
    for way in args.ways:
        try:
            parse_way(way, WAYS)
        except ValueError as err:
            p.error(f"--ways {err}")
    if args.heldout:
        rows = heldout(args.heldout, args.nets, args.filter or [0.02, 0.05, 0.1], args.pair_bias)
    else:
        rows = play(args.nets, args.seeds, args.rules, args.filter, args.ways, args.workers,
                    args.sample_filter, args.pair_bias)  # fmt: skip
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()

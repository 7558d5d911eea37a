"""Where an expert-iteration network goes wrong: its agreement with the search, its fatal moves.

    python -m experiments.expit_errors runs/expit_msc__*/best.npz --seeds "val[:100]"

Says where the network alone falls short of the search it learned from, to see what more
training or a search could fix (the method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents import ExpitPolicyAgent, MLPPolicy, Turn
from pyramid_env.agents.expit import order_agent, q_and_value, record_games
from pyramid_env.agents.honest import all_seen, search
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.rules import get_rules
from pyramid_env.engine.state import State
from pyramid_env.env import PyramidEnv
from pyramid_env.lab.fatal import first_fatal
from pyramid_env.seeds import seed_set
from pyramid_env.solver import Verdict, solve

ROOT = Path(__file__).parents[1]


def _favourite(agent: ExpitPolicyAgent, env: PyramidEnv, obs: np.ndarray) -> int:
    turn = Turn(env.state, env.legal_actions(), env.known_stock(), obs)
    return agent.act(turn, np.random.default_rng(0))


def _cue(margin: float, gaps: list[float], departs: list[tuple[str, float]]) -> dict[str, Any]:
    """What the network's cue to look closer costs (decisions flagged) and catches, per kind."""
    caught = {
        kind: round(sum(g >= margin for d, g in departs if d == kind) / n, 3)
        for kind in ("blunder", "marginal")
        if (n := sum(d == kind for d, _ in departs))
    }
    return {
        "margin": margin,
        "flagged": round(sum(g >= margin for g in gaps) / max(len(gaps), 1), 3),
        "caught": caught,
    }


LARGE = 0.1
"""A departure whose gain is at least this share of the orders is *large* (``--recheck``)."""


def auc(positives: list[float], negatives: list[float]) -> float | None:
    """The chance that a random positive scores above a random negative (ties count half)."""
    if not positives or not negatives:
        return None
    pos, neg = np.asarray(positives)[:, None], np.asarray(negatives)[None, :]
    return float(np.mean((pos > neg) + 0.5 * (pos == neg)))


Check = tuple[float, float, bool, str]
"""A hidden decision rechecked: the network's gap, the gain, whether the training search
departed there too, and the kinds of the heuristic's and the best move (``"PAIR->DRAW"``)."""


def _recheck(checks: list[Check], margins: list[float]) -> dict[str, Any]:
    """Departures found with many orders, and what the network's cue catches of them.

    Args:
        checks: one per hidden decision (a gain of 0: the heuristic's move is the best).
        margins: the cue's margins.
    """
    departs = [c for c in checks if c[1] > 0]
    small = [c for c in departs if c[1] < LARGE]

    def part(group: list[Check]) -> dict[str, Any]:
        return {
            "departures": len(group),
            "gain": round(sum(c[1] for c in group), 3),
            "found_by_search": sum(c[2] for c in group),
            "certain": sum(c[1] == 1 for c in group),
            "kinds": dict(Counter(c[3] for c in group).most_common()),
        }

    cue = []
    for margin in margins:
        flagged = [c for c in checks if c[0] >= margin]
        cue.append(
            {
                "margin": margin,
                "flagged": round(len(flagged) / max(len(checks), 1), 3),
                "small_caught": sum(c[1] > 0 for c in flagged if c[1] < LARGE),
                "small_gain_caught": round(sum(c[1] for c in flagged if c[1] < LARGE), 3),
                "gain_caught": round(sum(c[1] for c in flagged), 3),
            }
        )
    score = auc([c[0] for c in small], [c[0] for c in checks if c[1] == 0])
    return {
        "decisions": len(checks),
        "large": part([c for c in departs if c[1] >= LARGE]),
        "small": part(small),
        "cue": cue,
        "cue_auc_small": None if score is None else round(score, 3),
    }


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("nets", nargs="+", type=Path, help="networks saved by train_expit.py")
    p.add_argument("--seeds", default="val[:100]")
    p.add_argument("--samples", type=int, default=16, help="the search's samples per decision")
    p.add_argument("--margins", nargs="+", type=float, default=[0.05, 0.1, 0.3])
    p.add_argument("--recheck", type=int, default=0, help="search each hidden decision again "
                   "with this many orders (0: not)")  # fmt: skip
    p.add_argument("--out", type=Path, help="a JSON-lines file for the rows (rewritten)")
    args = p.parse_args(argv)
    deals = list(seed_set(args.seeds))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("")
    rows = []
    games: dict[tuple[str, str], list] = {}  # per (rules, order): the search's games
    for path in args.nets:
        net = MLPPolicy.load(path)
        agent = ExpitPolicyAgent(net)
        rules = get_rules(net.meta["rules"])
        order = net.meta.get("order", "greedy")  # the heuristic its search followed
        if (rules.name, order) not in games:
            games[rules.name, order] = record_games(deals, rules, None, args.samples, 30_000,
                                                    seed=7, order=order)  # fmt: skip
        env = PyramidEnv(rules, obs_mode="counts")
        agree = {"hidden": [0, 0], "known": [0, 0]}
        gaps: list[float] = []  # per hidden searched decision: the network's best Q - greedy's
        departs: list[tuple[str, float]] = []  # (blunder or marginal, gap) where the search left
        checks: list[Check] = []  # with --recheck
        heuristic = order_agent(order)
        for n, game in zip(deals, games[rules.name, order], strict=True):
            obs, _ = env.reset(options={"deal": n})
            steps = zip(game["actions"], game["values"], game["q"], strict=True)
            for step, (action, value, q) in enumerate(steps):
                if value:  # a searched decision with a winnable sample: the search's move
                    hidden = not all_seen(env.state, env.known_stock())
                    phase = "hidden" if hidden else "known"
                    agree[phase][0] += _favourite(agent, env, obs) == action
                    agree[phase][1] += 1
                    if hidden:
                        # Without a network the search examines every move in greedy's order.
                        greedy, share = q[0]
                        q_net = q_and_value(net, obs)[0]
                        gaps.append(max(q_net[a] for a in env.legal_actions()) - q_net[greedy])
                        if action != greedy:
                            kind = "blunder" if share <= value / 2 else "marginal"
                            departs.append((kind, gaps[-1]))
                        if args.recheck:
                            s, legal = env.state, env.legal_actions()
                            prefs = heuristic.preferences(Turn(s, legal, env.known_stock(), obs))
                            rng = np.random.default_rng([11, n, step])
                            res = search(s, env.known_stock(), prefs, args.recheck, 30_000, rng,
                                         ties=True)  # fmt: skip
                            top = max((res.wins[a] for a in res.complete), default=0)
                            gain = (top - res.wins.get(prefs[0], 0)) / args.recheck
                            best = next(a for a in res.complete if res.wins[a] == top)
                            kinds = f"{MOVES[prefs[0]].kind.name}->{MOVES[best].kind.name}"
                            checks.append((gaps[-1], gain, action != greedy, kinds))
                obs, *_ = env.step(action)
        fatal = {"hidden draw": 0, "hidden removal": 0, "known draw": 0, "known removal": 0}
        winnable = won = 0
        for n in deals:
            if solve(State(n, rules), check=False).status is not Verdict.WIN:
                continue
            winnable += 1
            first = first_fatal(agent, rules, n)  # None: won
            won += first is None
            if first is not None and first["phase"] != "end":
                kind = "draw" if first["kind"] == "draw" else "removal"
                fatal[f"{first['phase']} {kind}"] += 1
        row = {
            "net": str(path),
            "seeds": args.seeds,
            "agreement_hidden": round(agree["hidden"][0] / max(agree["hidden"][1], 1), 3),
            "decisions_hidden": agree["hidden"][1],
            "agreement_known": round(agree["known"][0] / max(agree["known"][1], 1), 3),
            "decisions_known": agree["known"][1],
            "winnable": winnable,
            "won": won,
            "first_fatal_move": fatal,
            "departures": {k: sum(d == k for d, _ in departs) for k in ("blunder", "marginal")},
            "cue": [_cue(m, gaps, departs) for m in args.margins],
        }
        if args.recheck:
            row["recheck"] = {"samples": args.recheck, **_recheck(checks, args.margins)}
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
    return rows


if __name__ == "__main__":
    main()

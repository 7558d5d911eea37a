"""Where an expert-iteration network goes wrong: its agreement with the search, its fatal moves.

    python experiments/expit_errors.py runs/expit_msc__*/best.npz --seeds "val[:100]"

On deals it never trained on (``--seeds``, val by default):

1. **Agreement**: the search that made the training data (``record_games`` without a network:
   every move examined, ties to the order the network was trained with, ``greedy`` or
   ``greedy-careful``: "greedy" below) plays the deals; at each of its decisions the
   network's favourite is compared with the search's move, apart while cards are hidden and
   once the whole stock is known.
2. **Fatal moves**: the network plays the deals alone; on each deal the solver can win, the
   first move after which it no longer can (the solver, clairvoyant, is the judge here, for
   the analysis only; :func:`experiments.fatal_moves.first_fatal`) is counted by phase and
   kind (draw or removal).
3. **Where the search parts from greedy**, from the same games: at each decision while cards
   are hidden where the search's move is not greedy's, greedy's move is a *blunder* if it keeps
   at most half the samples the position keeps winnable, else *marginal*; and for each
   ``--margins`` value, the share of hidden decisions at which the network rates another move
   that much above greedy's (``ExpitSearchAgent``'s cue to look closer: its cost) and the
   share of blunders and of marginal departures among them (what that cue catches).
   A blunder shows in at least half the samples, so a few samples find it; a marginal
   departure only in a few of many, which is what a cue from the network would have to
   point at.

Prints one JSON line per network.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).parents[1]
if str(ROOT) not in sys.path:  # run as a script, the repo root is not on the path
    sys.path.insert(0, str(ROOT))

from experiments.fatal_moves import first_fatal  # noqa: E402
from pyramid_env.agents import ExpitPolicyAgent, MLPPolicy, Turn  # noqa: E402
from pyramid_env.agents.expit import q_and_value, record_games  # noqa: E402
from pyramid_env.agents.honest import all_seen  # noqa: E402
from pyramid_env.engine.rules import get_rules  # noqa: E402
from pyramid_env.engine.state import State  # noqa: E402
from pyramid_env.env import PyramidEnv  # noqa: E402
from pyramid_env.seeds import seed_set  # noqa: E402
from pyramid_env.solver import Verdict, solve  # noqa: E402


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


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("nets", nargs="+", type=Path, help="networks saved by train_expit.py")
    p.add_argument("--seeds", default="val[:100]")
    p.add_argument("--samples", type=int, default=16, help="the search's samples per decision")
    p.add_argument("--margins", nargs="+", type=float, default=[0.05, 0.1, 0.3])
    args = p.parse_args(argv)
    deals = list(seed_set(args.seeds))
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
        for n, game in zip(deals, games[rules.name, order], strict=True):
            obs, _ = env.reset(options={"deal": n})
            for action, value, q in zip(game["actions"], game["values"], game["q"], strict=True):
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
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


if __name__ == "__main__":
    main()

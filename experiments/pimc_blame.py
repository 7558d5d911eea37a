"""Where ``pimc`` loses a deal the solver wins: the decision whose move turned it lost.

    python -m experiments.pimc_blame two-pass "val[:150]" [--samples 32 --budget 30000 --delay]

Plays ``pimc``'s search (by default its own settings: orders a decision and positions a
verdict) on each deal the solver wins, under a pass limit, and asks the
solver, after every move, whether the real deal is still winnable (reading the real deal is
this script's, never the agent's). At the first move that loses it, prints the deal, the kind
of decision (``tie_full``: several moves, the one played among them, kept every winnable
sample; ``tie_part``: tied below that; ``single_full`` / ``single_part``: one move best;
``allsamples_lost``: no sample winnable; ``forced``, ``seen``: no search) and each searched
move's count, as move ids (``pyramid_env.engine.moves.MOVES`` names them). It tells which
decisions a change to the search should look at: issue 32's ``delay`` came from the
``tie_full`` ones; ``--delay`` blames the search with it (``PimcAgent(delay=True)``).
"""

from __future__ import annotations

import argparse
import collections

import numpy as np

from pyramid_env import deal, get_rules
from pyramid_env.agents import PimcAgent, Turn
from pyramid_env.agents.honest import SearchResult, _king, all_seen, delayed, search
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.state import STOCK_SIZE, State, apply, face_up, legal_ids
from pyramid_env.seeds import seed_set
from pyramid_env.solver import winning_line


def kind_of(r: SearchResult) -> str:
    """The kind of a searched decision (the module docstring names them)."""
    best = r.best()
    if r.winnable == 0:
        return "allsamples_lost"
    if len(best) > 1:
        return "tie_full" if r.wins[best[0]] == r.winnable else "tie_part"
    return "single_full" if r.wins[best[0]] == r.winnable else "single_part"


def main(argv: list[str] | None = None) -> collections.Counter:
    """Print the decision that lost each deal ``pimc`` loses; return the counts by kind."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("rules", help="a preset with a pass limit")
    p.add_argument("seeds", help='a seed spec, as "val[:150]"')
    p.add_argument("--samples", type=int, default=PimcAgent().samples, help="orders a decision")
    p.add_argument("--budget", type=int, default=PimcAgent().budget, help="positions a verdict")
    p.add_argument("--delay", action="store_true", help="the draw before pyramid-only pairs")
    args = p.parse_args(argv)
    rules = get_rules(args.rules)
    if rules.passes is None:  # pimc plays scout's strategy there, not this search
        p.error(f"rules={args.rules!r}: unlimited passes, where pimc plays scout's strategy and "
                "not the search this script blames; give a preset with a pass limit")  # fmt: skip
    for name in ("samples", "budget"):
        if getattr(args, name) < 1:
            p.error(f"--{name} {getattr(args, name)}: must be at least 1")
    agent = PimcAgent(samples=args.samples, budget=args.budget, delay=args.delay)
    stats: collections.Counter = collections.Counter()
    for n in seed_set(args.seeds):
        s = State(deal(n), rules)
        seen, rng = face_up(s), np.random.default_rng(n)
        if winning_line(s) is None:
            continue
        stats["solver_won"] += 1
        while legal_ids(s):
            known = seen & s.left
            turn = Turn(s, legal_ids(s), known)
            kind, info = "seen", ""
            if not all_seen(s, known):
                prefs = agent.greedy.preferences(turn)
                if len(prefs) == 1 or _king(prefs[0]):
                    kind, a = "forced", prefs[0]
                else:  # pimc's search, with every tie counted (the same move chosen)
                    prefs = delayed(prefs) if args.delay else prefs
                    r = search(s, known, prefs, agent.samples, agent.budget, rng, ties=True)
                    a, kind = r.action, kind_of(r)
                    wins = {MOVES[k].kind.name + str(k): v for k, v in r.wins.items()}
                    info = f"n={r.winnable} wins={wins}"
            else:
                a = agent.act(turn, rng)
            if winning_line(s.child(MOVES[a])) is None:
                stats[kind] += 1
                hidden = bin((s.left & ~known) & ((1 << STOCK_SIZE) - 1)).count("1")
                print(n, kind, MOVES[a].kind.name, "unseen", hidden, info, flush=True)
                break
            apply(s, MOVES[a])
            seen |= face_up(s)
        else:
            stats["won"] += 1
    print(stats)
    return stats


if __name__ == "__main__":
    main()

"""Where ``pimc`` loses a deal the solver wins: the decision whose move turned it lost.

    python -m experiments.pimc_blame two-pass "val[:150]"

Plays ``pimc`` (its defaults, 32 orders a decision) on each deal the solver wins and asks the
solver, after every move, whether the real deal is still winnable (reading the real deal is
this script's, never the agent's). At the first move that loses it, prints the deal, the kind
of decision (``tie_full``: several moves, the one played among them, kept every winnable
sample; ``tie_part``: tied below that; ``single_full`` / ``single_part``: one move best;
``allsamples_lost``: no sample winnable; ``forced``, ``seen``: no search) and each searched
move's count, as move ids (``pyramid_env.engine.moves.MOVES`` names them). It tells which
decisions a change to the search should look at: issue 32's ``delay`` came from the
``tie_full`` ones.
"""

from __future__ import annotations

import collections
import sys

import numpy as np

from pyramid_env import deal
from pyramid_env.agents import PimcAgent, Turn
from pyramid_env.agents.honest import SearchResult, _king, all_seen, search
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


def main(rules: str, seeds: str) -> None:
    agent = PimcAgent()
    stats: collections.Counter = collections.Counter()
    for n in seed_set(seeds):
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
                    r = search(s, known, prefs, 32, 30000, rng, ties=True)
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


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

"""Where a network alone loses: its first move after which the deal cannot be won, per deal.

    python -m experiments.cards_mistakes results/cards/msc/cards_1000000_s0/net.npz \
        --rules msc --seeds "val[:150]" --out results/cards/msc/mistakes.json

The network plays each deal the solver can win, as the benchmark plays it (the ``counts``
observation, its stored way of playing); after each of its moves the solver says whether the
deal can still be won. At the first move that loses it, the record keeps the move's kind
(a King, two pyramid cards, or a stock or waste card with another), how many legal moves there
were and how many of them kept the deal winnable, how many stock cards were still unseen, and
whether ``greedy-careful``'s first choice there was a winning move (the rule a network should
beat), and the policy head's chance of the move made and of the winning moves (a sampling
player's mistake may be an unlikely draw, or a confident error). The solver reads the true
deal: this is an analysis, never an agent's input. Where the solver's budget runs out the
verdict is unknown, and the deal is counted as undecided (at the start, or from that move on)
rather than as won or lost.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents import Turn
from pyramid_env.agents.baselines import CarefulAgent
from pyramid_env.agents.cardnet import CardNet, CardNetAgent
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES, MoveKind
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.engine.state import State, is_won
from pyramid_env.env import PyramidEnv
from pyramid_env.seeds import seed_set
from pyramid_env.solver import solve

BUDGET = 300_000


def _verdict(s: State) -> bool | None:
    """Whether ``s`` can be won: True, False, or None where the budget ran out."""
    if is_won(s):
        return True
    return solve(s, budget=BUDGET, check=False).won


def kind(action: int) -> str:
    """``king``, ``pyramid pair`` or ``stock pair`` (a pair using the waste or drawn card)."""
    move = MOVES[action]
    if move.kind is MoveKind.KING:
        return "king"
    if move.kind is MoveKind.PAIR:
        return "pyramid pair" if all(p < SLOTS for p in move.places) else "stock pair"
    return "draw or recycle"


def first_mistake(net: CardNet, rules: Rules, deal: int) -> dict[str, Any] | None:
    """The network's game on ``deal`` (winnable): its first losing move, or None if it won.

    A move after which the verdict is unknown leaves the game undecided until a later move's
    verdict is known: a loss found then is recorded as ``kind`` ``"undecided"``, since the
    losing move may be any move since the last position known to be winnable.
    """
    env = PyramidEnv(rules, obs_mode="counts")  # as the benchmark plays it, and its rng
    obs, _ = env.reset(options={"deal": deal})
    careful, agent, rng = CarefulAgent(), CardNetAgent(net), np.random.default_rng([0, deal])
    since = None  # the first move after which the verdict is unknown, while it stays unknown
    for step in range(1000):
        legal = env.legal_actions()
        if not legal or is_won(env.state):
            return None
        action = agent.act(Turn(env.state, legal, env.known_stock(), obs), rng)
        s = env.state
        after = _verdict(s.child(MOVES[action]))
        if after is None:
            since = step if since is None else since
        elif after:
            since = None
        elif since is not None:
            return {"deal": deal, "step": step, "kind": "undecided", "since": since}
        else:
            verdicts = {a: _verdict(s.child(MOVES[a])) for a in legal}
            good = [a for a, v in verdicts.items() if v]
            known = env.known_stock()
            rule = careful.preferences(Turn(s, legal, known))[0]
            logit = net.forward(obs[None])[0, 0, legal]  # the policy head over the legal moves
            prob = np.exp(logit - logit.max())
            pol = dict(zip(legal, prob / prob.sum(), strict=True))
            return {
                "deal": deal, "step": step, "kind": kind(action), "legal": len(legal),
                "winning": len(good), "undecided": sum(v is None for v in verdicts.values()),
                "unseen": (s.left & ~known).bit_count(),
                "recycles": s.recycles, "careful_right": rule in good,
                "policy_move": round(float(pol[action]), 4),
                "policy_winning": round(float(sum(pol[a] for a in good)), 4),
            }  # fmt: skip
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return None if is_won(env.state) else {"deal": deal, "step": step, "kind": "ran out"}
    return None


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("net", type=Path)
    p.add_argument("--rules", default="msc")
    p.add_argument("--seeds", default="val[:150]")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    rules, net = get_rules(args.rules), CardNet.load(args.net)
    deals = seed_set(args.seeds)
    verdicts = {n: _verdict(State(n, rules)) for n in deals}
    winnable = [n for n in deals if verdicts[n]]
    mistakes = [m for n in winnable if (m := first_mistake(net, rules, n)) is not None]
    with_unseen = [m for m in mistakes if m.get("unseen", 0) > 0]
    result = {
        "net": str(args.net), "rules": rules.name, "seeds": args.seeds, "deals": len(deals),
        "winnable": len(winnable), "unwinnable": sum(v is False for v in verdicts.values()),
        "undecided": [n for n in deals if verdicts[n] is None], "lost": len(mistakes),
        "by_kind": dict(Counter(m["kind"] for m in mistakes)),
        "with_unseen_cards": len(with_unseen),
        "careful_right": sum(bool(m.get("careful_right")) for m in mistakes),
        "mistakes": mistakes,
    }  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    print({k: v for k, v in result.items() if k != "mistakes"})
    return result


if __name__ == "__main__":
    main()

"""Honest by construction: an agent not declared clairvoyant is shown worlds, never the deal.

Evaluation hands such an agent a :class:`PlayerView`'s turns, whose state has the unseen stock
cards dealt at random. Honest agents play the very same games as when shown the real deal; an
agent that reads the stock order wins the solver's share only when declared clairvoyant.
"""

import numpy as np
import pytest

from pyramid_env import deal, evaluate
from pyramid_env.agents import PimcAgent, Turn, make_agent
from pyramid_env.agents.base import PlayerView, is_clairvoyant, unseen
from pyramid_env.agents.oracle import SolverAgent
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.state import State, apply, face_up, legal_ids
from pyramid_env.seeds import labels, seed_set


class Declared:
    """``agent`` declared clairvoyant: evaluation shows it the real deal (as it did before)."""

    clairvoyant = True

    def __init__(self, agent):
        self.agent, self.name = agent, agent.name
        self.env_kwargs = getattr(agent, "env_kwargs", {})

    def act(self, turn, rng):
        return self.agent.act(turn, rng)


class Cheat:
    """Plays the solver's line from ``turn.state``, stock order and all, declared or not."""

    name = "cheat"

    def __init__(self, declared: bool):
        self.clairvoyant = declared
        self.solver = SolverAgent()

    def act(self, turn, rng):
        return self.solver.act(turn, rng)


def games(report):
    return [r.moves for _, r in sorted(report.replays.items())]


@pytest.mark.parametrize("rules", ["msc", "two-pass"])
@pytest.mark.parametrize(
    "make",
    [
        lambda: make_agent("greedy"),
        lambda: make_agent("greedy-careful"),
        lambda: make_agent("random-removal"),  # draws from its rng: the view must not
        lambda: make_agent("scout"),
        lambda: PimcAgent(samples=3, budget=3_000),
        lambda: PimcAgent(samples=3, budget=3_000, order="greedy-careful", exact=True, extra=3),
        lambda: make_agent("ppo-msc"),  # a policy: reads the observation
        lambda: make_agent("expit-msc"),  # a network within greedy's ranking
    ],
    ids=[
        "greedy",
        "greedy-careful",
        "random-removal",
        "scout",
        "pimc",
        "pimc-settings",
        "ppo-msc",
        "expit-msc",
    ],
)
def test_honest_agents_play_the_same_games_shown_worlds_as_shown_the_deal(make, rules):
    seeds = "val[:6]" if rules == "msc" else "val[6:12]"
    shown_worlds = evaluate(make(), rules, seeds, replays=True)
    shown_deal = evaluate(Declared(make()), rules, seeds, replays=True)
    assert shown_worlds.observe_stock == "seen" and shown_deal.observe_stock == "clairvoyant"
    assert shown_worlds.episodes == shown_deal.episodes
    assert games(shown_worlds) == games(shown_deal)  # move for move


def test_an_agent_reading_the_stock_order_wins_the_solvers_share_only_if_declared():
    # Twenty deals the solver wins under two-pass, where the order decides most games.
    winnable = [n for n in seed_set("test") if labels("two-pass")[n].won][:20]
    declared = evaluate(Cheat(declared=True), "two-pass", winnable).summary()
    report = evaluate(Cheat(declared=False), "two-pass", winnable)
    undeclared = report.summary()
    assert declared["observe_stock"] == "clairvoyant" and undeclared["observe_stock"] == "seen"
    assert declared["solver_normalised"] == 1.0  # the solver's line, read from the real deal
    assert undeclared["solver_normalised"] <= 0.7  # the line of a world: a guess
    # The worlds it was shown do not depend on the processes or the order of the deals.
    again = evaluate(Cheat(declared=False), "two-pass", winnable[:8][::-1], workers=2)
    assert again.episodes[::-1] == report.episodes[:8]


def positions(rules: str, deals: range, steps: int = 80):
    """(position, known stock) along greedy's games, as the env would have them."""
    greedy = make_agent("greedy")
    for n in deals:
        s = State(deal(n), rules)
        seen = face_up(s)
        for _ in range(steps):
            if not (legal := legal_ids(s)):
                break
            yield s.copy(), seen & s.left
            apply(s, MOVES[greedy.act(Turn(s, legal, seen & s.left), None)])
            seen |= face_up(s)


@pytest.mark.parametrize("rules", ["msc", "one-pass", "two-card", "relaxed"])
def test_a_world_keeps_all_a_player_sees_and_deals_the_rest_at_random(rules):
    view, moved = PlayerView(make_agent("greedy"), (0, 1)), 0
    for s, known in positions(rules, range(4)):
        world = view.world(s, known)
        places, cards = unseen(s, known)
        assert world.fields() == s.fields() and world.rules == s.rules
        assert legal_ids(world) == legal_ids(s)
        assert world.deal.pyramid == s.deal.pyramid
        for i in range(24):
            if i not in places:  # seen, or gone: as it was
                assert world.deal.stock[i] == s.deal.stock[i]
        assert sorted(world.deal.cards[SLOTS + i] for i in places) == cards
        if not places:
            assert world is s  # nothing hidden: the real position, nothing drawn
        else:
            assert world.deal.number is None  # a world does not name the deal
            moved += world.deal.cards != s.deal.cards
    assert moved > 20


def test_a_world_depends_on_the_key_and_the_position_only():
    """So a deal's episode does not depend on the worker, the order or the turns before."""
    agent = make_agent("greedy")
    seen = list(positions("msc", range(2), steps=30))
    forward = [PlayerView(agent, (3, 7)).world(s, k) for s, k in seen]
    view = PlayerView(agent, (3, 7))
    backward = [view.world(s, k) for s, k in reversed(seen)][::-1]
    assert [w.deal.cards for w in forward] == [w.deal.cards for w in backward]
    other = [PlayerView(agent, (4, 7)).world(s, k) for s, k in seen]
    assert [w.deal.cards for w in other] != [w.deal.cards for w in forward]


def test_only_an_agent_declared_clairvoyant_is_shown_the_deal():
    assert is_clairvoyant(make_agent("solver")) and not is_clairvoyant(make_agent("pimc"))
    s, known = next(iter(positions("msc", range(1))))
    assert PlayerView(make_agent("solver"), (0, 0)).turn(s, legal_ids(s), known).state is s
    turn = PlayerView(make_agent("greedy"), (0, 0)).turn(s, legal_ids(s), known, "obs")
    assert turn.state is not s and turn.known == known and turn.obs == "obs"
    assert turn.legal == legal_ids(s)


def test_the_view_leaves_the_agents_own_generator_alone():
    s, known = next(iter(positions("one-pass", range(1))))
    rng, fresh = np.random.default_rng([0, 5]), np.random.default_rng([0, 5])
    PlayerView(make_agent("greedy"), (0, 5)).world(s, known)
    assert rng.random() == fresh.random()

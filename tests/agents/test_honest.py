"""Honest search agents: they never read an unseen card, and scout reaches the solver where the
rules let a player learn the whole stock for free."""

import copy

import numpy as np
import pytest

from pyramid_env import deal, evaluate
from pyramid_env.agents import PimcAgent, ScoutAgent, Turn, make_agent
from pyramid_env.agents.honest import determinize, unseen
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.state import State, apply, face_up, legal_ids
from pyramid_env.seeds import labels


def honest_turn(s: State, seen: int) -> Turn:
    return Turn(s, legal_ids(s), seen & s.left)


def assert_blind_to_unseen_order(
    agent, rules: str, deals, steps: int = 60, shuffles: int = 2
) -> None:
    """Along a game, a copy of the agent shown the same position with its unseen stock cards
    shuffled (and the same random generator) must choose the same move: a move that depended
    on where an unseen card lies would differ for some shuffle."""
    shuffler = np.random.default_rng(0)
    checked = 0
    for n in deals:
        s = State(deal(n), rules)
        seen = face_up(s)
        for step in range(steps):
            if not legal_ids(s):
                break
            places, cards = unseen(s, seen & s.left)
            twins = [copy.deepcopy(agent) for _ in range(shuffles if places else 0)]
            action = agent.act(honest_turn(s, seen), np.random.default_rng([n, step]))
            for twin in twins:
                other = determinize(s, places, cards, shuffler)
                again = twin.act(honest_turn(other, seen), np.random.default_rng([n, step]))
                assert again == action, (agent.name, rules, n, step)
                checked += other.deal.cards != s.deal.cards
            apply(s, MOVES[action])
            seen |= face_up(s)
    assert checked > 20


@pytest.mark.parametrize("rules", ["msc", "two-pass", "one-pass", "two-card"])
def test_scout_and_pimc_never_read_an_unseen_card(rules):
    assert_blind_to_unseen_order(ScoutAgent(), rules, range(3))
    pimc = PimcAgent(samples=3, budget=3_000)
    assert_blind_to_unseen_order(pimc, rules, range(2), steps=40, shuffles=1)
    consistent = PimcAgent(samples=3, budget=3_000, consistent=True)
    assert_blind_to_unseen_order(consistent, rules, range(1), steps=40, shuffles=1)


def test_unseen_is_the_complement_of_what_a_player_saw():
    s = State(deal(4), "msc")
    places, cards = unseen(s, face_up(s))
    assert places == list(range(1, 24))  # the face-up stock top is seen
    assert sorted(cards) == sorted(deal(4).cards[29:])
    world = determinize(s, places, cards, np.random.default_rng(1))
    assert world.deal.cards[:29] == deal(4).cards[:29] and world.fields() == s.fields()
    assert sorted(world.deal.cards) == list(range(52))


def scout_wins_what_the_solver_wins(rules: str, deals: int) -> None:
    report = evaluate("scout", rules=rules, seeds=f"test[:{deals}]")  # labelled deals
    chosen = {e.deal for e in report.episodes}
    winnable = {n for n, label in labels(rules).items() if label.won and n in chosen}
    assert winnable and winnable != chosen  # both kinds of deal are among them
    assert {e.deal for e in report.episodes if e.won} == winnable


@pytest.mark.parametrize("rules", ["relaxed", "unlimited"])
def test_scout_wins_every_deal_the_solver_wins_under_unlimited_passes(rules):
    scout_wins_what_the_solver_wins(rules, 400)


# All 2,000 labelled test deals (about a minute a rule set): the same claim on every deal.
@pytest.mark.slow
@pytest.mark.parametrize("rules", ["relaxed", "unlimited"])
def test_scout_wins_every_test_deal_the_solver_wins(rules):
    scout_wins_what_the_solver_wins(rules, 2000)


def test_pimc_beats_greedy_where_the_order_matters_and_is_reproducible():
    pimc = evaluate(PimcAgent(), rules="msc", seeds="val[:30]")
    greedy = evaluate("greedy", rules="msc", seeds="val[:30]")
    assert pimc.summary()["wins"] > greedy.summary()["wins"] + 2
    again = evaluate(make_agent("pimc"), rules="msc", seeds="val[:6]", workers=2)
    assert again.episodes == pimc.episodes[:6]


def test_the_blindness_check_catches_an_agent_that_peeks():
    with pytest.raises(AssertionError):
        assert_blind_to_unseen_order(make_agent("solver"), "msc", range(1, 7))

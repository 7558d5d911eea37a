"""Honest search agents: they never read an unseen card, and scout reaches the solver where the
rules let a player learn the whole stock for free."""

import copy

import numpy as np
import pytest

from pyramid_env import deal, evaluate
from pyramid_env.agents import PimcAgent, ScoutAgent, Turn, honest, make_agent
from pyramid_env.agents.honest import carry, determinize, orders, unseen
from pyramid_env.engine.moves import MOVES, MoveKind
from pyramid_env.engine.rules import get_rules
from pyramid_env.engine.state import State, apply, face_up, legal_ids
from pyramid_env.seeds import labels
from pyramid_env.solver import winning_line


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


@pytest.mark.parametrize("rules", ["msc", "two-pass", "one-pass", "two-card", "relaxed"])
def test_scout_and_pimc_never_read_an_unseen_card(rules):
    assert_blind_to_unseen_order(ScoutAgent(), rules, range(3))
    pimc = PimcAgent(samples=3, budget=3_000)  # under relaxed: scout's strategy
    assert_blind_to_unseen_order(pimc, rules, range(2), steps=40, shuffles=1)
    if rules == "relaxed":
        pimc = PimcAgent(samples=3, budget=3_000, free_scout=False)  # the search itself
        assert_blind_to_unseen_order(pimc, rules, range(1), steps=40, shuffles=1)
        return
    consistent = PimcAgent(samples=3, budget=3_000, consistent=True)
    assert_blind_to_unseen_order(consistent, rules, range(1), steps=40, shuffles=1)
    # Exact orders of few unseen cards, greedy-careful's move order, hard decisions asked again.
    plus = PimcAgent(samples=6, budget=3_000, order="greedy-careful", exact=True, extra=4)
    assert_blind_to_unseen_order(plus, rules, range(1, 3), steps=60, shuffles=1)
    # Worlds and their lines kept from one decision to the next (each twin is a copy of them).
    kept = PimcAgent(samples=6, budget=3_000, exact=True, extra=4, keep=True)
    assert_blind_to_unseen_order(kept, rules, range(1, 3), steps=60, shuffles=1)
    # The draw tried before removals of pyramid cards alone.
    waits = PimcAgent(samples=6, budget=3_000, delay=True)
    assert_blind_to_unseen_order(waits, rules, range(3, 5), steps=60, shuffles=1)
    # A smaller budget for the verdicts before the move.
    screened = PimcAgent(samples=6, budget=3_000, delay=True, screen=500)
    assert_blind_to_unseen_order(screened, rules, range(3, 4), steps=60, shuffles=1)
    # More orders drawn where few are winnable.
    drawing = PimcAgent(samples=4, budget=3_000, live=6)
    assert_blind_to_unseen_order(drawing, rules, range(4, 5), steps=60, shuffles=1)
    # Ties broken by the samples still won with a pass fewer.
    slack = PimcAgent(samples=4, budget=3_000, slack=True)
    assert_blind_to_unseen_order(slack, rules, range(5, 6), steps=60, shuffles=1)
    # The draw first, and a pyramid pair over it only by a margin of samples.
    margin = PimcAgent(samples=6, budget=3_000, delay=True, margin=1)
    assert_blind_to_unseen_order(margin, rules, range(6, 7), steps=60, shuffles=1)


@pytest.mark.parametrize("rules", ["relaxed", "unlimited"])
def test_pimc_plays_scouts_games_where_passes_are_unlimited(rules):
    pimc = evaluate("pimc", rules=rules, seeds="val[:12]", replays=True)
    scout = evaluate("scout", rules=rules, seeds="val[:12]", replays=True)
    assert [r.moves for _, r in sorted(pimc.replays.items())] == [
        r.moves for _, r in sorted(scout.replays.items())
    ]
    searched = evaluate(PimcAgent(free_scout=False), rules=rules, seeds="val[:12]", replays=True)
    assert searched.replays != pimc.replays  # the search itself plays other games


@pytest.mark.parametrize("rules", ["two-pass", "one-pass", "msc"])
def test_a_pyramid_pair_delayed_past_the_draw_reaches_the_same_position(rules):
    """The premise of ``delay``: pair then draw, or draw then pair, one position; and only the
    draw moves, ahead of such pairs, never ahead of a removal that uses the waste or stock."""
    checked = 0
    for n in range(12):
        s, rng, greedy = State(deal(n), rules), np.random.default_rng(n), make_agent("greedy")
        while legal_ids(s):
            legal = legal_ids(s)
            turn = [a for a in legal if MOVES[a].kind in (MoveKind.DRAW, MoveKind.RECYCLE)]
            pairs = [a for a in legal if MOVES[a].kind is MoveKind.PAIR and MOVES[a].b < 28]
            for pair in pairs[:1] if turn else []:
                one = s.child(MOVES[pair]).child(MOVES[turn[0]])
                two = s.child(MOVES[turn[0]]).child(MOVES[pair])
                assert (one.deal.cards, one.fields()) == (two.deal.cards, two.fields())
                checked += 1
            prefs = greedy.preferences(Turn(s, legal, s.left))
            waited = honest.delayed(prefs)
            assert sorted(waited) == sorted(prefs)
            if turn and pairs and prefs.index(turn[0]) > prefs.index(pairs[0]):
                assert waited.index(turn[0]) < min(waited.index(a) for a in pairs)
            others = [a for a in prefs if a not in pairs and a not in turn]
            assert [a for a in waited if a in others] == others  # their order kept
            for a in others:  # a removal ahead of the draw stays ahead of it
                if turn and prefs.index(a) < prefs.index(turn[0]):
                    assert waited.index(a) < waited.index(turn[0])
            apply(s, MOVES[greedy.act(Turn(s, legal, s.left), rng)])
    assert checked > 10


def test_a_handicap_is_the_samples_a_move_must_win_beyond_the_others():
    """``search(handicap=...)``: the first candidate with the most samples won after it, less its
    handicap, against every candidate's count made here by asking the solver of each sample."""
    checked = changed = 0
    for n in range(6):
        s, rng, greedy = State(deal(n), "two-pass"), np.random.default_rng(n), make_agent("greedy")
        seen = face_up(s)
        for step in range(30):
            legal = legal_ids(s)
            if not legal or honest.all_seen(s, seen):
                break
            prefs = honest.delayed(greedy.preferences(Turn(s, legal, seen)))
            handicap = {a: 1 + (i + step) % 3 for i, a in enumerate(prefs[:2])}  # any moves
            found = honest.search(s, seen, prefs, 6, 3_000, np.random.default_rng(step),
                                  handicap=handicap)  # fmt: skip
            worlds = honest.orders(s, seen, 6, np.random.default_rng(step))
            live = [w for w in worlds if winning_line(w, budget=3_000) is not None]
            if live and len(prefs) > 1:
                count = {a: sum(winning_line(w.child(MOVES[a]), budget=3_000) is not None
                                for w in live) for a in prefs}  # fmt: skip
                net = [count[a] - handicap.get(a, 0) for a in prefs]
                assert found.action == prefs[net.index(max(net))]
                assert all(found.wins[a] == count[a] for a in found.complete)  # raw counts
                checked += bool(handicap)
                raw = [count[a] for a in prefs]
                changed += found.action != prefs[raw.index(max(raw))]
            apply(s, MOVES[greedy.act(Turn(s, legal, seen), rng)])
            seen |= face_up(s)
    assert checked > 10 and changed  # and the handicap turned some choices
    with pytest.raises(ValueError, match="margin=1"):
        PimcAgent(margin=1)  # without delay


def test_exact_orders_deal_each_order_of_few_unseen_cards_once():
    s, rng = State(deal(4), "msc"), np.random.default_rng(0)
    known = s.left & ~(7 << 21)  # all but the last three stock cards seen
    places, cards = unseen(s, known)
    assert places == [21, 22, 23]
    worlds = orders(s, known, 6, rng, exact=True)
    dealt = {tuple(w.deal.stock[i] for i in places) for w in worlds}
    assert len(worlds) == 6 and len(dealt) == 6 and all(sorted(d) == cards for d in dealt)
    assert rng.random() == np.random.default_rng(0).random()  # no sampling: rng untouched
    assert len(orders(s, known, 5, rng, exact=True)) == 5  # more orders than samples: sampled


def test_carry_deals_revealed_cards_into_place_and_keeps_the_rest_in_order():
    s = State(deal(4), "msc")
    before, cards = unseen(s, face_up(s))
    right = list(s.deal.stock)  # had the next card right
    wrong = right[:]
    wrong[1], wrong[5] = wrong[5], wrong[1]  # had it four places later
    apply(s, MOVES[0])  # draw: the next stock card turns face up
    places, now = unseen(s, face_up(s) & s.left)
    assert places == before[1:] and set(now) < set(cards)
    assert carry(right, s, places, now) == right
    moved = carry(wrong, s, places, now)
    assert moved[1] == s.deal.stock[1]  # the revealed card, where it is
    assert [moved[i] for i in places] == [c for c in wrong if c in now]  # the rest in order


def test_kept_worlds_spare_the_verdicts_of_decisions_that_reveal_nothing(monkeypatch):
    asked = []
    real = honest._winnable_samples

    def spy(worlds, budget):
        asked.append(len(worlds))
        return real(worlds, budget)

    monkeypatch.setattr(honest, "_winnable_samples", spy)
    searched = evaluate(PimcAgent(samples=8, keep=True), rules="two-pass", seeds="val[:4]")
    assert 0 in asked and sum(asked) < 8 * len(asked)  # some decisions asked no verdict
    monkeypatch.setattr(honest, "_winnable_samples", real)
    # Each game starts afresh: the same games in one process as in two.
    again = evaluate(PimcAgent(samples=8, keep=True), rules="two-pass", seeds="val[:4]", workers=2)
    assert again.episodes == searched.episodes
    # ... the same deal too (its pyramid as before): the agent's second game of it is a fresh
    # agent's, nothing kept from the end of its first
    agent = PimcAgent(samples=8, keep=True)
    first = evaluate(agent, rules="two-pass", seeds="val[1:2]").episodes
    assert evaluate(agent, rules="two-pass", seeds="val[1:2]").episodes == first


def test_the_screen_bounds_the_verdicts_before_the_move_and_no_other(monkeypatch):
    screens, moves = [], []
    real_samples, real_line = honest._winnable_samples, honest.winning_line

    def spy_samples(worlds, budget):
        screens.append(budget)
        return real_samples(worlds, budget)

    def spy_line(s, *, budget=None):
        moves.append(budget)
        return real_line(s, budget=budget)

    monkeypatch.setattr(honest, "_winnable_samples", spy_samples)
    monkeypatch.setattr(honest, "winning_line", spy_line)
    agent = PimcAgent(samples=6, budget=4_000, screen=700)
    screened = evaluate(agent, rules="two-pass", seeds="val[:3]").episodes
    assert screens and set(screens) == {700}
    assert set(moves) == {700, 4_000, None}  # the samples', the moves', the known endgame's
    monkeypatch.setattr(honest, "_winnable_samples", real_samples)
    monkeypatch.setattr(honest, "winning_line", real_line)
    # No screen is a screen of the whole budget.
    alike = [PimcAgent(samples=6, budget=4_000, screen=s) for s in (None, 4_000)]
    games = [evaluate(a, rules="two-pass", seeds="val[:3]").episodes for a in alike]
    assert games[0] == games[1] != screened
    # A screen of one position leaves every sample out: nothing is winnable, the first
    # candidate is played, as on a position lost in every sample.
    s = State(deal(2002), "two-pass")  # a val deal: 5 of 6 samples winnable
    known, prefs = face_up(s), legal_ids(s)[::-1]
    found = honest.search(s, known, prefs, 6, 4_000, np.random.default_rng(0))
    assert found.winnable > 0
    blind = honest.search(s, known, prefs, 6, 4_000, np.random.default_rng(0), screen=1)
    assert (blind.winnable, blind.action, blind.solves) == (0, prefs[0], 6)


def test_live_draws_more_orders_until_enough_are_winnable():
    s = State(deal(2002), "two-pass")  # a val deal: 5 of 6 samples winnable
    known, prefs = face_up(s), legal_ids(s)[::-1]
    rng = np.random.default_rng(0)
    plain = honest.search(s, known, prefs, 6, 4_000, np.random.default_rng(0))
    found = honest.search(s, known, prefs, 6, 4_000, np.random.default_rng(0), live=20)
    assert found.samples % 6 == 0 and found.samples > plain.samples
    assert found.winnable >= 20 or found.samples == honest.MORE * 6
    fewer = honest.search(s, known, prefs, 6, 4_000, np.random.default_rng(0), live=5)
    assert (fewer.samples, fewer.winnable, fewer.action) == (6, 5, plain.action)
    # Where no sample is winnable, no more are drawn: the position is taken as lost.
    blind = honest.search(s, known, prefs, 6, 4_000, rng, screen=1, live=20)
    assert (blind.samples, blind.winnable) == (6, 0)
    with pytest.raises(ValueError, match="live=4"):
        PimcAgent(live=4, keep=True)
    with pytest.raises(ValueError, match="live=-1"):
        PimcAgent(live=-1)
    with pytest.raises(ValueError, match="screen=0"):
        PimcAgent(screen=0)


def test_slack_breaks_ties_by_the_samples_still_won_with_a_pass_fewer():
    fewer = get_rules("three-pass").replace(passes=2)
    checked = 0
    for n in range(2000, 2004):  # val deals, along the slack search's own games
        s = State(deal(n), "three-pass")
        seen = face_up(s)
        for step in range(40):
            if not legal_ids(s):
                break
            known, prefs = seen & s.left, legal_ids(s)[::-1]
            rng = [np.random.default_rng([n, step]) for _ in range(3)]
            worlds = orders(s, known, 8, rng[2])
            tied = honest.search(s, known, prefs, 8, 4_000, rng[0], ties=True)
            found = honest.search(s, known, prefs, 8, 4_000, rng[1], slack=True)
            assert found.wins == tied.wins and (found.action in tied.best() or not tied.winnable)
            # The margin counted afresh: each winnable sample after the move, under two passes.
            margin = {}
            for a in tied.best():
                wins = 0
                for w in worlds:
                    if winning_line(w, budget=4_000) is None:
                        continue
                    child, other = w.child(MOVES[a]), State(w.deal, fewer)
                    other.pyr, other.left, other.ptr, other.drawn, other.recycles = child.fields()
                    if child.recycles_left:  # else no recycle to spare
                        wins += winning_line(other, budget=4_000) is not None
                margin[a] = wins
            if len(set(margin.values())) > 1:  # a tie the margin decides
                best = max(margin.values())
                assert found.action == next(a for a in tied.best() if margin[a] == best)
                checked += 1
            apply(s, MOVES[found.action])
            seen |= face_up(s)
    assert checked
    # On the last pass there is none to spare and no margin: the first of the tied moves, and
    # no verdict more than counting every tied move asks.
    s = State(deal(2001), "two-pass")  # a val deal: a sample won in one pass, four moves tied
    s.recycles = 1
    known, prefs = face_up(s), legal_ids(s)[::-1]
    plain = honest.search(s, known, prefs, 8, 4_000, np.random.default_rng(0), ties=True)
    same = honest.search(s, known, prefs, 8, 4_000, np.random.default_rng(0), slack=True)
    assert len(plain.best()) > 1 and same.action == plain.best()[0]
    assert same.solves == plain.solves
    with pytest.raises(ValueError, match="slack=True is for the plain search"):
        PimcAgent(slack=True, keep=True)


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

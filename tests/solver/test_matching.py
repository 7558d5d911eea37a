"""The tests without search that a deal is lost: no matching of partners, a cycle of removals.

``pair_matching`` must be a maximum matching (checked against every assignment); the matching
test must be stronger than the solver's count test; neither it nor the removal-cycle test may
ever call a winnable position lost (checked by the solver along random playouts of every rule
variant, and by the plain exhaustive search on small positions); and each must catch what the
weaker tests miss (a fixture each).
"""

import itertools
import random

import pytest

from pyramid_env.engine import dead_deal as D
from pyramid_env.engine import parse_board
from pyramid_env.engine.cards import TARGET
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.notation import parse_move
from pyramid_env.engine.state import State, apply, legal_ids
from pyramid_env.solver import Verdict, solve
from pyramid_env.solver.tables import DealTables
from tests.brute import brute_winnable, random_small_board
from tests.conftest import fixture_board


def brute_matching(pyr: int, r: int, tables: DealTables) -> int:
    """The most disjoint meeting pairs, by trying every assignment of r cards to partners."""
    a = [i for i in range(28) if pyr >> i & 1 and tables.prank[i] == r]
    b = [j for j in range(28) if pyr >> j & 1 and tables.prank[j] == TARGET - r]
    for k in range(len(a), 0, -1):
        for left in itertools.combinations(a, k):
            for right in itertools.permutations(b, k):
                if all(tables.need[i] >> j & 1 for i, j in zip(left, right, strict=True)):
                    return k
    return 0


def playout_positions(rules, deals: range, rng: random.Random, steps: int = 150):
    """The positions along one random playout of each deal (its first ``steps``)."""
    for n in deals:
        s = State(n, rules)
        for _ in range(steps):
            if not (legal := legal_ids(s)):
                break
            yield s.copy()
            apply(s, MOVES[rng.choice(legal)])


def counts_of(s: State, tables: DealTables) -> list[int]:
    return tables.stock_counts(tables.reachable(s))


def unmatched(s: State, tables: DealTables) -> bool:
    return tables.unmatched(s.pyr, counts_of(s, tables))


def cycle(s: State, tables: DealTables) -> bool:
    return tables.doomed(s.pyr, counts_of(s, tables)) and not unmatched(s, tables)


@pytest.mark.parametrize("covering", [False, True])
def test_pair_matching_is_a_maximum_matching(covering):
    rules = "relaxed" if covering else "msc"
    rng = random.Random(covering)
    checked = 0
    for s in playout_positions(rules, range(40), rng):
        tables = DealTables(s)
        for r in range(1, 7):
            got = D.pair_matching(s.pyr, r, tables.slots_of, tables.need)
            assert got == brute_matching(s.pyr, r, tables), (r, str(s))
            checked += got > 0
    assert checked > 100


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_the_tests_are_stronger_than_the_count_test_and_never_wrong(rules):
    """Wherever the solver's count test fails a class, so does the matching test; and every
    position either test calls lost, the solver (checked against brute force in
    test_solver.py) calls lost too."""
    rng = random.Random(rules.name)
    flagged = {"matching": 0, "cycle": 0}
    for s in playout_positions(rules, range(60), rng):
        tables = DealTables(s)
        counts = counts_of(s, tables)
        if tables.cannot_clear(s.pyr, counts):
            assert tables.unmatched(s.pyr, counts), str(s)
        kind = "matching" if unmatched(s, tables) else "cycle" if cycle(s, tables) else None
        if kind and flagged[kind] < 40:
            flagged[kind] += 1
            assert solve(s, check=False).status is Verdict.LOSS, f"{kind}\n{s}"
    assert flagged["matching"] > 0


def test_the_removal_cycle_test_finds_positions_the_matching_misses():
    flagged = 0
    for rules in ("msc", "relaxed", "two-pass", "three-pass"):
        for s in playout_positions(rules, range(40), random.Random(rules)):
            flagged += cycle(s, DealTables(s))
    assert flagged > 20


@pytest.mark.parametrize("rules", rule_variants()[::3], ids=lambda r: r.name)
def test_small_positions_either_test_calls_lost_are_lost_by_exhaustive_search(rules):
    rng = random.Random(rules.name)
    flagged = 0
    for _ in range(600):
        s = parse_board(random_small_board(rng, rules), rules)
        tables = DealTables(s)
        if tables.doomed(s.pyr, counts_of(s, tables)):
            flagged += 1
            assert brute_winnable(s) is False, str(s)
    assert flagged > 0


def test_a_stock_queen_spent_on_the_wrong_ace_fails_the_matching_test_only():
    s = fixture_board("msc_aces_queens.txt", "msc")
    tables = DealTables(s)
    assert not unmatched(s, tables) and solve(s, check=False).status is Verdict.WIN
    after = s.child(parse_move(s, "Ah+Qd"))
    counts = tables.stock_counts(tables.reachable(after))
    assert not tables.cannot_clear(after.pyr, counts)  # the counts add up ...
    assert tables.unmatched(after.pyr, counts)  # ... but Ac alone is left for Qc and Qh
    assert solve(after, check=False).status is Verdict.LOSS
    assert D.pair_matching(after.pyr, 1, tables.slots_of, tables.need) == 1


def test_spending_the_last_stock_5_closes_a_cycle_of_removals():
    s = fixture_board("msc_removal_cycle.txt", "msc")
    tables = DealTables(s)
    assert not tables.doomed(s.pyr, counts_of(s, tables))
    assert solve(s, check=False).status is Verdict.WIN
    after = s.child(parse_move(s, "8h+5h"))
    assert not unmatched(after, tables)  # every class still has a matching ...
    assert cycle(after, tables)  # ... but 8c, Ad, Qh and the 5s wait on each other
    assert solve(after, check=False).status is Verdict.LOSS

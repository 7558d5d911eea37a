"""000's dead-deal test and every preset's "lost" never call a winnable position lost.

Checked against the plain exhaustive search in ``tests/brute.py`` on thousands of small random
positions (few pyramid cards, short stocks), where that search is exact and fast.
"""

import random

import pytest

from pyramid_env.engine import Goal, Status, is_dead, parse_board, status
from pyramid_env.engine.invariants import rule_variants
from tests.brute import brute_winnable, random_small_board


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_lost_and_dead_are_never_winnable(rules):
    rng = random.Random(rules.name)
    seen = {"dead": 0, "lost": 0, "won": 0}
    for _ in range(1500):
        s = parse_board(random_small_board(rng, rules), rules)
        verdict = brute_winnable(s)
        assert verdict is not None
        if is_dead(s):
            seen["dead"] += 1
            assert not verdict, f"dead but winnable:\n{s}"
        if status(s) is Status.LOST:
            seen["lost"] += 1
            assert not verdict, f"lost but winnable:\n{s}"
        seen["won"] += verdict
    # The sample must exercise both sides, or the test proves nothing. (Under goal "all" a
    # random small board is rarely winnable: every stock card must go too.)
    assert seen["dead"] > 20 and seen["won"] > (3 if rules.goal is Goal.ALL else 20), seen

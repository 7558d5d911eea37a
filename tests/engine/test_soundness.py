"""000's dead-deal test and every preset's "lost" never call a winnable position lost.

Checked against the plain exhaustive search in ``tests/brute.py`` on thousands of small random
positions (few pyramid cards, short stocks), where that search is exact and fast.
"""

import random

import pytest

from pyramid_env.engine import PRESETS, Status, get_rules, is_dead, parse_board, status
from tests.brute import brute_winnable, random_small_board


@pytest.mark.parametrize("preset", [*PRESETS, "relaxed+all", "msc+draw3"])
def test_lost_and_dead_are_never_winnable(preset):
    name, _, knob = preset.partition("+")
    rules = get_rules(name, **({"goal": "all"} if knob == "all" else {}))
    if knob == "draw3":
        rules = rules.replace(draw_count=3)
    rng = random.Random(preset)
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
    assert seen["dead"] > 20 and seen["won"] > (3 if knob == "all" else 20), seen

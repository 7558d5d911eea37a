"""000's dead-deal test and every preset's "lost" never call a winnable position lost.

Checked against the plain exhaustive search in ``tests/brute.py`` on thousands of small random
positions (few pyramid cards, short stocks), where that search is exact and fast.
"""

import random

import pytest

from pyramid_env.engine import PRESETS, Status, get_rules, is_dead, parse_board, status
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.layout import ROWS, SHAPES
from tests.brute import brute_winnable

SMALL_SHAPES = sorted(m for m in SHAPES if m.bit_count() <= 6)


def random_small_board(rng: random.Random, rules) -> str:
    cards = rng.sample(range(52), 52)
    mask = rng.choice(SMALL_SHAPES)
    rows, k = [], 0
    for r in range(ROWS):
        row = []
        for _ in range(r + 1):
            row.append(CARD_NAMES[cards.pop()] if mask >> k & 1 else "..")
            k += 1
        rows.append("  ".join(row))
    stock = [CARD_NAMES[cards.pop()] for _ in range(rng.randint(0, 6))]
    waste = [CARD_NAMES[cards.pop()] for _ in range(rng.randint(0, 3))]
    lines = rows + ["stock: " + " ".join(stock), "waste: " + " ".join(waste)]
    if rules.stock_play == "drawn-and-waste" and rng.random() < 0.5:
        lines.append("drawn: " + CARD_NAMES[cards.pop()])
    if rules.recycles is not None:
        lines.append(f"recycles: {rng.randint(0, rules.recycles)}")
    return "\n".join(lines)


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

"""Verdicts respect the order of rule sets: a rule set that only adds options wins more deals.

Each check compares the solver with itself across presets on the same deals, so a search bug
that loses wins (or invents them) in one rule set tends to show up as a broken implication.
"""

import pytest

from pyramid_env.solver import Verdict, solve


def wins(rules: str, deals: range) -> set[int]:
    return {n for n in deals if solve(n, rules).status is Verdict.WIN}


@pytest.mark.parametrize(
    ("more", "fewer", "deals"),
    [
        ("relaxed", "unlimited", range(300)),  # + covering pair (a start waste card is moot)
        ("relaxed", "one-pass", range(60)),  # + unlimited passes
        ("msc", "three-pass", range(100)),  # + the face-up stock top
        ("unlimited", "three-pass", range(100)),  # + unlimited passes
    ],
)
def test_more_options_never_lose_a_win(more, fewer, deals):
    lost = wins(fewer, deals) - wins(more, deals)
    assert not lost, f"won under {fewer} but not under {more}: {sorted(lost)}"


def test_two_card_and_msc_agree_deal_by_deal():
    # 001's drawn card plays exactly like msc's face-up stock top, one draw later.
    assert wins("two-card", range(300)) == wins("msc", range(300))

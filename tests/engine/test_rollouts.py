"""Random playouts on every preset and knob (pyramid_env.engine.invariants.check_rollout).

Per game: every legal move applies and undoes exactly, the move table splits into legal moves
and moves refused with a reason exactly as the generator says, the 52 cards are conserved, undo
retraces every position back to the start, and save/load replays to the same game.
"""

import pytest

from pyramid_env.engine.invariants import check_rollout, rule_variants


def playouts(rules, games: int) -> None:
    ended = 0
    for deal in range(games):
        game = check_rollout(deal, rules, seed=deal, max_steps=250, full_table_every=10)
        ended += game.status.value != "playing"
    if rules.passes is not None:
        assert ended > games // 2  # limited passes: random play mostly runs out of moves


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_random_playouts(rules):
    playouts(rules, games=40)


# The same checks on 150 games a variant (about 4 minutes on 2 cores): more positions, the
# same invariants; the default run's 40 games and test_move_generator's random positions of
# every variant already hold the fast path to why_illegal.
@pytest.mark.slow
@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_random_playouts_many_games(rules):
    playouts(rules, games=150)


def test_the_old_module_name_still_imports_with_a_deprecation_warning():
    import importlib
    import sys

    from pyramid_env.fault_injection import squares_crashing_once

    sys.modules.pop("pyramid_env.testing", None)
    with pytest.warns(DeprecationWarning, match=r"pyramid_env\.engine\.invariants"):
        old = importlib.import_module("pyramid_env.testing")
    assert old.rule_variants is rule_variants and old.check_rollout is check_rollout
    assert old.squares_crashing_once is squares_crashing_once

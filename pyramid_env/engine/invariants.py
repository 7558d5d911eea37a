"""The engine's invariants, checked by random rollouts (shipped: users' own variants too).

:func:`check_rollout` plays random legal moves and, after every one, checks what must always
hold: the 52 cards are conserved, the legal moves equal what :func:`why_illegal` allows (over the
whole move table, or a random sample of it), every legal move applies and undoes exactly, and at
the end undoing back to the opening retraces every position and a save/load replays to the same
game. It raises ``AssertionError`` naming the step and the position.
"""

from __future__ import annotations

import json
import random

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import DealLike
from pyramid_env.engine.game import Game
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.notation import format_board, format_move, parse_board, parse_move
from pyramid_env.engine.rules import PRESETS, Rules, get_rules

KNOB_VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    ("relaxed", {"goal": "all"}),
    ("relaxed", {"draw_count": 3}),
    ("one-pass", {"draw_count": 3}),
    ("one-pass", {"goal": "all"}),
    ("two-card", {"passes": 1, "draw_count": 3}),
    ("two-card", {"goal": "all"}),
    ("unlimited", {"draw_count": 3}),
    ("unlimited", {"covering_pair": True}),
    ("two-pass", {"covering_pair": True, "dead_deal_ends_game": True}),
    ("msc", {"goal": "all"}),
    ("msc", {"draw_count": 3}),
    ("msc", {"passes": 1}),
)
"""Presets with knobs changed: together with the presets, every stock-play mode meets every
other knob (draw three, goal "all", covering pairs, pass limits, the dead-deal ending)."""


def rule_variants() -> list[Rules]:
    """Every preset, then every :data:`KNOB_VARIANTS` entry: the one list cross-checks run on.

    The engine's fast path against :func:`~pyramid_env.engine.checked.why_illegal`, the vector
    env's array rules against the engine, the compiled solver against the pure-Python one and
    the solver against brute force all iterate over it, so a new knob or mode added here is
    checked by every backend at once.
    """
    return [*PRESETS.values(), *(get_rules(name, **knobs) for name, knobs in KNOB_VARIANTS)]


def check_conservation(s: st.State) -> None:
    """Every card is in exactly one place: pyramid, stock, waste, drawn spot, or removed."""
    pyramid = [s.deal.cards[i] for i in range(SLOTS) if s.pyr >> i & 1]
    drawn = [s.drawn_card] if s.drawn else []
    live = pyramid + s.stock_cards + s.waste_cards + drawn
    removed = [s.deal.cards[i] for i in range(SLOTS) if not s.pyr >> i & 1]
    removed += [s.deal.cards[SLOTS + i] for i in range(24) if not s.left >> i & 1]
    everything = live + removed
    assert sorted(everything) == list(range(52)), f"cards not conserved in\n{format_board(s)}"


def check_position(s: st.State, rng: random.Random, full_table: bool) -> None:
    """Invariants of one position; ``full_table`` checks all moves, else a sample of 24."""
    check_conservation(s)
    ids = st.legal_ids(s)
    assert ids == sorted(set(ids)), f"legal ids not sorted and unique: {ids}"
    legal = set(ids)
    moves = MOVES if full_table else rng.sample(MOVES, 24) + [MOVES[i] for i in ids]
    for m in moves:
        reason = st.why_illegal(s, m)
        assert (reason is None) == (m.id in legal), (
            f"{m!r}: generator says {'legal' if m.id in legal else 'illegal'}, "
            f"why_illegal says {reason!r}\n{format_board(s)}"
        )
    before = s.fields()
    for i in ids:
        move = MOVES[i]
        token = st.apply(s, move)
        st.undo(s, token)
        assert s.fields() == before, f"apply/undo of {move!r} did not restore the position"
    assert (st.status(s) is st.Status.PLAYING) == bool(ids)
    if full_table:  # the text forms: moves and the board parse back to the same things
        for i in ids:
            assert parse_move(s, format_move(s, MOVES[i])) == MOVES[i]
        parsed = parse_board(format_board(s), s.rules)
        assert format_board(parsed) == format_board(s)
        assert [format_move(parsed, m) for m in st.legal_moves(parsed)] == [
            format_move(s, m) for m in st.legal_moves(s)
        ]


def check_rollout(
    deal: DealLike,
    rules: Rules | str | None = None,
    *,
    seed: int = 0,
    max_steps: int = 400,
    full_table_every: int = 1,
) -> Game:
    """Play random legal moves on ``deal`` and check every invariant; return the final game.

    Args:
        deal: the deal to play.
        rules: rules or preset name.
        seed: seeds the move choices (a private ``random.Random``), so failures replay.
        max_steps: stop after this many moves (unlimited recycling never ends by itself).
        full_table_every: check the whole move table every this many steps, a sample otherwise.
    """
    rng = random.Random(seed)
    game = Game(deal, rules)
    history = [game.state.copy()]
    for step in range(max_steps):
        s = game.state
        check_position(s, rng, full_table=step % full_table_every == 0)
        moves = game.legal_moves()
        if not moves:
            break
        moves_before = game.moves
        game.play(rng.choice(moves))
        assert game.moves == moves_before + 1, "every action counts as a move"
        history.append(game.state.copy())
    check_position(game.state, rng, full_table=True)
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.state == game.state and restored.moves == game.moves
    assert restored.log == game.log
    # Undo back to the opening (within the rules' undo limit), retracing every position.
    undoable = len(history) - 1
    if game.rules.undo_limit is not None:
        undoable = min(undoable, game.rules.undo_limit)
    replay = Game.from_dict(game.to_dict())
    for back in range(1, undoable + 1):
        replay.undo()
        assert replay.state == history[-1 - back], f"undo {back} did not restore the position"
    return game

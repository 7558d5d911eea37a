"""The rulebooks' own examples and rules, one test each (shared/seeds/000..004)."""

import pytest

from pyramid_env.engine import (
    Game,
    IllegalMove,
    Status,
    get_rules,
    is_dead,
    legal_moves,
    status,
)
from tests.conftest import STUCK, board, check_moves, fixture_board, refused


def game_from(text: str, rules) -> Game:
    return Game.from_board(text, rules)


# -- 002: deal PY1-N-AAAAAAS --
def test_002_worked_deal_first_two_moves():
    s = fixture_board("py1_n_aaaaaas.txt", "unlimited")
    g = Game(s.deal, "unlimited")
    assert g.state == s  # the deal's opening under 002 puts one card on the waste
    assert g.state.stock_size == 23 and g.state.waste_cards == [s.deal.cards[28]]
    check_moves(g.state, {"Kd", "Tc+3h", "Tc+3s", "draw"})
    g.play("Kd")
    g.play("Tc+3s")
    assert g.state.__str__().splitlines()[6].split() == ["7c", "..", "3h", "4h", "..", "..", "7s"]
    assert g.score() == 30  # 10 per pyramid card under 002
    assert g.moves == 2


def test_002_blocked_card_and_wrong_sum():
    s = fixture_board("py1_n_aaaaaas.txt", "unlimited")
    g = Game(s.deal, "unlimited")
    refused(g.play, "Qc+7d", error=IllegalMove, match=r"^Qc is covered by 7c and Tc$")
    refused(g.play, "7c+7s", error=IllegalMove, match=r"^7c \+ 7s = 14, not 13$")
    # Tc lies on Qc: 002 has no covering pair
    refused(g.play, "Qc+Tc", error=IllegalMove, match="Qc is covered by Tc: these rules do not let")
    assert g.moves == 0 and g.log == []  # refused moves change nothing


def test_002_undo_limit_and_counter():
    g = Game(4, "unlimited")
    for _ in range(105):
        g.play("draw" if g.state.stock_size else "recycle")
    assert g.moves == 105
    for _ in range(100):
        g.undo()
    assert g.moves == 105  # 002: the move counter does not go down on undo
    refused(g.undo, error=IllegalMove, match="undo reaches back only 100 action")


def test_002_game_ends_only_when_stock_and_waste_are_empty():
    g = game_from(STUCK + "stock: 5c 6c\n", "unlimited")
    assert is_dead(g.state)  # 000's test, available as a query
    assert g.status is Status.PLAYING  # but 002 plays on while anything can be drawn
    g2 = game_from(STUCK + "stock:\nwaste:\n", "unlimited")
    assert g2.status is Status.LOST and g2.legal_moves() == ()


# -- 000: covering pair, waste rules, dead deal --
COVERING = """
            Jd
          6c  7h
        As  4d  Qs
      5h  3d  6h  8s
    Kh  Kc  Ad  Ks  9c
  Qc  2c  9d  Td  Ts  Js
7c  Tc  4h  5d  3s  Kd  7s
stock: 8c 4c
"""


def test_000_covering_pair_example():
    g = game_from(COVERING, "relaxed")
    # both coverers still there
    refused(
        g.play,
        "4h+9d",
        error=IllegalMove,
        match="9d is covered by 4h and 5d: a covering pair needs one",
    )
    g.play("draw")
    g.play("5d+8c")  # the 5 goes with an 8 from the waste
    check_moves(g.state, {"4h+9d", "Kd", "Tc+3s", "Td+3s", "draw"})
    g.play("4h+9d")  # the 4 is now the 9's sole coverer
    assert g.state.pyramid_left == 25


def test_000_covering_pair_is_pyramid_only_and_preset_dependent():
    g = game_from(COVERING, "relaxed")
    g.play("draw")
    g.play("5d+8c")
    g.play("draw")  # waste top: 4c, which matches the 9d by value
    # the waste pairs only with fully exposed cards
    refused(g.play, "4c+9d", error=IllegalMove, match=r"^9d is covered by 4h$")
    strict = game_from(COVERING, "two-pass")
    strict.play("draw")
    strict.play("5d+8c")
    refused(
        strict.play,
        "4h+9d",
        error=IllegalMove,
        match="these rules do not let a card pair with its coverer",
    )


def test_000_covering_pair_needs_the_coverer_exposed():
    # 4s (row 5) has one coverer left, 9s, but 9s is itself still covered by 2d.
    g = game_from(
        """
            Jd
          6d  7h
        As  4d  Qs
      5h  3s  6h  9h
    Kh  4s  Ad  Ks  9c
  Qc  9s  ..  Td  Ts  Js
2c  2d  ..  ..  3d  3h  4c
stock: Jh
""",
        "relaxed",
    )
    refused(g.play, "4s+9s", error=IllegalMove, match=r"^9s is covered by 2d$")
    g.play("draw")
    g.play("2d+Jh")
    g.play("4s+9s")


def test_000_only_the_waste_top_plays():
    g = game_from(STUCK + "stock:\nwaste: Jh 5c 8c\n", "relaxed")
    refused(g.play, "5c+8c", error=IllegalMove, match="not in play: it is under the waste top")
    # the (waste, stock) pair id
    refused(g.play, 326, error=IllegalMove, match="these rules play only the waste top")


def test_000_dead_deal_rule():
    dead = board(STUCK + "stock: 5c 6c\nwaste: 7d\n", "relaxed")
    assert is_dead(dead) and status(dead) is Status.LOST and legal_moves(dead) == ()
    alive = board(STUCK + "stock: 5c 6c Jh\nwaste: 7d\n", "relaxed")  # Jh pairs with a 2
    assert not is_dead(alive) and status(alive) is Status.PLAYING
    king_on_waste = board(STUCK + "stock: 5c\nwaste: 7d Kd\n", "relaxed")
    assert not is_dead(king_on_waste)  # a removal is playable right now
    king_in_stock = board(STUCK + "stock: Kd 5c\nwaste: 7d\n", "relaxed")
    assert is_dead(king_in_stock)  # a King in the stock never shrinks the pyramid
    assert is_dead(board(STUCK + "stock: Kd 5c\n", get_rules("relaxed", goal="all")))


def test_000_full_clear_goal():
    rules = get_rules("relaxed", goal="all")
    g = game_from(EMPTY + "stock: Kd\n", rules)
    assert g.status is Status.PLAYING  # the pyramid is clear but the stock is not
    g.play("draw")
    g.play("Kd")
    assert g.status is Status.WON
    lone = game_from(EMPTY + "stock: Kd 5c\n", rules)
    lone.play("draw")
    lone.play("Kd")  # one non-King stock card left, with nothing to pair it with
    assert is_dead(lone.state) and lone.status is Status.LOST
    assert game_from(EMPTY + "stock: 5c\n", "relaxed").status is Status.WON


def test_000_counts_every_action_as_a_move_and_recycles_keep_order():
    g = Game(11, "relaxed")
    order = g.state.stock_cards
    for _ in range(24):
        g.play("draw")
    assert g.state.waste_cards == order and g.state.stock_size == 0
    g.play("recycle")
    assert g.state.stock_cards == order and g.moves == 25 and g.pass_number == 2


# -- 001: two-card --
TWO_CARD = STUCK.replace("2c  2d  2h  3c", "2c  5d  2h  3c") + "stock: 2s Jh 8h\n"
EMPTY = "\n".join("  ".join([".."] * (r + 1)) for r in range(7)) + "\n"
APEX_KING = "Kc\n" + "\n".join("  ".join([".."] * (r + 1)) for r in range(1, 7)) + "\nstock:\n"


def test_001_drawn_card_and_waste_top_both_play():
    g = game_from(TWO_CARD, "two-card")
    g.play("draw")  # 2s to the drawn spot
    check_moves(g.state, {"draw"})  # 2s needs a Jack; none is exposed
    g.play("draw")  # Jh drawn, 2s moves onto the waste
    # The Jack pairs with an exposed pyramid 2 or with the waste top 2s.
    check_moves(g.state, {"2c+Jh", "2h+Jh", "2s+Jh", "draw"})
    before = g.score()
    g.play("2s+Jh")
    assert g.state.drawn_card is None and g.state.waste_cards == []
    assert g.score() - before == 10  # two stock cards, 5 points each


def test_001_waste_top_stays_playable_after_the_drawn_card_goes():
    g = game_from(TWO_CARD, "two-card")
    g.play("draw")
    g.play("draw")
    g.play("draw")  # drawn 8h; waste 2s Jh, with Jh on top
    check_moves(g.state, {"5d+8h", "2c+Jh", "2h+Jh", "recycle"})
    g.play("5d+8h")  # the drawn card goes; the drawn spot is empty
    assert g.state.drawn_card is None
    check_moves(g.state, {"2c+Jh", "2h+Jh", "recycle"})
    refused(g.play, 326, error=IllegalMove, match="no drawn card: draw one first")


def test_001_game_over_and_score():
    g2 = game_from(STUCK + "stock: 5c\n", get_rules("two-card", passes=1))
    g2.play("draw")
    assert g2.status is Status.LOST  # no pair, no King, nothing to draw, no pass left
    refused(g2.play, "recycle", error=IllegalMove, match="the game is over: lost")
    w = game_from(APEX_KING, "two-card")
    w.play("Kc")
    assert w.status is Status.WON
    assert w.score() == 28 * 10 + 24 * 5 + 100  # everything the parse left out counts as removed


# -- 003, 004: limited passes --
@pytest.mark.parametrize(("preset", "recycles"), [("two-pass", 1), ("three-pass", 2), ("msc", 2)])
def test_limited_passes(preset, recycles):
    g = Game(21, preset)
    for _ in range(recycles + 1):
        while g.state.stock_size:
            g.play("draw")
        if g.state.recycles < recycles:
            g.play("recycle")
    refused(
        g.play,
        "recycle",
        error=IllegalMove,
        match=f"no recycle left: these rules allow {recycles + 1} pass",
    )


def test_004_win_bonus_and_undo_counts_as_a_move():
    g = game_from(APEX_KING, "three-pass")
    g.play("Kc")
    base = 28 * 10 + 24 * 2
    assert g.score() == base + 600 - 2 * 1
    assert g.score(seconds=100) == base + 600 - 2 - 50
    assert g.score(seconds=10_000) == base  # the bonus never goes negative (our reading)
    g.undo()
    assert g.moves == 2  # 004: undo counts as a move
    d = Game(3, "relaxed")
    d.play("draw")
    d.undo()
    assert d.moves == 0  # relaxed: undo takes the move back


# -- msc: face-up stock top --
def test_msc_stock_top_plays_without_a_draw():
    text = STUCK.replace("2c  2d  2h", "2c  Ah  2h") + "stock: Qd Kd 5d\nwaste: 8s\n"
    g = game_from(text, "msc")
    check_moves(g.state, {"Ah+Qd", "draw"})  # Qd is face up on the stock
    g.play("draw")
    check_moves(g.state, {"Ah+Qd", "Kd", "draw"})  # Qd now the waste top, Kd the stock top
    g.play("Kd")  # a King on the stock top goes alone
    check_moves(g.state, {"Ah+Qd", "draw"})  # waste top Qd, stock top 5d
    g.play("draw")
    check_moves(g.state, {"recycle"})
    g.play("recycle")  # the order is kept: 8s is face up on the stock again
    check_moves(g.state, {"draw"})
    g.play("draw")
    g.play("Ah+Qd")  # the stock top pairs with a pyramid card
    check_moves(g.state, {"5d+8s", "draw"})  # and the stock top with the waste top


# -- knobs on any preset --
def test_draw_three_keeps_the_cycle_order():
    g = Game(2, get_rules("relaxed", draw_count=3))
    order = g.state.stock_cards
    g.play("draw")
    assert g.state.waste_cards == order[:3] and g.state.stock_cards == order[3:]
    top = g.state.waste_cards[-1]
    assert g.state.card_at(28) == top  # only the third card turned is playable
    for _ in range(7):
        g.play("draw")
    g.play("recycle")
    assert g.state.stock_cards == order

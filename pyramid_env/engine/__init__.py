"""The rules of Pyramid Solitaire: pure Python, no gymnasium, no numpy.

Imports flow one way: the env, the solver and the agents import this package; nothing here
imports them.
"""

from pyramid_env.engine.cards import CardError, format_card, pairs_with, parse_card, rank
from pyramid_env.engine.deal import Deal, deal, to_deal
from pyramid_env.engine.errors import PyramidError, RulesError
from pyramid_env.engine.game import Game
from pyramid_env.engine.hint import hint
from pyramid_env.engine.moves import DRAW, MOVES, NUM_MOVES, RECYCLE, STOCK, WASTE, Move, MoveKind
from pyramid_env.engine.notation import format_board, format_move, parse_board, parse_move
from pyramid_env.engine.rulebooks import RULEBOOKS, Rulebook, rulebook_of
from pyramid_env.engine.rules import PRESETS, Goal, Rules, Scoring, StockPlay, UndoMoves, get_rules
from pyramid_env.engine.state import (
    IllegalMove,
    State,
    Status,
    apply,
    apply_checked,
    is_dead,
    is_won,
    legal_ids,
    legal_moves,
    status,
    undo,
    why_illegal,
)

__all__ = [
    "DRAW", "MOVES", "NUM_MOVES", "PRESETS", "RECYCLE", "RULEBOOKS", "STOCK", "WASTE",
    "CardError", "Deal", "Game", "Goal", "IllegalMove", "Move", "MoveKind", "PyramidError",
    "Rulebook", "Rules", "RulesError", "Scoring", "State", "Status", "StockPlay", "UndoMoves",
    "apply", "apply_checked", "deal", "format_board", "format_card", "format_move", "get_rules",
    "hint", "is_dead", "is_won", "legal_ids", "legal_moves", "pairs_with", "parse_board",
    "parse_card", "parse_move", "rank", "rulebook_of", "status", "to_deal", "undo", "why_illegal",
]  # fmt: skip

"""Action ids: the engine's move table, one fixed ``Discrete(327)``.

Ids are positional (board places, not card identities), so one output unit of a policy means
the same part of the board in every deal: 0 draw, 1 recycle, 2..31 a King by its place,
32..326 a pair of places ``(a, b)``, ``a < b``, in lexicographic order (the table:
docs/environment.md, "Action Space"). ``decode(0)`` is the draw; ``encode(PAIR_AT[21, 28])``
is the id of "bottom-left card with the waste top".
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from pyramid_env.engine.errors import PyramidError, describe
from pyramid_env.engine.moves import MOVES, NUM_MOVES, PAIR_AT, Move, place_name

N_ACTIONS = NUM_MOVES
DRAW_ACTION = 0
RECYCLE_ACTION = 1
KING_OFFSET = 2
PAIR_OFFSET = 32

__all__ = [
    "DRAW_ACTION", "KING_OFFSET", "N_ACTIONS", "PAIR_AT", "PAIR_OFFSET", "RECYCLE_ACTION",
    "action_id", "action_name", "decode", "encode",
]  # fmt: skip


def action_id(value: Any, name: str = "action") -> int:
    """``value`` as an action id, a plain int in ``0..326``.

    Integers as Gymnasium's ``Discrete`` takes them: Python and numpy integers and 0-d integer
    arrays (what ``Discrete.sample`` and a policy's ``predict`` return). A bool, a float (even
    3.0: a float action is a bug upstream, not a choice to round), a string or None is refused.

    Raises:
        PyramidError: naming ``name``, the value and the allowed ids.
    """
    if type(value) is not int:
        if isinstance(value, np.integer):  # first: what vector envs and samplers hand over
            value = int(value)
        elif isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
            value = int(value)
        elif isinstance(value, numbers.Integral) and not isinstance(value, bool):
            value = int(value)  # numpy integers are Integral; numpy bools are not
        elif _integer_scalar(value):  # a 0-d torch tensor, as the vector env takes it
            value = int(np.asarray(value))
        else:
            raise PyramidError(
                f"{name} {describe(value)} is not an action id: expected an integer "
                f"0..{N_ACTIONS - 1} (int, numpy integer or 0-d integer array)"
            )
    if not 0 <= value < N_ACTIONS:
        raise PyramidError(f"{name} {value} is out of range 0..{N_ACTIONS - 1}")
    return value


def _integer_scalar(value: Any) -> bool:
    """An array-like 0-d integer (a torch or jax scalar tensor): numpy reads it as one id."""
    if isinstance(value, str | bytes) or not hasattr(value, "__array__"):
        return False
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError, RuntimeError):  # cannot be read as an array: not an id
        return False
    return arr.shape == () and arr.dtype.kind in "iu"


def decode(action: int) -> Move:
    """The engine move of an action id.

    Raises:
        PyramidError: not an integer, or out of range (see :func:`action_id`).
    """
    return MOVES[action_id(action)]


def encode(move: Move) -> int:
    """The action id of an engine move."""
    return move.id


def action_name(action: int) -> str:
    """``'draw'``, ``'king 27'``, ``'pair 21+WASTE'``: the place-level meaning of an id."""
    m = decode(action)
    if m.a < 0:
        return m.kind.name.lower()
    return f"{m.kind.name.lower()} " + "+".join(place_name(p) for p in m.places)

"""Shared test helpers: positions from text, move-set comparison with a two-way diff,
``refused`` (bad input is refused with a clear error) and ``play_turns`` (an env played turn
by turn)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from pyramid_env.engine import PyramidError, State, format_move, legal_moves, parse_board

FIXTURES = Path(__file__).parent / "fixtures"

# A full pyramid whose bottom row offers nothing (ranks 2, 3, 4 need J, T, 9); add stock lines.
STUCK = """
            Jd
          6d  7h
        As  4d  Qs
      5h  3s  6h  9h
    Kh  Kc  Ad  Ks  9c
  Qc  Jc  8d  Td  Ts  Js
2c  2d  2h  3c  3d  3h  4c
"""


@pytest.fixture(autouse=True, scope="session")
def _one_blas_thread():
    """The test process runs numpy's BLAS on one thread, as a worker of a 2-core machine does.

    With a thread per core, the small matrix products of the shipped networks run tens of
    times slower on a shared 2-core machine (pyramid_env/workers.py says why). Results do
    not depend on it:
    test_a_shipped_network_plays_the_same_on_any_number_of_workers puts the default back and
    checks exactly that. Subprocesses are not affected (no environment variable is set).
    """
    import numpy  # noqa: F401  (loaded first, so that its BLAS is the one capped)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        yield


def refused(call, *args, error=PyramidError, match=None, **kwargs) -> str:
    """The message of the error ``call(*args, **kwargs)`` raises, failing on anything else.

    The project's rule for bad input: a ``PyramidError`` (or the narrower ``error``) whose message
    says what is wrong (matching the regex ``match`` where given), never a silent default.
    """
    assert issubclass(error, PyramidError)
    with pytest.raises(error, match=match) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message.strip(), "an error without a message"
    return message


def play_turns(env: Any, deals: Iterable[int], steps: int, choose: Callable[[Any], int]) -> int:
    """Play ``env`` on each deal for ``steps`` moves at most, ``choose(turn)`` picking each.

    One loop for the tests that compare agents (or a network and its export) turn by turn:
    ``choose`` gets the :class:`~pyramid_env.agents.Turn` (the env's observation as ``obs``),
    asserts what it checks and returns the move played. Returns how many turns were played.
    """
    from pyramid_env.agents import Turn  # only the tests that play pay for the agents

    played = 0
    for deal in deals:
        obs, _ = env.reset(options={"deal": deal})
        for _ in range(steps):
            legal = env.legal_actions()
            if not legal:
                break
            move = choose(Turn(env.state, legal, env.known_stock(), obs))
            played += 1
            obs, _, term, trunc, _ = env.step(move)
            if term or trunc:
                break
    return played


def board(text: str, rules: str = "relaxed") -> State:
    return parse_board(text, rules)


def fixture_board(name: str, rules: str) -> State:
    return parse_board((FIXTURES / "boards" / name).read_text(), rules)


def move_texts(s: State) -> set[str]:
    return {format_move(s, m) for m in legal_moves(s)}


def check_moves(s: State, expected: set[str]) -> None:
    """Compare the legal moves (as text) with ``expected``, reporting both differences."""
    got = move_texts(s)
    # A pair may be written either way round: normalise to the engine's order.
    norm = set()
    for e in expected:
        parts = e.split("+")
        norm.add(
            e if len(parts) == 1 else next((g for g in got if set(g.split("+")) == set(parts)), e)
        )
    missing, extra = norm - got, got - norm
    assert not missing and not extra, f"missing {sorted(missing)}, unexpected {sorted(extra)}\n{s}"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES

"""Replays: a game's moves, to watch again in a browser and to find the move that lost it.

A :class:`Replay` is a deal, its rules and the moves played (as :func:`format_move` writes
them), with the agent's name and, optionally, what that player had seen of the stock at each
position. It comes from a :class:`~pyramid_env.engine.game.Game` or its save file
(:meth:`Replay.from_game`, :meth:`Replay.from_save`), from a solver line
(:meth:`Replay.from_solution`) or from its own JSON file (:meth:`Replay.load`).

:func:`analyse` asks the solver about every position and finds the first move after which a
winnable deal was lost. :func:`write_html` writes one self-contained page (inline CSS and JS,
the replay as embedded JSON, nothing fetched) that draws the table at every step, with
controls, keyboard shortcuts and, given an analysis, a verdict per position and a marker on the
losing move. The page draws from the deal's 52 cards and a few integers per position (the
position's five, the stock cards the player knew and the two tops), so it stays small: the
rules are applied here, in Python, by the engine, and the page only draws.

``pyramid-env replay FILE [--out page.html] [--analyse]`` is :func:`main_replay`.
"""

from __future__ import annotations

import argparse
import html
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyramid_env.engine import state as st
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.deal import DealLike, to_deal
from pyramid_env.engine.errors import CardError, PyramidError, check_file_fields, describe, is_int
from pyramid_env.engine.files import read_json, write_atomic
from pyramid_env.engine.game import SAVE_FORMAT, Game
from pyramid_env.engine.notation import format_move, parse_move
from pyramid_env.engine.rules import Rules, get_rules

REPLAY_FORMAT = "pyramid-env-replay"
REPLAY_VERSION = 1
REPLAY_FIELDS = ("format", "version", "deal", "rules", "moves", "agent", "seen")
"""The fields of a replay file; ``agent`` and ``seen`` may be left out (or null)."""
_REQUIRED = REPLAY_FIELDS[:5]
_ALL_STOCK = (1 << st.STOCK_SIZE) - 1

DEFAULT_BUDGET: int | None = None
"""Positions the solver may expand per position analysed before answering ``unknown``: no
limit by default, the time limit decides (a hard deal's opening can take over a million
positions, a second or so with the compiled search)."""
DEFAULT_TIME_LIMIT = 10.0
"""Seconds the solver may spend per position analysed before answering ``unknown``."""


def _field_error(name: str, value: Any, allowed: str) -> CardError:
    return CardError(f"replay field {name!r} is {describe(value)}: {allowed}")


@dataclass(frozen=True, slots=True)
class Replay:
    """A deal, its rules and the moves played from its opening; checked when built.

    Building one replays the moves through the engine's checked path, so a ``Replay`` that
    exists always replays, and its move texts are written as the engine writes them
    (``'8s+5d'`` becomes ``'5d+8s'``).

    Attributes:
        deal: the deal code (``'P2-...'``); anything ``to_deal`` takes is accepted and stored
            as its code.
        rules: the :class:`Rules` (a preset name is accepted).
        moves: the moves in order, as text: ``'draw'``, ``'recycle'``, ``'Kd'``, ``'5d+8s'``.
        agent: who played, for the page's title (``None``: not recorded).
        seen: one mask per position (``len(moves) + 1``) of the stock cycle cards (bit ``i``:
            deal card ``29 + i``) that player had seen there, as the env's
            ``known_stock()`` gives it, so the page shows the stock as that player saw it.
            ``None``: what any player would have seen, the cards turned face up so far
            (:meth:`seen_masks`).
    """

    deal: str
    rules: Rules
    moves: tuple[str, ...]
    agent: str | None = None
    seen: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        """Normalise the fields and replay the moves, naming the field that is wrong.

        Raises:
            CardError: a bad deal, a malformed moves list, agent or seen.
            RulesError: bad rules.
            IllegalMove: a move that does not replay, naming it by its index.
        """
        try:
            code = to_deal(self.deal).code
        except PyramidError as err:
            raise type(err)(f"replay field 'deal': {err}") from None
        try:
            rules = get_rules(self.rules)
        except PyramidError as err:
            raise type(err)(f"replay field 'rules': {err}") from None
        moves = self.moves
        if isinstance(moves, str) or not isinstance(moves, Sequence):
            raise _field_error("moves", moves, "it must be a list of moves as text")
        s = st.State(code, rules)
        texts = []
        for i, text in enumerate(moves):
            if not isinstance(text, str):
                raise _field_error(
                    f"moves[{i}]", text, "a move is text: 'draw', 'recycle', 'Kd', '5d+8s'"
                )
            try:
                move = parse_move(s, text)
                texts.append(format_move(s, move))
                st.apply_checked(s, move)
            except PyramidError as err:
                raise type(err)(f"replay field 'moves', move {i} ({text!r}): {err}") from None
        if self.agent is not None and not isinstance(self.agent, str):
            raise _field_error("agent", self.agent, "it must be text or None")
        seen = self.seen
        if seen is not None:
            if isinstance(seen, str) or not isinstance(seen, Sequence):
                raise _field_error("seen", seen, "it must be a list of masks, one per position")
            if len(seen) != len(texts) + 1:
                raise CardError(
                    f"replay field 'seen' has {len(seen)} mask(s): it needs one per position, "
                    f"{len(texts) + 1} for {len(texts)} move(s)"
                )
            for i, mask in enumerate(seen):
                if not is_int(mask) or not 0 <= mask <= _ALL_STOCK:
                    raise _field_error(
                        f"seen[{i}]", mask, f"a mask is an int in 0..{_ALL_STOCK} (24 bits)"
                    )
            seen = tuple(int(m) for m in seen)
        object.__setattr__(self, "deal", code)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "moves", tuple(texts))
        object.__setattr__(self, "seen", seen)

    # -- building one ----------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game, agent: str | None = None) -> Replay:
        """The replay of a game, through its save (see :meth:`from_save`)."""
        return cls.from_save(game.to_dict(), agent)

    @classmethod
    def from_save(cls, save: str | Path | Mapping[str, Any], agent: str | None = None) -> Replay:
        """The replay of a ``Game.save`` file (or the dict ``Game.to_dict`` writes).

        The save is checked and replayed by :meth:`Game.from_dict` first. Its log may hold
        ``'undo'`` entries: the replay is the line that stands, each undo taking back the move
        before it, so it ends in the saved position. What the undone moves showed is kept:
        a draw taken back has still shown its card, so ``seen`` then records, for each
        position, what the player had seen when they played the move that stands (undo lets a
        player peek at the stock, and the page should not hide what they knew).

        Raises:
            CardError: the file is not JSON or not a save (see :meth:`Game.from_dict`), or the
                game started from a board (a replay starts from a deal's opening).
            RulesError, IllegalMove: as :meth:`Game.from_dict`. OSError: unreadable file.
        """
        data = save if isinstance(save, Mapping) else _read_json(save, "save")
        game = Game.from_dict(data)
        if "board" in data:
            raise CardError(
                "save field 'board': this game started from a board, not from a deal's "
                "opening; a replay starts from the opening, so it cannot replay it"
            )
        return cls._from_log(game.deal.code, game.rules, game.log, agent)

    @classmethod
    def _from_log(cls, deal: str, rules: Rules, log: Sequence[str], agent: str | None) -> Replay:
        """The standing line of a game's log (move texts and ``'undo'``), with what was seen."""
        s = st.State(deal, rules)
        seen = st.face_up(s)
        stack: list[tuple[str, st.Token, int]] = []  # (move, undo token, seen before it)
        for entry in log:
            if entry == "undo":
                st.undo(s, stack.pop()[1])
                continue
            move = parse_move(s, entry)
            text = format_move(s, move)
            stack.append((text, st.apply_checked(s, move), seen))
            seen |= st.face_up(s)
        masks = (*(m for _, _, m in stack), seen) if "undo" in log else None
        return cls(deal, rules, tuple(t for t, _, _ in stack), agent, masks)

    @classmethod
    def from_solution(
        cls, deal: DealLike, rules: Rules | str | None, solution: Any, agent: str = "solver"
    ) -> Replay:
        """The replay of a solver's winning line from the opening of ``deal``.

        The solver reads the stock order, so ``seen`` is the whole stock at every position:
        the page shows what that player knew.

        Args:
            deal: the deal solved (a number, code, text or ``Deal``).
            rules: its rules (a preset name or ``Rules``; ``None`` for the default preset).
            solution: a ``pyramid_env.solver.Solution`` of ``solve(deal, rules)``.
            agent: the name shown on the page.

        Raises:
            CardError: the solution has no line (a loss or unknown), or is not a Solution.
            IllegalMove: the line does not replay from the opening (it was solved elsewhere).
        """
        line = getattr(solution, "line", None)
        if line is None:
            status = getattr(getattr(solution, "status", None), "value", None)
            raise CardError(
                f"solution {describe(solution)[:80]} has no winning line to replay "
                f"(status {status!r}): only a 'win' has one"
            )
        seen = (_ALL_STOCK,) * (len(line) + 1)
        return cls(to_deal(deal).code, get_rules(rules), tuple(line), agent, seen)

    # -- reading it ------------------------------------------------------------------------
    def positions(self) -> Iterator[st.State]:
        """Every position, the opening first and then one after each move (fresh copies)."""
        s = st.State(self.deal, self.rules)
        yield s.copy()
        for text in self.moves:
            st.apply_checked(s, parse_move(s, text))
            yield s.copy()

    def seen_masks(self) -> tuple[int, ...]:
        """Per position, the stock cycle cards the player had seen (bit ``i``: card ``29+i``).

        ``seen`` when given; else the cards turned face up at this position or before
        (``face_up``, as the env's observation keeps them with ``observe_stock="seen"``).
        """
        if self.seen is not None:
            return self.seen
        masks, seen = [], 0
        for s in self.positions():
            seen |= st.face_up(s)
            masks.append(seen)
        return tuple(masks)

    # -- files -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-able form; ``Replay.from_dict(r.to_dict()) == r``."""
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "deal": self.deal,
            "rules": self.rules.to_dict(),
            "moves": list(self.moves),
            "agent": self.agent,
            "seen": None if self.seen is None else list(self.seen),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Replay:
        """Inverse of :meth:`to_dict`; every field is checked.

        Raises:
            CardError: not a replay of this format and version, an unknown or missing field,
                or a bad value, naming the field.
            RulesError: bad ``rules``, naming the knob. IllegalMove: a move that does not
                replay, naming it.
        """
        check_file_fields(
            data, "replay", REPLAY_FORMAT, REPLAY_VERSION, REPLAY_FIELDS, _REQUIRED,
            "Replay.to_dict()", "file",
        )  # fmt: skip
        deal = data["deal"]
        if not isinstance(deal, str):
            raise _field_error("deal", deal, "it must be a deal code 'P2-...'")
        rules = data["rules"]
        if not isinstance(rules, Mapping):  # a bare preset name would hide knob changes
            raise _field_error("rules", rules, "it must be a dict, as Rules.to_dict() writes")
        try:
            rules = Rules.from_dict(rules)
        except PyramidError as err:
            raise type(err)(f"replay field 'rules': {err}") from None
        moves = data["moves"]
        if not isinstance(moves, list):
            raise _field_error("moves", moves, "it must be a list of moves as text")
        seen = data.get("seen")
        if seen is not None and not isinstance(seen, list):
            raise _field_error("seen", seen, "it must be a list of masks, one per position")
        seen = None if seen is None else tuple(seen)
        return cls(deal, rules, tuple(moves), data.get("agent"), seen)

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_dict` as JSON to ``path``."""
        write_atomic(path, json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a file written by :meth:`save`.

        Raises:
            CardError: not JSON, or not a replay (see :meth:`from_dict`); RulesError,
                IllegalMove as :meth:`from_dict`. OSError: the file cannot be read.
        """
        return cls.from_dict(_read_json(path, "replay"))


def _read_json(path: str | Path, what: str) -> Any:
    return read_json(path, what)


def open_replay(path: str | Path) -> Replay:
    """A replay file (:meth:`Replay.save`) or a game save (``Game.save``), told by its format.

    Raises:
        CardError: not JSON, or neither kind of file. Others as the two readers.
    """
    data = _read_json(path, "replay")
    fmt = data.get("format") if isinstance(data, Mapping) else None
    if fmt == SAVE_FORMAT:
        return Replay.from_save(data)
    if fmt == REPLAY_FORMAT:
        return Replay.from_dict(data)
    raise CardError(
        f"file {str(path)!r} has format {fmt!r}: give a {REPLAY_FORMAT} file (Replay.save) or "
        f"a {SAVE_FORMAT} file (Game.save)"
    )


# -- analysis ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Analysis:
    """The solver's verdict on every position of a replay, and the move that lost the deal.

    The solver is clairvoyant: it knows the stock order. "Winnable" here means winnable by
    someone who knew the stock; a player who did not may have had no way to tell the losing
    move from the better one.

    Attributes:
        verdicts: per position, ``'win'``, ``'loss'`` or ``'unknown'`` (a search limit ran out).
        searched: per position, whether the solver was asked about it (the others follow from
            the verdicts asked, see :func:`analyse`).
        losing_move: index in ``replay.moves`` of the first move after which a winnable deal
            was lost (the position before it a win, the one after a loss); ``None`` when the
            deal was never winnable, never lost, or unknowns hide the step.
        better_move: at that point, the first move of the solver's winning line (``None``
            without a losing move).
        better_line: that whole line, from the position before the losing move.
        nodes: positions the solver expanded in all.
        seconds: wall time of the searches.
    """

    verdicts: tuple[str, ...]
    searched: tuple[bool, ...]
    losing_move: int | None
    better_move: str | None
    better_line: tuple[str, ...] | None
    nodes: int = 0
    seconds: float = 0.0

    def summary(self, replay: Replay) -> str:
        """One line on where the game was lost, in the page's words."""
        v = self.verdicts
        if self.losing_move is not None:
            k = self.losing_move
            return (
                f"move {k + 1} ({replay.moves[k]}): after this move the deal could no longer be "
                f"won; {self.better_move} would have kept it winnable (by a player who knew "
                "the stock)"
            )
        if v[0] == "loss":
            return "the deal could not be won from the start, even knowing the stock"
        if v[-1] == "win":
            return "the position stayed winnable throughout"
        return "the solver's limits ran out before it could place the losing move"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form, for the page and for ``--json`` output."""
        return {
            "verdicts": list(self.verdicts),
            "searched": list(self.searched),
            "losing_move": self.losing_move,
            "better_move": self.better_move,
            "better_line": None if self.better_line is None else list(self.better_line),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def analyse(
    replay: Replay,
    budget: int | None = DEFAULT_BUDGET,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    *,
    every: bool = False,
) -> Analysis:
    """The solver's verdict on each position of ``replay``, and the move that lost the deal.

    A position before a winnable one in the game is winnable (its move leads there), and one
    after a lost one is lost, so along a game the verdicts read win..., then loss...: the
    solver is asked about the first and last positions and then bisects for the step between
    them, and the other verdicts follow exactly. A position whose search runs out of limits
    is ``unknown`` and the bisection asks the positions around it instead; ``every=True``
    asks about every position (slower; the tests compare the two).

    The solver is clairvoyant (it knows the stock order), so "winnable" means winnable by
    someone who knew the stock.

    Args:
        replay: the game.
        budget: positions the solver may expand per position asked (``None``: no limit).
        time_limit: seconds per position asked (``None``: no limit).
        every: ask the solver about every position instead of inferring.

    Returns:
        An :class:`Analysis`.
    """
    from pyramid_env.solver import solve  # the page alone does not need the solver

    states = list(replay.positions())
    n = len(states)
    asked: dict[int, Any] = {}

    def ask(i: int) -> str:
        asked[i] = solve(states[i], budget=budget, time_limit=time_limit, check=False)
        return asked[i].status.value

    lo, hi = -1, n  # the last position known winnable, the first known lost
    if every:
        for i in range(n):
            ask(i)
        wins = [i for i in asked if asked[i].status.value == "win"]
        losses = [i for i in asked if asked[i].status.value == "loss"]
        lo, hi = max(wins, default=-1), min(losses, default=n)
    else:
        while True:
            todo = [i for i in range(lo + 1, hi) if i not in asked]
            if not todo:
                break
            if lo < 0 and 0 in todo:
                i = 0
            elif hi == n and n - 1 in todo:
                i = n - 1
            else:
                mid = (lo + hi) / 2
                i = min(todo, key=lambda j: (abs(j - mid), j))
            verdict = ask(i)
            if verdict == "win":
                lo = max(lo, i)
            elif verdict == "loss":
                hi = min(hi, i)
    if lo >= hi:
        raise AssertionError(f"the solver calls position {hi} lost but the later {lo} won")
    verdicts = tuple(
        "win" if i <= lo else "loss" if i >= hi else asked[i].status.value for i in range(n)
    )
    losing = lo if 0 <= lo and hi == lo + 1 < n else None  # a win, then a loss, both seen
    line = asked[losing].line if losing is not None else None
    return Analysis(
        verdicts,
        tuple(i in asked for i in range(n)),
        losing,
        line[0] if line else None,
        tuple(line) if line is not None else None,
        sum(sol.nodes for sol in asked.values()),
        sum(sol.seconds for sol in asked.values()),
    )


# -- the page ---------------------------------------------------------------------------------
_STATUS_CODE = {st.Status.PLAYING: 0, st.Status.WON: 1, st.Status.LOST: 2}


def page_data(replay: Replay, analysis: Analysis | None = None) -> dict[str, Any]:
    """What the page embeds: the deal's cards and a few integers per position and move.

    ``pos[k]`` is position ``k`` (after ``k`` moves) as ``[pyr, left, ptr, drawn, recycles,
    known, waste_top, second, status]``: the engine's five integers, the stock cycle cards
    the player knew there (what they had seen, plus what lies face up), the cycle indices of
    the waste top and of the drawn card or face-up stock top (``-1``: none) and 0/1/2 for
    playing/won/lost. ``moves[k]`` is ``[text, kind, place...]``, the places it removes cards
    from (slots 0..27, 28 the waste top, 29 the drawn card or face-up stock top).

    Raises:
        CardError: ``analysis`` is not one of this replay (another number of positions).
    """
    masks = replay.seen_masks()
    pos, moves = [], []
    states = list(replay.positions())
    for k, s in enumerate(states):
        known = (masks[k] | st.face_up(s)) & s.left
        w, d = s.tops()
        code = _STATUS_CODE[st.status(s)]
        pos.append([s.pyr, s.left, s.ptr, int(s.drawn), s.recycles, known, w, d, code])
        if k < len(replay.moves):
            move = parse_move(s, replay.moves[k])
            moves.append([replay.moves[k], int(move.kind), *move.places])
    data: dict[str, Any] = {
        "deal": replay.deal,
        "rules": replay.rules.name,
        "rulesText": replay.rules.describe(),
        # What the second playable stock card is, as the rules' knobs say (not the mode's name).
        "drawnSpot": replay.rules.knobs.drawn_spot,
        "faceUpTop": replay.rules.knobs.face_up_top,
        "passes": replay.rules.passes,
        "agent": replay.agent,
        "cards": [CARD_NAMES[c] for c in states[0].deal.cards],
        "pos": pos,
        "moves": moves,
        "analysis": None,
    }
    if analysis is not None:
        if len(analysis.verdicts) != len(states):
            raise CardError(
                f"analysis has {len(analysis.verdicts)} verdicts, but the replay has "
                f"{len(states)} positions: it is the analysis of another game"
            )
        data["analysis"] = {
            "verdicts": "".join(v[0] for v in analysis.verdicts),  # w, l, u
            "searched": "".join("1" if a else "0" for a in analysis.searched),
            "losing": analysis.losing_move,
            "better": analysis.better_move,
            "betterLine": None if analysis.better_line is None else list(analysis.better_line),
        }
    return data


def render_html(replay: Replay, analysis: Analysis | None = None) -> str:
    """The page as text (see :func:`write_html`)."""
    data = json.dumps(page_data(replay, analysis), separators=(",", ":"))
    # "<" only occurs inside JSON strings, where \u003c means the same: no "</script>" ends
    # the data early, whatever an agent's name says.
    data = data.replace("<", "\\u003c")
    who = f" · {replay.agent}" if replay.agent else ""
    title = html.escape(f"Pyramid replay · {replay.rules.name}{who} · {replay.deal}")
    return (
        _PAGE.replace("__TITLE__", title)
        .replace("__CSS__", _CSS)
        .replace("__JS__", _JS)
        .replace("__DATA__", data)
    )


def write_html(replay: Replay, path: str | Path, analysis: Analysis | None = None) -> Path:
    """Write the replay as one self-contained HTML page and return its path.

    Everything is in the file: the CSS and the script inline, the game as JSON, no fonts,
    images or requests (a content security policy forbids them), so it opens from disk and
    can be mailed or attached to an issue. It draws the table at each step (the pyramid in
    its 7 rows, covered cards dimmed, removed slots empty; the stock face down except what
    the player had seen; the waste, the drawn card or face-up stock top; counters), outlines
    the cards the next move removes (or the stock for a draw), and steps with buttons, a
    slider, a move number, the move list, a timer and the keys ArrowRight, ArrowLeft, Space,
    Home and End. Given an ``analysis``, each position gets its verdict and the losing move a
    red marker on the timeline and a note naming a move that kept the deal winnable.

    ``window.replayState()`` in the page returns what it shows (``step``, ``total``,
    ``verdict``, ``pyramidCards``, ``wasteTop``, ``second``, ``losingStep``, ``playing``,
    ``status``), for tests.

    Raises:
        CardError: ``analysis`` belongs to another game. OSError: the file cannot be written.
    """
    return write_atomic(path, render_html(replay, analysis))  # never half a page


# -- the command line -------------------------------------------------------------------------
def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``pyramid-env replay``, for ``pyramid_env.cli`` to add to its parser."""
    from pyramid_env.argtypes import positive, seconds  # the command line's, not the library's

    parser.add_argument("file", metavar="FILE", help="a game save (Game.save) or a replay file")
    parser.add_argument(
        "--out", metavar="PAGE", help="the page to write (default: FILE with .html)"
    )
    parser.add_argument(
        "--analyse",
        "--analyze",
        action="store_true",
        help="ask the solver about every position and mark the move that lost the deal "
        "(the solver knows the stock order)",
    )
    parser.add_argument(
        "--budget",
        type=positive,
        default=DEFAULT_BUDGET,
        metavar="N",
        help="with --analyse: positions per search (default: no limit but --time-limit)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"with --analyse: seconds per search (default {DEFAULT_TIME_LIMIT:g})",
    )


def main_replay(args: argparse.Namespace) -> int:
    """``pyramid-env replay FILE [--out PAGE] [--analyse]``: write the page, print where.

    Raises:
        PyramidError: a bad file (the CLI turns it into exit status 2). OSError: unreadable
            input or unwritable page.
    """
    out = Path(args.out) if args.out is not None else Path(args.file).with_suffix(".html")
    if not str(args.out if args.out is not None else out).strip():
        raise PyramidError("--out '': give the page's path, or leave --out out for FILE.html")
    if out.exists() and Path(args.file).exists() and out.resolve() == Path(args.file).resolve():
        raise PyramidError(
            f"--out {str(out)!r} is the input file itself: the page would overwrite the game"
        )
    replay = open_replay(args.file)
    analysis = None
    if args.analyse:
        analysis = analyse(replay, budget=args.budget, time_limit=args.time_limit)
    write_html(replay, out, analysis)
    print(f"{len(replay.moves)} moves · {replay.rules.name} · {replay.deal}")
    if analysis is not None:
        print(analysis.summary(replay))
    print(f"wrote {out}")
    return 0


# -- the page's text --------------------------------------------------------------------------
# Kept here, not in package data, so the module alone writes the page. The script draws from
# the embedded data only (textContent, never innerHTML), so no card or name becomes markup.
_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<link rel="icon" href="data:,">
<title>__TITLE__</title>
<style>__CSS__</style>
</head>
<body>
<header>
  <h1>Pyramid Solitaire replay</h1>
  <p id="meta"></p>
</header>
<main>
  <section id="table" aria-label="the table">
    <div id="pyramid"></div>
    <div id="piles">
      <div class="pile" id="stock-pile"><div class="label">stock</div>
        <div class="spot" id="stock-top"></div><div class="count" id="stock-count"></div></div>
      <div class="pile" id="drawn-pile" hidden><div class="label">drawn</div>
        <div class="spot" id="drawn"></div><div class="count">&nbsp;</div></div>
      <div class="pile" id="waste-pile"><div class="label">waste</div>
        <div class="spot" id="waste-top"></div><div class="count" id="waste-count"></div></div>
    </div>
    <div id="strip-box"><div class="label">stock, next card first
      (face down: not yet seen by this player)</div><div id="strip"></div></div>
  </section>
  <section id="side">
    <div id="counters">move <b id="step">0</b> / <b id="total">0</b> ·
      pass <b id="pass"></b> · pyramid <b id="left"></b> left · <span id="status"></span></div>
    <div id="verdict-box" hidden>solver: <span id="verdict" class="badge"></span></div>
    <div id="next">next: <b id="next-move"></b></div>
    <div id="note" role="status" hidden></div>
    <div id="controls">
      <button id="first" title="first (Home)">|&#x25C0;</button>
      <button id="back" title="step back (ArrowLeft)">&#x25C0;</button>
      <button id="play" title="play / pause (Space)">&#x25B6; play</button>
      <button id="forward" title="step forward (ArrowRight)">&#x25B6;</button>
      <button id="last" title="last (End)">&#x25B6;|</button>
      <select id="speed" title="play speed">
        <option value="1500">slow</option><option value="700" selected>normal</option>
        <option value="250">fast</option></select>
    </div>
    <div id="timeline-box"><div id="timeline"></div></div>
    <input type="range" id="slider" min="0" value="0" aria-label="step">
    <label id="jump-box">after move <input type="number" id="jump" min="0" value="0"></label>
    <div id="summary" hidden></div>
    <ol id="moves"></ol>
    <p class="help">Keys: &larr; &rarr; step, Space play/pause, Home/End first/last.
      An outlined card is removed by the next move.</p>
  </section>
</main>
<script type="application/json" id="replay-data">__DATA__</script>
<script>__JS__</script>
</body>
</html>
"""

_CSS = """
:root { --w: 54px; --h: 76px; --gap: 8px; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
  background: #f3f1ea; color: #222; }
header { padding: 8px 16px; background: #1c3d2e; color: #fff; }
header h1 { margin: 0; font-size: 18px; }
header p { margin: 2px 0 0; font-size: 13px; opacity: .85; }
main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px; }
#table { background: #2d6a4f; border-radius: 12px; padding: 16px; color: #fff;
  box-shadow: inset 0 0 40px rgba(0,0,0,.35); }
#pyramid { position: relative; width: calc(7 * var(--w) + 6 * var(--gap));
  height: calc(6 * var(--h) * .55 + var(--h)); }
#pyramid .card { position: absolute; }
.card { width: var(--w); height: var(--h); border-radius: 6px; background: #fff; color: #111;
  border: 1px solid #999; box-shadow: 0 1px 3px rgba(0,0,0,.4); position: relative;
  font-weight: 600; user-select: none; }
.card .rank, .card .suit { position: absolute; left: 5px; font-size: 15px; line-height: 1; }
.card .rank { top: 4px; } .card .suit { top: 21px; }
.card::after { content: attr(data-pip); position: absolute; right: 6px; bottom: 3px;
  font-size: 26px; line-height: 1; }
.card.red { color: #c1121f; }
.card.covered { filter: brightness(.6) saturate(.6); }
.card.empty { background: transparent; border: 2px dashed rgba(255,255,255,.3);
  box-shadow: none; }
.card.back { background: repeating-linear-gradient(45deg, #274c8c 0 5px, #3a66b3 5px 10px);
  border: 3px solid #fff; }
.card.hl, .spot.hl .card { outline: 4px solid #ffb703; outline-offset: 1px;
  box-shadow: 0 0 14px #ffb703; z-index: 5; }
#piles { display: flex; gap: 28px; margin-top: 18px; justify-content: center; }
.pile { text-align: center; }
.label { font-size: 12px; opacity: .85; margin-bottom: 3px; }
.count { font-size: 12px; margin-top: 3px; }
#strip-box { margin-top: 14px; }
#strip { display: flex; flex-wrap: wrap; gap: 3px; max-width: calc(7 * var(--w) + 6 * var(--gap)); }
#strip .card { --w: 27px; --h: 38px; width: 27px; height: 38px; border-radius: 4px; }
#strip .card .rank, #strip .card .suit { left: 3px; font-size: 11px; }
#strip .card .suit { top: 16px; }
#strip .card::after { content: none; }
#strip .card.back { border-width: 2px; }
#side { flex: 1 1 320px; max-width: 520px; }
#counters { font-size: 15px; }
.badge { display: inline-block; padding: 1px 10px; border-radius: 10px; color: #fff;
  font-weight: 600; }
.badge.win { background: #2b9348; } .badge.loss { background: #c1121f; }
.badge.unknown { background: #6c757d; }
#verdict-box, #next { margin-top: 6px; }
#note { margin-top: 8px; padding: 8px 10px; border-left: 5px solid #c1121f;
  background: #fde2e4; }
#controls { margin-top: 10px; display: flex; gap: 6px; flex-wrap: wrap; }
#controls button, #controls select { font: inherit; padding: 4px 10px; border-radius: 6px;
  border: 1px solid #888; background: #fff; cursor: pointer; }
#controls button[aria-pressed="true"] { background: #ffe8a3; }
#timeline-box { position: relative; margin-top: 14px; padding-top: 12px; }
#timeline { display: flex; height: 16px; border: 1px solid #888; border-radius: 3px;
  overflow: hidden; cursor: pointer; }
#timeline div { flex: 1 1 0; background: #ddd; border-right: 1px solid rgba(255,255,255,.5); }
#timeline .w { background: #80b918; } #timeline .l { background: #e5989b; }
#timeline .u { background: #adb5bd; } #timeline .cur { background: #1c3d2e; }
#losing-marker { position: absolute; top: 0; width: 14px; margin-left: -7px; height: 32px;
  cursor: pointer; }
#losing-marker::before { content: ""; position: absolute; left: 0; top: 0;
  border: 7px solid transparent; border-top: 10px solid #d00000; }
#losing-marker::after { content: ""; position: absolute; left: 6px; top: 8px; width: 3px;
  height: 22px; background: #d00000; }
#slider { width: 100%; margin-top: 8px; }
#jump { width: 5em; font: inherit; }
#summary { margin-top: 8px; font-size: 14px; }
#moves { position: relative; max-height: 220px; overflow-y: auto; margin: 10px 0 0;
  padding: 6px; list-style: none; display: grid;
  grid-template-columns: repeat(auto-fill, minmax(92px, 1fr)); background: #fff;
  border: 1px solid #ccc; border-radius: 6px; font-size: 14px; }
#moves li { cursor: pointer; padding: 0 4px; white-space: nowrap; }
#moves li.cur { background: #ffe8a3; } #moves li.losing { color: #d00000; font-weight: 700; }
#moves li.done { color: #777; }
.help { font-size: 12px; color: #555; }
"""

_JS = r"""
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const SUIT = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};
  const WORD = {w: "win", l: "loss", u: "unknown"};
  const STATUS = ["playing", "won", "lost"];
  const SLOTS = 28, WASTE = 28, STOCK = 29, DRAW = 0, RECYCLE = 1;
  const total = D.moves.length;
  const A = D.analysis;
  const losing = A && A.losing !== null ? A.losing : null;
  const $ = (id) => document.getElementById(id);
  let step = 0, timer = null;

  const bit = (mask, i) => Math.floor(mask / 2 ** i) % 2 === 1;  // masks reach 2**28
  const rankText = (name) => (name[0] === "T" ? "10" : name[0]);
  const popcount = (m) => { let n = 0; for (; m; m = Math.floor(m / 2)) n += m % 2; return n; };

  function card(name, extra) {
    const el = document.createElement("div");
    el.className = "card" + (extra ? " " + extra : "");
    if (name === null) { el.classList.add("empty"); return el; }
    if (name === "back") { el.classList.add("back"); return el; }
    const suit = SUIT[name[1]];
    el.dataset.card = name;
    el.dataset.pip = suit;
    el.title = name;
    if (name[1] === "d" || name[1] === "h") el.classList.add("red");
    const r = document.createElement("span"); r.className = "rank"; r.textContent = rankText(name);
    const s = document.createElement("span"); s.className = "suit"; s.textContent = suit;
    el.append(r, s);
    return el;
  }
  const cycle = (i) => D.cards[SLOTS + i];

  function model(k) {
    const [pyr, left, ptr, drawn, recycles, known, w, d, status] = D.pos[k];
    const pyramid = [];
    for (let i = 0; i < SLOTS; i++) pyramid.push(bit(pyr, i) ? D.cards[i] : null);
    const stock = [], waste = [];
    for (let i = 0; i < 24; i++) {
      if (!bit(left, i)) continue;
      if (i >= ptr) stock.push(i);
      else if (!(drawn && i === d)) waste.push(i);
    }
    return {pyr, left, ptr, drawn, recycles, known, w, d, status, pyramid, stock, waste};
  }

  function covered(pyr, i) {
    let r = 0; while ((r + 1) * (r + 2) / 2 <= i) r++;
    if (r === 6) return false;
    const below = (r + 1) * (r + 2) / 2 + (i - r * (r + 1) / 2);
    return bit(pyr, below) || bit(pyr, below + 1);
  }

  function put(spot, el) { spot.replaceChildren(el); }

  function render() {
    const m = model(step);
    const mv = step < total ? D.moves[step] : null;
    const hl = new Set(mv ? mv.slice(2) : []);
    // The pyramid: 7 rows, each card half over the two below it.
    const pyr = $("pyramid");
    pyr.replaceChildren();
    const W = 54, H = 76, G = 8;
    for (let r = 0, i = 0; r < 7; r++) {
      for (let c = 0; c <= r; c++, i++) {
        const name = m.pyramid[i];
        let extra = "slot";
        if (name !== null && covered(m.pyr, i)) extra += " covered";
        if (hl.has(i)) extra += " hl";
        const el = card(name, extra);
        el.dataset.slot = i;
        el.style.left = ((6 - r) * (W + G) / 2 + c * (W + G)) + "px";
        el.style.top = (r * H * 0.55) + "px";
        el.style.zIndex = r + 1;
        pyr.append(el);
      }
    }
    // The stock: face down, or face up where the rules lay its top face up (msc).
    const faceUpTop = D.faceUpTop && m.d >= 0 && m.d >= m.ptr;
    let top = m.stock.length ? card("back") : card(null);
    if (faceUpTop) top = card(cycle(m.d), hl.has(STOCK) ? "hl" : "");
    put($("stock-top"), top);
    $("stock-top").classList.toggle("hl", mv !== null && mv[1] === DRAW);
    $("stock-count").textContent = m.stock.length + " card" + (m.stock.length === 1 ? "" : "s");
    // The drawn card (two-card rules).
    if (D.drawnSpot) {
      $("drawn-pile").hidden = false;
      const name = m.drawn && m.d >= 0 ? cycle(m.d) : null;
      put($("drawn"), card(name, name && hl.has(STOCK) ? "hl" : ""));
    }
    // The waste and its top.
    const wasteTop = m.w >= 0 ? cycle(m.w) : null;
    put($("waste-top"), card(wasteTop, wasteTop && hl.has(WASTE) ? "hl" : ""));
    $("waste-top").classList.toggle("hl", mv !== null && mv[1] === RECYCLE);
    $("waste-count").textContent = m.waste.length + " card" + (m.waste.length === 1 ? "" : "s");
    // The stock as this player knew it, next card first.
    const strip = $("strip");
    strip.replaceChildren();
    for (const i of m.stock) strip.append(card(bit(m.known, i) ? cycle(i) : "back"));
    // Counters, verdict, next move, note.
    $("step").textContent = step;
    $("pass").textContent = (m.recycles + 1) + "/" + (D.passes === null ? "\u221e" : D.passes);
    $("left").textContent = popcount(m.pyr);
    $("status").textContent = STATUS[m.status];
    if (A) {
      const v = WORD[A.verdicts[step]];
      $("verdict").textContent = v;
      $("verdict").className = "badge " + v;
      $("verdict").title = (A.searched[step] === "1" ? "searched" : "follows from the "
        + "positions searched") + "; the solver knows the stock order";
    }
    $("next-move").textContent = mv ? mv[0]
      : (m.status === 1 ? "none: won" : m.status === 2 ? "none: lost" : "none: end of the replay");
    const note = $("note");
    note.hidden = !(losing !== null && step === losing);
    if (!note.hidden) {
      note.textContent = "Move " + (losing + 1) + " (" + D.moves[losing][0] + "): after this "
        + "move the deal could no longer be won; " + A.better + " would have kept it winnable.";
    }
    // Timeline, slider, move list.
    const segs = $("timeline").children;
    for (let i = 0; i < segs.length; i++) segs[i].classList.toggle("cur", i === step);
    $("slider").value = step;
    $("jump").value = step;
    const items = $("moves").children;
    for (let i = 0; i < items.length; i++) {
      items[i].classList.toggle("cur", i === step);
      items[i].classList.toggle("done", i < step);
    }
    if (step < items.length) {
      const box = $("moves"), it = items[step];
      if (it.offsetTop < box.scrollTop || it.offsetTop > box.scrollTop + box.clientHeight - 20)
        box.scrollTop = it.offsetTop - box.clientHeight / 2;
    }
    $("back").disabled = $("first").disabled = step === 0;
    $("forward").disabled = $("last").disabled = step === total;
  }

  function go(k) {
    k = Math.max(0, Math.min(total, Math.round(Number(k))));
    if (Number.isNaN(k)) return;
    step = k;
    render();
  }
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").textContent = "\u25B6 play";
    $("play").setAttribute("aria-pressed", "false");
  }
  function play() {
    if (step === total) go(0);
    pause();
    timer = setInterval(() => { if (step >= total) pause(); else go(step + 1); },
      Number($("speed").value));
    $("play").textContent = "|| pause";
    $("play").setAttribute("aria-pressed", "true");
  }
  const toggle = () => (timer === null ? play() : pause());
  const by = (f) => (e) => { pause(); f(e); };  // a step by hand stops the timer

  // Build the parts that do not change with the step.
  const who = D.agent ? D.agent + " \u00b7 " : "";
  $("meta").textContent = who + D.rulesText + " \u00b7 " + D.deal;
  $("total").textContent = total;
  $("slider").max = total;
  $("jump").max = total;
  const tl = $("timeline");
  for (let i = 0; i <= total; i++) {
    const seg = document.createElement("div");
    if (A) seg.className = A.verdicts[i];
    seg.title = "after move " + i + (A ? ": " + WORD[A.verdicts[i]] : "");
    seg.addEventListener("click", by(() => go(i)));
    tl.append(seg);
  }
  if (A) {
    $("verdict-box").hidden = false;
    const s = $("summary");
    s.hidden = false;
    if (losing !== null) {
      const mark = document.createElement("div");
      mark.id = "losing-marker";
      mark.title = "move " + (losing + 1) + " (" + D.moves[losing][0] + ") lost the deal";
      mark.style.left = ((losing + 1) / (total + 1) * 100) + "%";
      mark.addEventListener("click", by(() => go(losing)));
      $("timeline-box").append(mark);
      s.textContent = "Losing move: " + (losing + 1) + " (" + D.moves[losing][0] + "); "
        + A.better + " kept it winnable. The solver knows the stock order.";
    } else {
      s.textContent = A.verdicts[0] === "l" ? "Not winnable from the start, even knowing the stock."
        : A.verdicts[total] === "w" ? "Winnable throughout." : "No losing move found "
        + "(the solver's limits ran out).";
    }
  }
  const list = $("moves");
  D.moves.forEach((mv, i) => {
    const li = document.createElement("li");
    li.textContent = (i + 1) + ". " + mv[0];
    if (i === losing) li.classList.add("losing");
    li.addEventListener("click", by(() => go(i)));
    list.append(li);
  });
  const click = (id, f) => $(id).addEventListener("click", (e) => {
    e.currentTarget.blur();  // keys then reach the page, not the button
    f();
  });
  click("first", by(() => go(0)));
  click("back", by(() => go(step - 1)));
  click("forward", by(() => go(step + 1)));
  click("last", by(() => go(total)));
  click("play", toggle);
  $("speed").addEventListener("change", (e) => {
    e.target.blur();  // Space then plays or pauses, not reopens the list
    if (timer !== null) play();
  });
  $("slider").addEventListener("input", by((e) => go(e.target.value)));
  $("jump").addEventListener("change", by((e) => go(e.target.value)));
  document.addEventListener("keydown", (e) => {
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const keys = {
      ArrowRight: by(() => go(step + 1)), ArrowLeft: by(() => go(step - 1)),
      Home: by(() => go(0)), End: by(() => go(total)), " ": toggle,
    };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); }
  });

  // For tests: what the page shows, from the same model it draws.
  window.replayState = () => {
    const m = model(step);
    return {
      step, total, losingStep: losing, playing: timer !== null, status: STATUS[m.status],
      verdict: A ? WORD[A.verdicts[step]] : null,
      pyramidCards: m.pyramid.filter((c) => c !== null),
      wasteTop: m.w >= 0 ? cycle(m.w) : null,
      second: m.d >= 0 ? cycle(m.d) : null,
      nextMove: step < total ? D.moves[step][0] : null,
    };
  };
  window.replayGo = go;
  render();
})();
"""

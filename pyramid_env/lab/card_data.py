"""Reading ``experiments/card_data``'s files: solver-labelled positions for the card network.

Kept apart from the trainer so that scripts which only read the positions (the trainer, the
analyses of a trained network) share one reader and need no torch. The script's command line
(:func:`parser`) and what it records of a file's making (:func:`recipe`) live here too.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES, NUM_MOVES, MoveKind
from pyramid_env.engine.rules import Rules
from pyramid_env.engine.state import State, is_won

TARGETS = ("verdict", "soft", "rollout", "passes")
PHASES = ("all", "hidden", "known")  # load_data: all positions, cards unseen, or all seen
PASS_CAP = 2  # recycles counted up to by default; "this many or more" beyond


def all_seen(obs: np.ndarray) -> np.ndarray:
    """Per packed observation ``(N, 122)``, whether no card is unseen: the known endgame.

    The last 13 numbers are the unseen cards of each rank (``card_data``'s ``pack_obs``).
    """
    return np.asarray(obs)[:, -13:].sum(1) == 0


def load_data(
    paths: Path | list[Path],
    positions: int | None,
    target: str = "verdict",
    gamma: float = 0.5,
    phase: str = "all",
) -> dict[str, np.ndarray]:
    """The first ``positions`` positions of card_data files (one after the other), unpacked.

    A file named ``PATH:N`` gives its first ``N`` positions only. ``target``: the Q head's
    labels, ``"verdict"`` (the true order's, 0 or 1), ``"soft"`` (``card_data --soft``'s
    shares), ``"rollout"`` (``greedy-careful``'s outcome after the move) or ``"passes"`` (the
    verdict times ``gamma`` per pass a move needs beyond the fewest); other than with
    ``"verdict"`` the verdicts stay as ``"verdict"`` (docs/learning.md tells each). ``phase``:
    one of ``PHASES``, all positions or those with a card unseen or with every card seen.
    """
    paths = [paths] if isinstance(paths, Path) else paths
    parts = []
    for path in paths:
        name, _, take = str(path).partition(":")
        if take and not take.isdigit():
            raise SystemExit(f"--data {path}: after ':' the number of positions to take")
        with np.load(name) as d:  # its recipe (how it was made) is for train_chain, not here
            part = {k: d[k] for k in d.files if k != "recipe"}
        if take:
            if int(take) > len(part["teacher"]):
                raise SystemExit(f"--data {path}: the file holds {len(part['teacher'])}")
            part = {k: v if k == "rules" else v[: int(take)] for k, v in part.items()}
        parts.append(part)
    key = None if target == "verdict" else target
    if target not in TARGETS:
        raise ValueError(f"target {target!r}: one of {', '.join(map(repr, TARGETS))}")
    if phase not in PHASES:
        raise ValueError(f"phase {phase!r}: one of {', '.join(map(repr, PHASES))}")
    if not 0.0 < gamma <= 1.0:
        raise ValueError(f"gamma {gamma}: a discount in (0, 1]")
    if key and any(key not in part for part in parts):
        flag = f"card_data --{key}"
        raise SystemExit(f"--q-target {target}: not every file of {paths} has them ({flag})")
    names = {str(part["rules"]) for part in parts}
    if len(names) > 1:
        raise SystemExit(f"--data: files of different rule sets {sorted(names)}")
    data = {k: np.concatenate([part[k] for part in parts]) for k in parts[0] if k != "rules"}
    if phase != "all":
        keep = all_seen(data["obs"]) == (phase == "known")
        data = {k: v[keep] for k, v in data.items()}
    data["rules"] = parts[0]["rules"]
    n = len(data["teacher"]) if positions is None else positions
    if n > len(data["teacher"]):
        raise SystemExit(f"--positions {n}: {paths} hold {len(data['teacher'])}")
    out = {k: v[:n] for k, v in data.items() if k != "rules"}
    out["legal"] = np.unpackbits(out["legal"], axis=1)[:, :NUM_MOVES].astype(bool)
    # float16 holds 0, 1 and the soft shares k/255 to 1e-3 at half float32's memory (millions
    # of positions x 327 moves); the batches are cast to float32
    out["wins"] = np.unpackbits(out["wins"], axis=1)[:, :NUM_MOVES].astype(np.float16)
    soft = out.pop("soft", None)
    roll = out.pop("rollout", None)
    passes = out.pop("passes", None)
    if target == "soft":
        out["verdict"] = out["wins"]  # what makes a position hard: a move lost for certain
        out["wins"] = (soft / np.float16(255)).astype(np.float16)
    elif target == "rollout":
        out["verdict"] = out["wins"]
        out["wins"] = np.unpackbits(roll, axis=1)[:, :NUM_MOVES].astype(np.float16)
    elif target == "passes":
        out["verdict"] = out["wins"]
        extra = passes.astype(np.int16)
        extra = extra - extra.min(1, keepdims=True)  # beyond the fewest (255: lost, never min)
        value = np.where(passes < 255, np.float32(gamma) ** np.minimum(extra, 16), 0.0)
        out["wins"] = value.astype(np.float16)
    out["rules"] = str(data["rules"])
    return out


def losing_move(legal: np.ndarray, verdict: np.ndarray) -> np.ndarray:
    """Per position, whether some legal move loses by the verdicts: where a choice matters.

    ``legal`` and ``verdict`` are ``(N, moves)`` (bool, or 0/1 numbers), as :func:`load_data`
    unpacks them; ``experiments/card_data.py --only-hard`` and ``train_cards --hard-share``
    both read the positions this picks.
    """
    legal = np.asarray(legal, bool)
    return (legal & np.asarray(verdict).astype(bool)).sum(1) < legal.sum(1)


def parser(description: str | None = None) -> argparse.ArgumentParser:
    """``experiments/card_data``'s command line.

    Here, not in the script, so that ``train_chain`` reads a stage's arguments with it too
    (experiment scripts never import one another).
    """
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--rules", default="msc")
    p.add_argument("--deals", type=int, default=1000, help="train deals, from the set's start")
    p.add_argument("--first", type=int, default=0, help="skip this many train deals first")
    p.add_argument("--eps", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--behaviour", type=Path, help="a card network to play instead of the teacher")
    p.add_argument(
        "--pimc",
        type=int,
        default=0,
        metavar="SAMPLES",
        help="an honest teacher: pimc's search over this many orders while cards are unseen",
    )
    p.add_argument(
        "--soft",
        type=int,
        default=0,
        metavar="ORDERS",
        help="soft labels too: each move's share of this many orders (the true one among them) "
        "still won after it, while cards are unseen",
    )
    p.add_argument(
        "--rollout",
        action="store_true",
        help="honest labels too: after which legal moves greedy-careful goes on to win the deal",
    )
    p.add_argument(
        "--scout",
        action="store_true",
        help="an honest teacher: scout's draw through the first pass, then solver-greedy once "
        "every card is seen",
    )
    p.add_argument(
        "--passes",
        type=int,
        nargs="?",
        const=PASS_CAP,
        default=0,
        metavar="CAP",
        help="pass counts too: where every card is seen and several moves keep the deal won, "
        f"the fewest further recycles each needs, counted up to CAP (default {PASS_CAP}; "
        "train_cards --q-target passes)",
    )
    p.add_argument(
        "--line",
        action="store_true",
        help="plan targets too: each card's partner in a winning line from the position "
        "(train_cards --partner)",
    )
    p.add_argument(
        "--only-hard",
        action="store_true",
        help="keep only the positions where a legal move loses (train_cards --hard-share)",
    )
    p.add_argument("--out", type=Path, required=True)
    return p


def line_partners(rules: Rules, deal: int, path: list[int]) -> np.ndarray:
    """Per step of ``path`` (a won game of ``deal``), each card's partner in the rest of it.

    Row ``t`` ``(len(path), 52)``: for the card on token ``i + 1`` (the card network's tokens:
    1-28 the slots, 29-52 the stock cycle's places), the token of the card it is removed with
    from step ``t`` on: its own for a King, 0 where the line never removes it, -1 where it was
    gone already. The line's plan, whole: which cards go together, which the stock keeps. A
    denser target than the one move the teacher plays (an auxiliary task, as KataGo's
    ownership), for the card network to learn when to wait.
    """
    s = State(deal, rules)
    events: list[tuple[int, int] | None] = []
    gone = np.zeros((len(path), 52), bool)
    for t, a in enumerate(path):
        gone[t] = np.concatenate([_bits(s.pyr, SLOTS), _bits(s.left, 24)]) == 0
        w, d = s.tops()

        def token(place: int, w: int = w, d: int = d) -> int:
            return place + 1 if place < SLOTS else 29 + (w if place == SLOTS else d)

        m = MOVES[a]
        pair = m.kind is MoveKind.PAIR
        events.append((token(m.a), token(m.b) if pair else token(m.a))
                      if pair or m.kind is MoveKind.KING else None)  # fmt: skip
        s = s.child(m)
    if not is_won(s):
        raise ValueError(f"deal {deal}: the path does not win it")
    out = np.zeros((len(path), 52), np.int8)
    now = np.zeros(53, np.int8)
    for t in reversed(range(len(path))):
        if events[t] is not None:
            a, b = events[t]
            now[a], now[b] = b, a
        out[t] = np.where(gone[t], -1, now[1:])
    return out


def _bits(mask: int, n: int) -> np.ndarray:
    """The ``n`` low bits of ``mask`` as 0/1, the lowest first (a place's card still there)."""
    return (mask >> np.arange(n)) & 1


def recipe(args: argparse.Namespace, rules: Rules) -> str:
    """What decides a file's positions, as JSON: every argument but ``--workers`` and ``--out``.

    Written into the file (``recipe``), so a file kept from an earlier run can be told apart
    from the one a command would make (``train_chain`` keeps a data file only if it matches).
    """
    made = {k: v for k, v in vars(args).items() if k not in ("workers", "out")}
    made["rules"] = rules.name  # a preset name or a spec, as the Rules it became
    made["behaviour"] = str(args.behaviour) if args.behaviour else None
    if not made.get("line"):  # added later: files made before (without it) still match
        made.pop("line", None)
    return json.dumps(made, sort_keys=True)

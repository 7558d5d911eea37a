"""Evaluate an agent on fixed deals: one call, the same numbers on every run.

Every deal is played through :class:`~pyramid_env.env.PyramidEnv` with the agent's generator
seeded from ``(seed, deal)``, so an episode never depends on the order of the deals or the
process; an agent not declared clairvoyant is shown a
:class:`~pyramid_env.agents.base.PlayerView`, so it cannot read the unseen stock order. The
solver-normalised win rate is the share of the solver's wins (shipped labels, or solved on the
spot) the agent wins; winning a deal the solver calls lost is a bug, and raises.
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents import Agent, make_agent
from pyramid_env.agents.base import PlayerView, agent_config, is_clairvoyant
from pyramid_env.engine.errors import PyramidError, is_int
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.notation import format_move
from pyramid_env.engine.rules import PRESETS, Rules, get_rules
from pyramid_env.engine.state import why_illegal
from pyramid_env.env.pyramid_env import MAX_STEPS, PyramidEnv
from pyramid_env.replay import Replay
from pyramid_env.seeds import labels, seed_set
from pyramid_env.sweep import Backend, check_backend, sweep

MAX_DEALS = 10_000_000  # an evaluation holds its episodes in memory: a bound with room to spare


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a binomial proportion (good near 0 and 1, unlike Wald)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


@dataclass(frozen=True, slots=True)
class Episode:
    """The outcome of one deal.

    Attributes:
        deal: the deal number.
        won: the goal was reached.
        pyramid_left: pyramid cards left at the end.
        moves: moves played (draws, recycles, removals).
        steps: env steps (equal to ``moves``: evaluation never plays an illegal action).
        truncated: the env cut the episode short (``max_steps``, or ``max_idle_passes`` full
            passes in a row without a removal where passes are unlimited).
        solver_won: the solver's verdict on the deal (``None`` if it ran out of time).
        cpu: CPU seconds the process spent playing the deal (agent and env; not compared:
            it varies from run to run).
    """

    deal: int
    won: bool
    pyramid_left: int
    moves: int
    steps: int
    truncated: bool
    solver_won: bool | None
    cpu: float = field(default=0.0, compare=False)


@dataclass
class Report:
    """Per-deal episodes of one agent on one seed set, and their summary."""

    agent: str
    rules: str
    observe_stock: str
    seeds: str
    episodes: list[Episode]
    seconds: float = field(default=0.0, compare=False)
    replays: dict[int, Replay] = field(default_factory=dict, compare=False)
    """The games kept with ``evaluate(..., replays=...)``, by deal number."""

    def summary(self) -> dict[str, Any]:
        """Win rate with its 95% Wilson interval, solver-normalised win rate, cards, moves."""
        eps = self.episodes
        n = len(eps)
        wins = sum(e.won for e in eps)
        winnable = [e for e in eps if e.solver_won]
        won_of_winnable = sum(e.won for e in winnable)
        lo, hi = wilson(wins, n)
        nlo, nhi = wilson(won_of_winnable, len(winnable))
        won_moves = [e.moves for e in eps if e.won]
        return {
            "agent": self.agent,
            "rules": self.rules,
            "observe_stock": self.observe_stock,
            "seeds": self.seeds,
            "deals": n,
            "wins": wins,
            "win_rate": wins / n if n else math.nan,
            "ci_low": lo,
            "ci_high": hi,
            "solver_winnable": len(winnable),
            "solver_unknown": sum(e.solver_won is None for e in eps),
            "solver_normalised": won_of_winnable / len(winnable) if winnable else math.nan,
            "norm_ci_low": nlo,
            "norm_ci_high": nhi,
            "cards_left": float(np.mean([e.pyramid_left for e in eps])) if n else math.nan,
            "moves": float(np.mean([e.moves for e in eps])) if n else math.nan,
            "moves_won": float(np.mean(won_moves)) if won_moves else math.nan,
            "truncated": sum(e.truncated for e in eps),
            "cpu_per_deal": float(np.mean([e.cpu for e in eps])) if n else math.nan,
            "seconds": self.seconds,
        }

    def rows(self) -> list[dict[str, Any]]:
        """The episodes as dicts (for CSV)."""
        return [asdict(e) for e in self.episodes]


def play_deal(
    agent: Agent, env: PyramidEnv, deal: int, seed: int = 0
) -> tuple[bool, int, int, int, bool]:
    """Play one deal to its end; ``(won, pyramid_left, moves, steps, truncated)``.

    Raises:
        ValueError: the agent chose an illegal action (named, with the reason).
    """
    return _play(agent, env, deal, seed)[0]


def _play(
    agent: Agent, env: PyramidEnv, deal: int, seed: int, record: bool = False
) -> tuple[tuple[bool, int, int, int, bool], Replay | None]:
    """:func:`play_deal`, and with ``record`` the game as a :class:`Replay`.

    The replay keeps each move and what the agent knew of the stock before it (and at the end),
    as the env's ``known_stock()`` says, so the page shows the stock as that agent saw it.
    """
    obs, info = env.reset(options={"deal": deal})
    rng = np.random.default_rng([seed, deal])
    view = PlayerView(agent, (seed, deal))  # honest agents see worlds, never the stock order
    steps, truncated = 0, False
    texts: list[str] = []
    seen: list[int] = []
    while legal := env.legal_actions():
        if record:
            seen.append(env.known_stock() & env.state.left)
        action = int(agent.act(view.turn(env.state, legal, env.known_stock(), obs), rng))
        if action not in legal:
            reason = why_illegal(env.state, MOVES[action]) if 0 <= action < len(MOVES) else None
            raise ValueError(
                f"agent {agent.name!r} chose illegal action {action} on deal {deal}: "
                f"{reason or 'out of range'}"
            )
        if record:
            texts.append(format_move(env.state, MOVES[action]))
        obs, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
    outcome = bool(info["won"]), int(info["pyramid_left"]), int(info["moves"]), steps, truncated
    if not record:
        return outcome, None
    seen.append(env.known_stock() & env.state.left)
    if len(seen) != len(texts) + 1:  # no move at all was legal at the start
        seen = seen[-1:]
    replay = Replay(env.state.deal.code, env.rules, tuple(texts), agent.name, tuple(seen))
    return outcome, replay


def _play_chunk(
    agent: Agent,
    rules: Rules,
    env_kwargs: dict[str, Any],
    seed: int,
    record: frozenset[int] | bool,
    deals: list[int],
) -> list[list[Any]]:
    """Play ``deals`` in this process (a :func:`~pyramid_env.sweep.sweep` chunk).

    One row per deal: the outcome, its CPU seconds and its replay as a dict (or ``None``); a
    replay is kept for the deals in ``record`` (for all of them if ``True``).
    """
    env = PyramidEnv(rules, **env_kwargs)
    out = []
    for n in deals:
        start = time.process_time()
        keep = record is True or (record is not False and n in record)
        outcome, replay = _play(agent, env, n, seed, keep)
        kept = replay.to_dict() if replay is not None else None
        out.append([*outcome, time.process_time() - start, kept])
    return out


def valid_result(r: Any) -> bool:
    """Whether ``r`` is one deal's row as :func:`_play_chunk` writes it (and JSON reads it back).

    ``[won, pyramid_left, moves, steps, truncated, cpu, replay or None]``, each of its type and
    range: a stored chunk is checked with it before a resumed run takes it (a file damaged or
    edited by hand is played again rather than tabled, or failing half-way).
    """
    if not isinstance(r, list) or len(r) != 7:
        return False
    won, left, moves, steps, truncated, cpu, replay = r
    return (
        isinstance(won, bool)
        and isinstance(truncated, bool)
        and all(is_int(x) for x in (left, moves, steps))
        and 0 <= left <= 28
        and 0 <= moves <= steps <= MAX_STEPS
        and isinstance(cpu, float | int)
        and not isinstance(cpu, bool)
        and math.isfinite(cpu)
        and cpu >= 0
        and (replay is None or isinstance(replay, dict))
    )


def _verdict_chunk(rules: Rules, time_limit: float | None, deals: list[int]) -> list[str]:
    """The solver's verdict per deal, ``"win"``, ``"loss"`` or ``"unknown"`` (a sweep chunk)."""
    from pyramid_env.solver import solve  # only when labels are missing

    return [solve(n, rules, time_limit=time_limit, check=False).status.value for n in deals]


def solver_labels(
    rules: Rules,
    deals: list[int],
    time_limit: float | None = 60.0,
    *,
    backend: Backend | None = None,
) -> dict[int, bool | None]:
    """The solver's verdict per deal: shipped labels where they exist, else solved now.

    The deals without a label are solved on ``backend`` (default: this process), like the
    episodes.
    """
    preset = rules.name if rules.name in PRESETS and get_rules(rules.name) == rules else None
    known = labels(preset) if preset else {}
    out: dict[int, bool | None] = {}
    missing = []
    for n in deals:
        if n in known and known[n].won is not None:
            out[n] = known[n].won
        else:
            missing.append(n)
    if missing:
        solved = sweep(
            functools.partial(_verdict_chunk, rules, time_limit),
            missing,
            backend=backend or Backend(),
        )
        for n, verdict in zip(missing, solved, strict=True):
            out[n] = None if verdict == "unknown" else verdict == "win"
    return out


def evaluate(
    agent: Agent | str,
    rules: Rules | str = "relaxed",
    seeds: str | range | list[int] = "test[:1000]",
    observe_stock: str = "seen",
    *,
    max_steps: int = 1000,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    solver_time_limit: float | None = 60.0,
    replays: bool | Iterable[int] = False,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
    store: str | Path | None = None,
    resume: bool = False,
) -> Report:
    """Play ``agent`` on every deal of ``seeds``; a :class:`Report` of outcomes and a summary.

    Where the deals run never changes the figures, only how fast they come (docs/scaling.md).

    Args:
        agent: an :class:`~pyramid_env.agents.Agent` or a ``make_agent`` name.
        rules: the env's rule set (an agent's own ``env_kwargs`` win).
        seeds: a seed-set spec (``"test[:1000]"``, ``"0-99"``) or deal numbers.
        observe_stock: the env's view of the stock (the oracles see all).
        max_steps: the env's step limit.
        seed: the agent's seed, combined with each deal number.
        workers: how many processes play the deals.
        backend: ``"local"`` or ``"ray"``.
        address: the Ray cluster to join (``backend="ray"``).
        chunk_size: deals per task handed to a worker.
        store: a directory where finished chunks are kept.
        resume: reuse the chunks ``store`` already holds.
        progress: show a bar (tqdm, the ``bench`` extra).
        solver_time_limit: bounds each verdict solved on the spot (seconds, or ``None``).
        replays: keep the games of these deals (``True``: all) as
            :class:`~pyramid_env.replay.Replay` records.

    Raises:
        PyramidError: a bad argument, before any deal is played.
        ValueError: the agent chose an illegal action.
    """
    start = time.perf_counter()
    if isinstance(agent, str):
        agent = make_agent(agent)
    named = isinstance(getattr(agent, "name", None), str)
    if not named or not callable(getattr(agent, "act", None)):
        raise PyramidError(
            f"agent={agent!r}: an agent needs a name (str) and act(turn, rng) -> action id, "
            "or give a name from pyramid_env.agents.make_agent"
        )
    for field_, value in (("seed", seed), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise PyramidError(f"{field_}={value!r} ({type(value).__name__}) must be an int")
    where = check_backend(backend, workers, address)
    if seed < 0:
        raise PyramidError(f"seed={seed} must be >= 0")
    if solver_time_limit is not None and not (
        isinstance(solver_time_limit, numbers.Real) and solver_time_limit > 0
    ):
        raise PyramidError(f"solver_time_limit={solver_time_limit!r} must be a number > 0 or None")
    rules = get_rules(rules)
    chosen = seed_set(seeds)
    if len(chosen) > MAX_DEALS:
        raise PyramidError(
            f"seeds={seeds!r} has {len(chosen):,} deals; evaluate plays at most {MAX_DEALS:,} "
            "(take a slice, such as 'train[:10000]')"
        )
    deals = list(chosen)
    record: frozenset[int] | bool
    if isinstance(replays, bool):
        record = replays
    else:
        try:
            record = frozenset(operator.index(n) for n in replays)
        except TypeError:
            raise PyramidError(
                f"replays={replays!r} must be True, False or deal numbers (ints)"
            ) from None
    env_kwargs = {"observe_stock": observe_stock, "max_steps": max_steps}
    env_kwargs |= getattr(agent, "env_kwargs", {})  # e.g. a policy's own observation form
    PyramidEnv(rules, **env_kwargs)  # every env argument checked here, before any work
    # What the agent knows of the stock order: the env's view (all that _play shows an agent
    # not declared clairvoyant), or all of it for an oracle.
    view = "clairvoyant" if is_clairvoyant(agent) else env_kwargs["observe_stock"]
    settings = {
        "agent": agent.name,  # a store knows an agent by these three
        "agent_class": f"{type(agent).__module__}.{type(agent).__qualname__}",
        "agent_config": agent_config(agent),
        "rules": rules.to_dict(),
        "env": env_kwargs,
        "seed": seed,
        "replays": record if isinstance(record, bool) else sorted(record),
    }
    play = functools.partial(_play_chunk, agent, rules, env_kwargs, seed, record)
    results = sweep(
        play,
        deals,
        backend=where,
        chunk_size=chunk_size,
        store=store,
        settings=settings,
        resume=resume,
        progress=agent.name if progress else None,
        check=valid_result,
    )
    verdicts = solver_labels(rules, deals, solver_time_limit, backend=where)
    episodes = [
        Episode(n, *r[:5], verdicts[n], cpu=r[5]) for n, r in zip(deals, results, strict=True)
    ]
    for e in episodes:
        if e.won and e.solver_won is False:
            raise RuntimeError(
                f"{agent.name} won deal {e.deal} under {rules.name}, which the solver calls "
                "lost: a bug in the solver or the engine"
            )
    label = seeds if isinstance(seeds, str) else f"{len(deals)} deals"
    kept = {
        n: Replay.from_dict(r[6]) for n, r in zip(deals, results, strict=True) if r[6] is not None
    }
    seconds = time.perf_counter() - start
    return Report(agent.name, rules.name, view, label, episodes, seconds, kept)


__all__ = [
    "Episode", "Report", "evaluate", "play_deal", "solver_labels", "valid_result", "wilson",
]  # fmt: skip

"""Paired comparison: each agent against one reference agent, deal by deal, from benchmark runs.

    pyramid-env compare results/benchmark/relaxed --reference greedy-careful

Two win rates on the same deals are not independent samples, so the table's intervals overlap
even where one agent wins every deal the other wins and a few more. Only the deals that split
the two carry the difference, so McNemar's exact test asks of them alone whether they lean one
way more than coin flips would. :func:`across_seeds` pools the runs of one recipe's seeds: their
mean share of the solver's wins, with a bootstrap interval over seeds and deals, and
:func:`seeds_against` pairs them with the reference, each deal counted once.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.benchmark.store import EPISODE_FIELDS, RUN_FILE
from pyramid_env.engine.errors import PyramidError, shorten
from pyramid_env.engine.files import read_json, read_text

DEFAULT_REFERENCE = "greedy-careful"  # the strongest rule without search: the yardstick to beat
BOOTSTRAP = 10_000  # resamples behind an interval across seeds
CHUNK = 500  # resamples drawn at once (their deal counts take CHUNK x deals numbers)
VERDICTS = {"True": True, "False": False, "": None}  # episodes.csv's solver_won ("": unknown)


@dataclass(frozen=True, slots=True)
class Runs:
    """Benchmark runs joined: what each agent won, and what the solver won, deal by deal.

    Attributes:
        won: per agent, per deal, whether it won.
        solver_won: per deal, the solver's verdict (None where it ran out of budget).
    """

    won: dict[str, dict[int, bool]]
    solver_won: dict[int, bool | None]


@dataclass(frozen=True, slots=True)
class Paired:
    """One agent against the reference on the deals both played.

    Attributes:
        agent: the agent's name in the runs.
        reference: the agent it is paired with.
        deals: the deals both played.
        agent_wins: the deals the agent won.
        reference_wins: the deals the reference won.
        both: the deals both won.
        only_agent: the deals the agent won and the reference lost.
        only_reference: the deals the reference won and the agent lost.
        p_value: McNemar's exact two-sided p: the split deals as fair coin flips.
    """

    agent: str
    reference: str
    deals: int
    agent_wins: int
    reference_wins: int
    both: int
    only_agent: int
    only_reference: int
    p_value: float

    def to_dict(self) -> dict[str, Any]:
        """The row as a dict of JSON values."""
        return asdict(self)


def mcnemar(only_a: int, only_b: int) -> float:
    """McNemar's exact two-sided p-value for ``only_a`` and ``only_b`` split deals.

    Under the null hypothesis each split deal goes either way with chance 1/2, so the smaller
    count is a binomial tail; doubled, capped at 1.

    Raises:
        ValueError: a negative count.
    """
    if only_a < 0 or only_b < 0:
        raise ValueError(f"split deals {only_a}, {only_b}: counts, at least 0")
    n, k = only_a + only_b, min(only_a, only_b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def _csv_path(source: Path) -> Path:
    return source / "episodes.csv" if source.is_dir() else source


def read_runs(sources: Sequence[Path]) -> Runs:
    """The rows of every source, joined.

    A source is a benchmark folder (its ``episodes.csv``; its ``run.json``, where there is
    one, names the rules, which must agree across folders) or an episodes CSV file.

    Raises:
        PyramidError: a source missing or not an episodes CSV, two sources of other rules,
            an agent with two results for one deal, or a deal the solver wins in one source
            and loses in another (not the same deals or rules), each named.
    """
    if not sources:
        raise PyramidError("compare: no runs given; pass benchmark folders or episodes CSVs")
    agents: dict[str, dict[int, bool]] = {}
    solver: dict[int, bool | None] = {}
    rules: dict[str, Path] = {}
    for source in sources:
        settings = source / RUN_FILE
        if source.is_dir() and settings.exists():
            saved = read_json(settings, "run settings")
            name = saved.get("rules") if isinstance(saved, dict) else None
            if isinstance(name, str):
                rules.setdefault(name, source)
        if len(rules) > 1:
            (a, pa), (b, pb) = list(rules.items())[:2]
            raise PyramidError(f"compare: {pa} is a run of {a!r} and {pb} of {b!r}; pair runs "
                               "of one rule set")  # fmt: skip
        for row in _rows(_csv_path(source)):
            where = f"{_csv_path(source)}: agent {shorten(row['agent'])}, deal {row['deal']}"
            try:
                deal = int(row["deal"])
            except ValueError:
                raise PyramidError(f"{where}: the deal is not a number") from None
            if row["won"] not in ("True", "False") or row["solver_won"] not in VERDICTS:
                raise PyramidError(f"{where}: won {shorten(row['won'])}, solver_won "
                                   f"{shorten(row['solver_won'])}: True or False (solver_won "
                                   "also empty)")  # fmt: skip
            verdict = VERDICTS[row["solver_won"]]
            if solver.setdefault(deal, verdict) != verdict:
                raise PyramidError(f"{where}: the solver's verdict differs from another "
                                   "run's; pair runs of the same deals and rules")  # fmt: skip
            won = agents.setdefault(row["agent"], {})
            if won.setdefault(deal, row["won"] == "True") != (row["won"] == "True"):
                raise PyramidError(f"{where}: played twice with other results")
    return Runs(agents, solver)


def _rows(path: Path) -> list[dict[str, str]]:
    """The rows of one episodes CSV, its columns checked."""
    try:
        text = read_text(path, "episodes CSV")
    except OSError as err:
        raise PyramidError(f"compare: {path}: {err.strerror or err}") from err
    reader = csv.DictReader(io.StringIO(text))
    try:
        rows = list(reader)
    except csv.Error as err:
        raise PyramidError(f"compare: {path} is not a CSV file ({err})") from err
    if tuple(reader.fieldnames or ()) != EPISODE_FIELDS:
        raise PyramidError(f"compare: {path} has the columns {shorten(reader.fieldnames, 200)}, "
                           f"not a benchmark's episodes ({', '.join(EPISODE_FIELDS)})")  # fmt: skip
    return rows


def _check_names(runs: Runs, names: Sequence[str]) -> None:
    for name in names:
        if name not in runs.won:
            raise PyramidError(f"compare: agent {name!r} is not in the runs; they hold "
                               f"{', '.join(sorted(runs.won))}")  # fmt: skip


def compare(
    runs: Runs,
    reference: str = DEFAULT_REFERENCE,
    agents: Sequence[str] | None = None,
) -> list[Paired]:
    """Each agent (``agents``, or every other one in ``runs``) paired with ``reference``.

    Raises:
        PyramidError: ``reference`` or an agent not in the runs, or an agent that did not
            play the reference's deals, naming what is there.
    """
    _check_names(runs, [reference, *(agents or ())])
    ref = runs.won[reference]
    rows = []
    for name in agents or [n for n in runs.won if n != reference]:
        eps = runs.won[name]
        if set(eps) != set(ref):
            missing = len(set(ref) - set(eps)) + len(set(eps) - set(ref))
            raise PyramidError(f"compare: {name!r} and {reference!r} did not play the same "
                               f"deals ({missing} played by one only)")  # fmt: skip
        a = {d for d, won in eps.items() if won}
        b = {d for d, won in ref.items() if won}
        only_a, only_b = len(a - b), len(b - a)
        rows.append(Paired(name, reference, len(eps), len(a), len(b), len(a & b), only_a,
                           only_b, mcnemar(only_a, only_b)))  # fmt: skip
    return rows


def markdown(rows: Sequence[Paired]) -> str:
    """The rows as a markdown table, one agent a line."""
    if not rows:
        return "(no agent besides the reference)\n"
    ref = rows[0].reference
    lines = [
        f"| agent | deals | agent wins | `{ref}` wins | both | only the agent | only `{ref}` "
        "| McNemar p |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r.agent} | {r.deals} | {r.agent_wins} | {r.reference_wins} | {r.both} "
                     f"| {r.only_agent} | {r.only_reference} | {r.p_value:.3g} |")  # fmt: skip
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class Seeds:
    """Several seeds of one recipe, pooled: their share of the solver's wins.

    Attributes:
        agents: the seeds' agent names.
        deals: the deals the solver wins (the share's denominator).
        per_seed: each seed's share of them.
        mean: the mean over the seeds.
        low: the 2.5th percentile of the bootstrap's means.
        high: the 97.5th.
    """

    agents: tuple[str, ...]
    deals: int
    per_seed: tuple[float, ...]
    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """The row as a dict of JSON values."""
        return asdict(self)


def across_seeds(runs: Runs, agents: Sequence[str], reps: int = BOOTSTRAP, seed: int = 0) -> Seeds:
    """The seeds ``agents`` of one recipe: mean share of the solver's wins, 95% interval.

    Each resample draws the seeds with replacement (rliable's bootstrap over runs) and the
    solver's winning deals with replacement, the same deals for every seed (they played the
    same ones), so the interval carries both the seeds' spread and the deals' luck. With
    three seeds the seeds' part alone would be their range.

    Raises:
        PyramidError: an agent not in the runs, one that did not play every deal the solver
            wins, no deal the solver wins, or ``reps`` below 1.
    """
    _check_names(runs, agents)
    if not agents or reps < 1:
        raise PyramidError(f"compare: {len(agents)} seeds, {reps} resamples: at least 1 each")
    winnable = sorted(d for d, v in runs.solver_won.items() if v)
    if not winnable:
        raise PyramidError("compare: the solver wins none of the runs' deals: no share to take")
    for name in agents:
        if missing := [d for d in winnable if d not in runs.won[name]]:
            raise PyramidError(f"compare: {name!r} did not play {len(missing)} of the deals "
                               f"the solver wins (deal {missing[0]} first)")  # fmt: skip
    won = np.array([[runs.won[a][d] for d in winnable] for a in agents], dtype=np.float64)
    rng = np.random.default_rng(seed)
    n, k = len(winnable), len(agents)
    means = np.empty(reps)
    for start in range(0, reps, CHUNK):  # in chunks: a resample's deal counts are n numbers
        m = min(CHUNK, reps - start)
        counts = rng.multinomial(n, np.full(n, 1.0 / n), size=m)  # (m, n): deals drawn
        shares = counts @ won.T / n  # (m, k): each seed's share on each resample's deals
        picks = rng.integers(0, k, size=(m, k))  # seeds drawn
        means[start : start + m] = np.take_along_axis(shares, picks, 1).mean(1)
    per_seed = won.mean(1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Seeds(tuple(agents), n, tuple(float(x) for x in per_seed), float(per_seed.mean()),
                 float(low), float(high))  # fmt: skip


@dataclass(frozen=True, slots=True)
class SeedsPaired:
    """Several seeds of one recipe against a reference agent (or its seeds), deal by deal.

    Attributes:
        agents: the seeds' agent names.
        reference: the agents they are paired with (one, or the seeds of another recipe).
        deals: the deals all of them played.
        ahead: deals the seeds win more often than the reference (mean against mean).
        behind: deals they win less often.
        p_value: the sign test's exact two-sided p over those deals (:func:`mcnemar`).
    """

    agents: tuple[str, ...]
    reference: tuple[str, ...]
    deals: int
    ahead: int
    behind: int
    p_value: float

    def to_dict(self) -> dict[str, Any]:
        """The row as a dict of JSON values."""
        return asdict(self)


def seeds_against(runs: Runs, agents: Sequence[str], reference: Sequence[str]) -> SeedsPaired:
    """The seeds ``agents`` of one recipe paired with ``reference``, one test over the deals.

    Each seed's own McNemar test counts its deals, but the seeds played the same deals, so
    pooling their split deals would count a deal up to once a seed, as if it were that many
    independent deals. Here a deal counts once: the seeds' mean win on it against the
    reference's (one agent, or the mean of another recipe's seeds), a sign test over the deals
    where the two differ.

    Raises:
        PyramidError: an agent or a reference not in the runs, or no deal all of them played.
    """
    _check_names(runs, [*reference, *agents])
    deals = set.intersection(*(set(runs.won[a]) for a in [*reference, *agents]))
    if not agents or not deals:
        raise PyramidError(f"compare: {len(agents)} seeds and {len(deals)} deals all played")
    ahead = behind = 0
    for d in deals:
        ours = sum(runs.won[a][d] for a in agents) / len(agents)
        theirs = sum(runs.won[r][d] for r in reference) / len(reference)
        ahead, behind = ahead + (ours > theirs), behind + (ours < theirs)
    return SeedsPaired(tuple(agents), tuple(reference), len(deals), ahead, behind,
                       mcnemar(ahead, behind))  # fmt: skip


def seeds_paired_markdown(rows: Sequence[SeedsPaired]) -> str:
    """Seeds paired with a reference as a markdown table, one recipe a line."""
    lines = [
        "| seeds | against | deals | deals they win more often | less often | sign test p |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {', '.join(r.agents)} | {', '.join(r.reference)} | {r.deals} "
                     f"| {r.ahead} | {r.behind} | {r.p_value:.3g} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def seeds_markdown(rows: Sequence[Seeds]) -> str:
    """Pooled seeds as a markdown table, one recipe a line."""
    lines = [
        "| seeds | solver wins | each seed | mean | 95% interval (seeds and deals) |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        each = ", ".join(f"{x:.3f}" for x in r.per_seed)
        lines.append(f"| {', '.join(r.agents)} | {r.deals} | {each} | {r.mean:.3f} "
                     f"| [{r.low:.3f}, {r.high:.3f}] |")  # fmt: skip
    return "\n".join(lines) + "\n"


__all__ = [
    "BOOTSTRAP",
    "DEFAULT_REFERENCE",
    "Paired",
    "Runs",
    "Seeds",
    "SeedsPaired",
    "across_seeds",
    "compare",
    "markdown",
    "mcnemar",
    "read_runs",
    "seeds_against",
    "seeds_markdown",
    "seeds_paired_markdown",
]

"""The benchmark: every agent on the same fixed deals, as a table, CSVs and a chart.

    pyramid-env benchmark                                  # relaxed, test[:1000], all agents
    pyramid-env benchmark --rules msc --agents greedy solver --seeds "val[:200]"

Default agents: every baseline, the search agents that play the rules, every shipped agent
trained for the rules, and the solver (the clairvoyant ceiling). Each is run through
:func:`pyramid_env.evaluate` on the same deals. Agents come in five kinds
(:func:`agent_kind`): ``baseline``, ``search``, ``learned``, ``hybrid`` and ``clairvoyant``; the
table, the CSV and the chart group them in that order, so a learned agent is read against the
baselines above it and the ceiling below it.

A run first prints its plan (rules, deals, stock view, workers, agents by kind, output folder),
so a mistyped option shows before minutes of work; then progress bars; then the table once.
Output folder (``--out``, default ``results/benchmark/<rules>``): ``benchmark.md`` (the table),
``benchmark.csv`` (one row per agent), ``episodes.csv`` (one row per agent and deal) and
``benchmark.png`` (win rate and solver-normalised win rate with their 95% intervals, coloured by
kind; needs matplotlib, the ``bench`` extra), and ``replays/<agent>/``: for each agent a few
deals it lost that the solver wins, as pages with the losing move marked (``--replays``). While
an agent plays, its finished chunks of deals are kept in ``chunks/<agent>/`` (``--resume`` takes
them up after a stop); they go once its rows are written.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import importlib.util
import io
import json
import math
import os
import platform
import re
import shutil
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents import (
    BASELINES,
    ORACLES,
    SEARCH,
    TRAINED_SEARCH,
    LookaheadAgent,
    Turn,
    load_network,
    make_agent,
    shipped,
)
from pyramid_env.engine.deal import MAX_DEAL
from pyramid_env.engine.errors import PyramidError, describe, shorten
from pyramid_env.engine.files import read_json, read_text, write_atomic
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.env.actions import N_ACTIONS
from pyramid_env.env.pyramid_env import MAX_STEPS, PyramidEnv
from pyramid_env.evaluation import MAX_DEALS, Episode, Report, evaluate
from pyramid_env.seeds import seed_set
from pyramid_env.sweep import MAX_WORKERS, SETTINGS_FILE, Backend, check_backend

# The kinds of agent, in table order, with what sets each apart (the note under the table says
# it, so a reader does not compare a clairvoyant agent with the rest unawares). "learned" is a
# network alone: observation in, move out, no search, no solver, no hand-written rule; a network
# whose moves a hand-written rule ranks or vetoes is "hybrid".
KINDS: dict[str, str] = {
    "baseline": "hand-written rules",
    "search": "looks ahead over what a player knows, value-* with a learned leaf value",
    "learned": "a trained network alone",
    "hybrid": "a trained network and a hand-written rule's ranking of moves",
    "clairvoyant": "reads the stock order: the ceiling",
}
HYBRID = ("expit",)  # shipped files' "kind"s that play a network within a rule's ranking
FILES = ("benchmark.md", "benchmark.csv", "episodes.csv", "benchmark.png")
MAX_REPLAYS = 1000  # pages per agent: each is a deal played again and solved position by position
RUN_FILE = "run.json"  # the settings of the run that wrote the folder, for --resume
DIGESTS = "digests.json"  # per agent, the SHA-256 of its rows: the agents done (see Store)


def machine() -> str:
    """A one-line description of this machine (CPU model, cores, Python), for result notes."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


@functools.cache
def _shipped_meta() -> dict[str, dict[str, Any]]:
    """``shipped()``, read once per process: a run asks about every agent, and help lists all."""
    return shipped()


def _meta(name: str) -> dict[str, Any] | None:
    """A trained agent's metadata (a .npz path or a shipped name, as ``make_agent`` reads them).

    ``None`` for any other name, known or not.
    """
    path = Path(name)
    if path.suffix == ".npz" and path.is_file():
        return load_network(path).meta
    return _shipped_meta().get(name)


def known_agents() -> dict[str, list[str]]:
    """Every agent that can be named, by kind (for help text and the unknown-agent message)."""
    out: dict[str, list[str]] = {kind: [] for kind in KINDS}
    out["baseline"] += BASELINES
    out["search"] += SEARCH
    for name, meta in _shipped_meta().items():
        out[_trained_kind(meta)].append(name)
    out["clairvoyant"] += ORACLES
    return out


def _unknown_agent(name: object) -> PyramidError:
    """The error for a name no agent answers to, listing every name that does."""
    known = [n for group in known_agents().values() for n in group]
    return PyramidError(
        f"unknown agent {shorten(name)}: one of {', '.join(known)}, or the path of a .npz"
    )


def agent_kind(name: str) -> str:
    """Which of the kinds (:data:`KINDS`) the agent ``name`` is.

    The kind says what an agent's figures can be compared with: ``baseline`` (hand-written
    rules), ``search`` (looks ahead over what a player knows; a shipped value network is one,
    with a learned leaf value), ``learned`` (a network alone: another shipped agent or a .npz
    path), ``hybrid`` (a network that plays within a hand-written rule's ranking of moves, as
    ``expit-msc`` does) and ``clairvoyant`` (reads the stock order: the ceiling, not a rival).

    Args:
        name: an agent name as ``make_agent`` takes it, or a path to a .npz file.

    Returns:
        ``"baseline"``, ``"search"``, ``"learned"``, ``"hybrid"`` or ``"clairvoyant"``.

    Raises:
        PyramidError: an unknown name, listing the known ones (a run checks every name before
            it starts, rather than fail after the agents before it have played).
    """
    if name in BASELINES:
        return "baseline"
    if name in SEARCH:
        return "search"
    if name in ORACLES:
        return "clairvoyant"
    meta = _meta(name)
    if meta is None:
        raise _unknown_agent(name)
    return _trained_kind(meta)


def _trained_kind(meta: dict[str, Any]) -> str:
    """A trained agent's kind from its metadata's ``kind``."""
    if meta.get("kind") in TRAINED_SEARCH:
        return "search"
    return "hybrid" if meta.get("kind") in HYBRID else "learned"


def default_agents(rules: str | Rules) -> list[str]:
    """The agents a benchmark of ``rules`` runs when none are named.

    Every baseline, the search baselines that support ``rules``, the shipped learned agents
    trained for exactly these rules (a preset changed by knobs has a name of its own), and the
    solver.
    """
    played = get_rules(rules)
    search = [name for name, cls in SEARCH.items() if cls.supports(played)]
    learned = [name for name, meta in shipped().items() if meta.get("rules") == played.name]
    return [*BASELINES, *search, *learned, "solver"]


def by_kind(agents: list[str]) -> list[str]:
    """``agents`` grouped by kind in :data:`KINDS` order, keeping the given order within a kind.

    Raises:
        PyramidError: an unknown agent name (from :func:`agent_kind`).
    """
    order = list(KINDS)
    return sorted(agents, key=lambda name: order.index(agent_kind(name)))


def _kind(summary: dict[str, Any]) -> str:
    """A summary's kind: as :func:`run` records it, else from the agent's name."""
    return summary.get("kind") or agent_kind(summary["agent"])


def markdown(summaries: list[dict[str, Any]]) -> str:
    """The results table in markdown, one row per summary, in the order given."""
    lines = [
        "| agent | kind | stock order | win rate | 95% CI | solver-normalised | 95% CI "
        "| cards left | moves (won) | CPU / deal | time |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        cpu = s.get("cpu_per_deal", math.nan)
        norm = _figure(s["solver_normalised"], ".1%")  # n/a: no deal of the set is winnable
        span = "n/a" if norm == "n/a" else f"{s['norm_ci_low']:.1%} – {s['norm_ci_high']:.1%}"
        lines.append(
            f"| {s['agent']} | {_kind(s)} | {s['observe_stock']} | {s['win_rate']:.1%} | "
            f"{s['ci_low']:.1%} – {s['ci_high']:.1%} | {norm} | {span} | "
            f"{_figure(s['cards_left'], '.2f')} | {_figure(s['moves_won'], '.0f')} | "
            f"{_figure(1000 * cpu, '.1f')} ms | {s['seconds']:.0f} s |"
        )
    return "\n".join(lines)


def _figure(value: float, spec: str) -> str:
    """``value`` formatted, or ``n/a`` where there is none (a mean over no won deal: nan)."""
    return "n/a" if math.isnan(value) else format(value, spec)


def _count(n: int, noun: str, plural: str = "") -> str:
    """``n`` and the noun, plural unless ``n`` is 1: ``"1 deal"``, ``"1,000 deals"``."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def _where(backend: Backend) -> str:
    """Where the deals are played, in words: ``"2 processes per agent"``."""
    if backend.name == "local":
        return f"{_count(backend.workers, 'process', 'processes')} per agent"
    if backend.address:
        return f"Ray tasks on the cluster at {backend.address}"
    return f"Ray tasks on a local Ray instance of {_count(backend.workers, 'CPU')}"


def plan(
    rules: str | Rules,
    seeds: str,
    agents: list[str],
    observe_stock: str,
    out: str | Path,
    workers: int | Backend,
    replays: int = 0,
) -> str:
    """What a run is about to do, printed before any work so a wrong option shows at once.

    Args:
        rules: a preset name or ``Rules``.
        seeds: the seed-set spec.
        agents: the agent names, in the order they will run.
        observe_stock: ``"seen"`` or ``"full"``.
        out: the output folder.
        workers: processes per agent, or a :class:`~pyramid_env.sweep.Backend`.
        replays: lost-but-winnable deals kept as pages per agent.

    Returns:
        A block of lines: rules, deals, stock view, workers, agents by kind, output folder.

    Raises:
        PyramidError: an unknown preset, seed spec or agent name.
    """
    n = len(seed_set(seeds))
    where = _where(workers if isinstance(workers, Backend) else Backend("local", workers))
    view = {"seen": "the cards turned so far", "full": "the whole order"}.get(observe_stock, "")
    groups: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for name in agents:
        kind = agent_kind(name)
        trained = kind in ("learned", "hybrid")
        trained_view = (_meta(name) or {}).get("observe_stock") if trained else None
        # A policy plays with the stock view it was trained on (evaluate() honours it): say so
        # where it differs from the run's, or its row's "stock order" would surprise.
        extra = f" (sees {trained_view})" if trained_view and trained_view != observe_stock else ""
        groups[kind].append(name + extra)
    listed = [f"{kind}: {', '.join(names)}" for kind, names in groups.items() if names]
    chart = importlib.util.find_spec("matplotlib") is not None  # find_spec does not import it
    files = ", ".join(FILES if chart else [*FILES[:-1], "no chart: matplotlib is not installed"])
    lines = [
        f"Benchmark plan: {_count(len(agents), 'agent')}, each on the same {_count(n, 'deal')}",
        f"  rules        {get_rules(rules).describe()}",
        f"  deals        {seeds} ({_count(n, 'deal')})",
        f"  stock order  {observe_stock}: agents see {view}; trained policies keep the view they",
        "               were trained with; clairvoyant agents read the whole order",
        f"  workers      {where}",
        f"  agents       {listed[0] if listed else '(none)'}",
        *(f"               {line}" for line in listed[1:]),
        f"  output       {out}/ ({files})",
    ]
    if replays:
        lines.append(
            f"  replays      up to {replays} lost deals the solver wins per agent, as pages with "
            f"the losing move marked, in {out}/replays/"
        )
    return "\n".join(lines)


# One colour per kind (Okabe-Ito, distinguishable with the common colour-vision deficiencies).
KIND_COLOURS = {
    "baseline": "#56B4E9",
    "search": "#009E73",
    "learned": "#E69F00",
    "hybrid": "#F0E442",
    "clairvoyant": "#CC79A7",
}


def plot(summaries: list[dict[str, Any]], path: Path, title: str) -> bool:
    """Draw the two rates side by side, coloured by kind; False if matplotlib is missing.

    Left: the win rate with its 95% Wilson interval. Right: the solver-normalised win rate
    (share of the winnable deals won) with its interval. Both panels list the agents in the
    order given, so a row reads across; the colours and the legend tell the kinds apart, so a
    clairvoyant ceiling is not mistaken for a rival.

    Args:
        summaries: rows as :func:`run` returns them (a missing ``kind`` is worked out).
        path: the PNG to write.
        title: the figure's title.

    Returns:
        True if the chart was written.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        return False
    names = [s["agent"] for s in summaries]
    kinds = [_kind(s) for s in summaries]
    panels = (
        ("win_rate", "ci_low", "ci_high", "win rate", "% of the deals"),
        (
            "solver_normalised",
            "norm_ci_low",
            "norm_ci_high",
            "solver-normalised win rate",
            "% of the deals the solver wins",
        ),
    )
    fig, axes = plt.subplots(
        1, 2, sharey=True, figsize=(10, 0.38 * len(names) + 1.8), layout="constrained"
    )
    for ax, (key, low, high, name, unit) in zip(axes, panels, strict=True):
        for i, (s, kind) in enumerate(zip(summaries, kinds, strict=True)):
            rate = s[key]
            if math.isnan(rate):  # no deal of the set is winnable (or none was played)
                ax.text(1, i, "n/a", va="center", fontsize=8)
                continue
            # Clamped: at 100% the interval's top can round a hair below the rate.
            err = [[max(0.0, 100 * (rate - s[low]))], [max(0.0, 100 * (s[high] - rate))]]
            ax.barh(i, 100 * rate, xerr=err, color=KIND_COLOURS[kind], height=0.7, capsize=2.5)
            ax.text(100 * s[high] + 1.5, i, f"{rate:.1%}", va="center", fontsize=8)
        ax.set_xlim(0, 116)
        ax.set_xticks(range(0, 101, 20))
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(f"{unit}, 95% Wilson interval", fontsize=9)
    axes[0].set_yticks(range(len(names)), names)
    axes[0].set_ylim(len(names) - 0.5, -0.5)  # first agent at the top
    present = [kind for kind in KINDS if kind in kinds]
    fig.legend(
        handles=[Patch(color=KIND_COLOURS[k], label=k) for k in present],
        loc="outside lower center",
        ncols=len(present),
        frameon=False,
        fontsize=9,
    )
    fig.suptitle(title, fontsize=11)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _is_known(name: str) -> bool:
    """A name ``make_agent`` can resolve (its file may still turn out broken)."""
    if name in BASELINES or name in SEARCH or name in ORACLES or name in _shipped_meta():
        return True
    return name.endswith(".npz") and Path(name).is_file()


def _from_file(name: str) -> bool:
    """An agent read from a file: a user's .npz or a shipped network."""
    return name.endswith(".npz") or name in _shipped_meta()


def _make_agents(names: list[str]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Every named agent built now, before any deal is played.

    An unknown name is an error (a typo: nothing runs). An agent whose file exists but cannot
    be used (a damaged or missing shipped file, a .npz that is empty, corrupted or not a
    policy) is skipped with the reason, naming the file, so one bad file does not cost the rest
    of the table.
    """
    made: dict[str, Any] = {}
    skipped: list[tuple[str, str]] = []
    for name in names:
        if not isinstance(name, str) or not _is_known(name):
            raise _unknown_agent(name)
        try:
            made[name] = make_agent(name)
        except PyramidError as err:
            skipped.append((name, str(err)))
        except Exception as err:  # numpy and zlib raise anything on bad bytes
            if not _from_file(name):
                raise
            skipped.append((name, _file_error(name, err)))
    return made, skipped


def _file_error(name: str, err: BaseException) -> str:
    """Why the agent file ``name`` cannot be used, naming it (numpy's own message names none)."""
    return f"agent file {name!r} cannot be used ({type(err).__name__}: {shorten(str(err), 200)})"


def _probe(agent: Any, name: str, rules: Rules, observe_stock: str, deal: int) -> None:
    """One decision of an agent read from a file, on the run's first deal, before any work.

    A network of the wrong shape (weights that do not fit the observation, a value network
    given as a policy) otherwise fails mid-run, after other agents played, or worse, plays:
    one output broadcast over 327 actions picks the first legal one every time.

    Raises:
        PyramidError: naming the file and what is wrong.
    """
    env = PyramidEnv(rules, **({"observe_stock": observe_stock} | getattr(agent, "env_kwargs", {})))
    obs, _ = env.reset(options={"deal": deal})
    if callable(getattr(agent, "logits", None)):
        size = np.asarray(agent.logits(obs)).size
        if size != N_ACTIONS:
            hint = " (a value network?)" if size == 1 else ""
            raise PyramidError(
                f"agent file {name!r}: its network gives {size} outputs for an observation; a "
                f"policy gives {N_ACTIONS}, one per action{hint}"
            )
    legal = env.legal_actions()
    if legal:
        turn = Turn(env.state, legal, env.known_stock(), obs)
        action = agent.act(turn, np.random.default_rng(0))
        if action not in legal:
            raise PyramidError(
                f"agent file {name!r}: chose action {action!r} on deal {deal}, not a legal one"
            )


def _labels(names: list[str]) -> dict[str, str]:
    """The name each agent's rows go under: unique, so no result hides another.

    A .npz plays under its file's stem, unless the stem is another agent's name (a user's
    ``greedy.npz`` beside, or instead of, the baseline ``greedy``) or another file's stem: then
    under its path as given.

    Raises:
        PyramidError: an agent given twice (the same name, or the same file by two paths).
    """
    known = {n for group in known_agents().values() for n in group} | set(names)
    files = [n for n in names if n.endswith(".npz")]
    stems = Counter(Path(n).stem for n in files)
    labels: dict[str, str] = {}
    seen: dict[Path, str] = {}
    for name in names:
        if name in labels:
            raise PyramidError(f"agent {shorten(name)} is given twice in --agents")
        if name not in files:
            labels[name] = name
            continue
        where = Path(name).resolve()
        if where in seen:
            raise PyramidError(
                f"agent file {name!r} is given twice in --agents (also as {seen[where]!r})"
            )
        seen[where] = name
        stem = Path(name).stem
        labels[name] = stem if stems[stem] == 1 and stem not in known else name
    return labels


def folder_name(label: str) -> str:
    """The folder of an agent's chunks and pages: its label, or a slug of it and a hash.

    A label of letters, digits, ``.``, ``_`` and ``-`` is used as it is; any other (a path) as
    those characters and 8 hex digits of its hash, so two labels never share a folder (``a/b``
    and ``a_b`` would, with ``/`` replaced).
    """
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", label):
        return label
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("._-")[-40:] or "agent"
    return f"{slug}-{hashlib.sha256(label.encode()).hexdigest()[:8]}"


def _writable(out: Path) -> None:
    """Make the output folder and prove it takes files, before any work."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        raise PyramidError(f"--out {str(out)!r} cannot be written: {err.strerror or err}") from err


# -- the output folder as a store: every file written whole, every file checked when read -------
SUMMARY_FIELDS = (
    "agent", "kind", "rules", "observe_stock", "seeds", "deals", "wins", "win_rate", "ci_low",
    "ci_high", "solver_winnable", "solver_unknown", "solver_normalised", "norm_ci_low",
    "norm_ci_high", "cards_left", "moves", "moves_won", "truncated", "cpu_per_deal", "seconds",
)  # fmt: skip
EPISODE_FIELDS = (
    "agent", "deal", "won", "pyramid_left", "moves", "steps", "truncated", "solver_won", "cpu",
)  # fmt: skip
VIEWS = ("seen", "full", "clairvoyant")


def _cell(value: Any) -> str:
    """A value as ``csv`` writes it (None as empty): what a stored cell must equal."""
    return "" if value is None else str(value)


def _csv_text(fields: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(fields), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def _read_csv(path: Path, fields: tuple[str, ...]) -> list[dict[str, str]]:
    """The rows of one of the folder's CSV files; none if it is missing.

    A last line without its newline (a write cut short by a full disk, in an older version)
    is dropped, and so is any row of the wrong width: their agents play again.

    Raises:
        PyramidError: a file that is not this CSV (another header, not text), named.
    """
    if not path.exists():
        return []
    try:
        text = read_text(path, path.name)
    except (OSError, PyramidError) as err:
        raise PyramidError(f"--resume: {err}; remove it, or run without --resume") from err
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]  # the cut line
    reader = csv.DictReader(io.StringIO(text))
    try:
        rows = list(reader)
    except csv.Error as err:
        raise PyramidError(f"--resume: {path} is not a CSV file ({err})") from err
    if rows and tuple(reader.fieldnames or ()) != fields:
        raise PyramidError(
            f"--resume: {path} has the columns {shorten(reader.fieldnames, 200)}, not those "
            f"a benchmark writes ({', '.join(fields)}); remove it, or run without --resume"
        )
    return [r for r in rows if None not in r and None not in r.values()]


_INT_TEXT = re.compile(r"-?[0-9]{1,20}")


def _int_cell(text: str, low: int, high: int) -> int:
    if not _INT_TEXT.fullmatch(text) or not low <= int(text) <= high:
        raise ValueError(f"{shorten(text)} is not a whole number in {low}..{high:,}")
    return int(text)


def _bool_cell(text: str, none: bool = False) -> bool | None:
    if none and text == "":
        return None
    if text not in ("True", "False"):
        raise ValueError(f"{shorten(text)} is not True or False")
    return text == "True"


def _episode(row: dict[str, str], deals: set[int]) -> Episode:
    """One row of episodes.csv, checked: each cell of its type, in its range, a deal of the run.

    Raises:
        ValueError: the first cell that is not.
    """
    deal = _int_cell(row["deal"], 0, MAX_DEAL)
    if deal not in deals:
        raise ValueError(f"deal {deal} is not one of the run's")
    cpu = float(row["cpu"])
    if not math.isfinite(cpu) or cpu < 0:
        raise ValueError(f"cpu {shorten(row['cpu'])} is not a number of seconds")
    return Episode(
        deal,
        bool(_bool_cell(row["won"])),
        _int_cell(row["pyramid_left"], 0, 28),
        _int_cell(row["moves"], 0, MAX_STEPS),
        _int_cell(row["steps"], 0, MAX_STEPS),
        bool(_bool_cell(row["truncated"])),
        _bool_cell(row["solver_won"], none=True),
        cpu=cpu,
    )


def _finished(
    label: str,
    row: dict[str, str],
    episodes: list[dict[str, str]],
    settings: dict[str, Any],
    deals: list[int],
    view: str | None,
    kind: str | None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An agent's stored summary and episodes, checked against each other and the run.

    Every episode must be a deal of the run, once, all of them, each cell in range; the summary
    must be what those episodes give (so a cell changed by hand, ``pyramid_left`` 99 or
    ``abc``, is caught), with the run's rules and deals, the agent's kind and stock view.

    Returns:
        The summary row and the episode rows, as a fresh run writes them.

    Raises:
        ValueError: what does not hold, for the warning.
    """
    eps = [_episode(e, set(deals)) for e in episodes]
    if [e.deal for e in eps] != deals:
        raise ValueError(f"{len(eps)} episodes of the run's {len(deals)} deals")
    seconds = float(row["seconds"])
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"seconds {shorten(row['seconds'])} is not a time")
    if row["kind"] not in KINDS or (kind is not None and row["kind"] != kind):
        raise ValueError(f"kind {shorten(row['kind'])} is not {kind or 'a kind'}")
    if row["observe_stock"] not in VIEWS or (view is not None and row["observe_stock"] != view):
        raise ValueError(f"observe_stock {shorten(row['observe_stock'])} is not {view}")
    report = Report(label, settings["rules"], row["observe_stock"], settings["seeds"], eps)
    summary = {"agent": label, "kind": row["kind"]} | report.summary() | {"seconds": seconds}
    for key in SUMMARY_FIELDS:
        if key != "seconds" and _cell(summary[key]) != row[key]:
            raise ValueError(f"{key} is {shorten(row[key])}, its episodes give {summary[key]}")
    return summary, [{"agent": label} | e for e in report.rows()]


class Store:
    """The output folder: the agents' rows, kept in memory and written whole after each agent.

    ``episodes.csv``, ``benchmark.csv`` (one row per agent) and ``digests.json`` are rewritten
    in that order, each atomically (a temporary file, then a rename). ``digests.json`` holds,
    per agent, a SHA-256 of its rows in the two CSV files: an agent is done once it is listed
    there with the digest of rows that are in the files, so a row changed or cut since (by
    hand, a full disk, a stop between two writes) makes its agent play again. Rows are kept in
    table order, so a resumed run writes the same files as an uninterrupted one. (A folder of
    an older version, without digests, has its rows checked against each other alone.)
    """

    def __init__(self, out: Path) -> None:
        """An empty store of ``out``: :meth:`load` reads what a stopped run left."""
        self.out = out
        self.summaries: dict[str, dict[str, Any]] = {}
        self.episodes: dict[str, list[dict[str, Any]]] = {}

    def load(
        self,
        settings: dict[str, Any],
        deals: list[int],
        expect: dict[str, tuple[str | None, str | None]],
    ) -> list[str]:
        """Take the agents a stopped run finished, each checked; return why others play again.

        Args:
            settings: the run's settings (rules, seeds).
            deals: the run's deals, in order.
            expect: per label of this run, its stock view and kind (an earlier run's agent
                not in this run is kept as it was written, checked against its episodes).
        """
        rows = _read_csv(self.out / "benchmark.csv", SUMMARY_FIELDS)
        episodes: dict[str, list[dict[str, str]]] = {}
        for e in _read_csv(self.out / "episodes.csv", EPISODE_FIELDS):
            episodes.setdefault(e["agent"], []).append(e)
        digests, why = self._digests()
        for row in rows:
            label = row["agent"]
            if label in self.summaries:
                why.append(f"{label}: two rows in benchmark.csv")
                continue
            view, kind = expect.get(label, (None, None))
            try:
                if digests is not None and digests.get(label) != _digest(
                    row, episodes.get(label, [])
                ):
                    raise ValueError(f"not the rows {DIGESTS} lists (changed, cut or unfinished)")
                summary, eps = _finished(
                    label, row, episodes.get(label, []), settings, deals, view, kind
                )
            except (ValueError, KeyError) as err:
                why.append(f"{label}: {shorten(str(err), 200)}")
                continue
            self.summaries[label], self.episodes[label] = summary, eps
        return why

    def _digests(self) -> tuple[dict[str, str] | None, list[str]]:
        """``digests.json`` as a dict, ``None`` if absent (an older folder); and any warning.

        A damaged file lists no agent: every agent plays again (time lost, no result).
        """
        path = self.out / DIGESTS
        if not path.exists():
            return None, []
        try:
            data = read_json(path, "digests")
        except (OSError, PyramidError) as err:
            return {}, [f"every agent: {shorten(str(err), 200)}"]
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            return {}, [f"every agent: {path} is not a dict of digests"]
        return data, []

    def add(self, label: str, summary: dict[str, Any], episodes: list[dict[str, Any]]) -> None:
        """Record an agent's rows (:meth:`write` puts them in the files)."""
        self.summaries[label], self.episodes[label] = summary, episodes

    def order(self, labels: list[str]) -> list[str]:
        """Every agent held, in table order: ``labels`` (this run's), by kind.

        An agent an earlier run finished that is not among ``labels`` keeps its place: after
        the agent its row followed, or first.
        """
        order = [a for a in labels if a in self.summaries]
        before = None
        for a in self.summaries:  # in the order the files held them, then as added
            if a not in order:
                order.insert(order.index(before) + 1 if before in order else 0, a)
            before = a
        kinds = list(KINDS)
        return sorted(order, key=lambda a: kinds.index(self.summaries[a]["kind"]))

    def write(self, labels: list[str]) -> None:
        """Both CSV files, whole, in table order; episodes first (see the class docstring)."""
        order = self.order(labels)
        eps = [e for a in order for e in self.episodes[a]]
        write_atomic(self.out / "episodes.csv", _csv_text(EPISODE_FIELDS, eps))
        rows = [self.summaries[a] for a in order]
        write_atomic(self.out / "benchmark.csv", _csv_text(SUMMARY_FIELDS, rows))
        digests = {a: _digest(self.summaries[a], self.episodes[a]) for a in order}
        write_atomic(self.out / DIGESTS, json.dumps(digests, indent=1) + "\n")


def _digest(row: dict[str, Any], episodes: list[dict[str, Any]]) -> str:
    """SHA-256 of an agent's rows as the CSV files hold them (read back or about to be written)."""
    text = _csv_text(SUMMARY_FIELDS, [row]) + _csv_text(EPISODE_FIELDS, episodes)
    return hashlib.sha256(text.encode()).hexdigest()


def _read_settings(out: Path) -> dict[str, Any]:
    """``run.json``: the settings of the run that wrote ``out``, checked.

    Raises:
        PyramidError: no such file, or not the settings a benchmark writes, naming it.
    """
    path = out / RUN_FILE
    try:
        earlier = read_json(path, "run settings")
    except (OSError, PyramidError) as err:
        raise PyramidError(
            f"--resume: {out} holds no benchmark to resume ({err}); run without --resume"
        ) from err
    types = {"rules": str, "seeds": str, "deals": int, "observe_stock": str}
    if (
        not isinstance(earlier, dict)
        or set(earlier) != set(types)
        or not all(type(earlier[k]) is t for k, t in types.items())
    ):
        raise PyramidError(
            f"--resume: {path} holds {describe(earlier)}, not a benchmark's settings (a dict "
            f"of {', '.join(types)}); remove the folder, or run without --resume"
        )
    return earlier


def _clean(out: Path) -> None:
    """Remove what a stop can leave: temporary files of writes cut short, the write probe."""
    for stale in [*out.glob(".*.tmp"), *out.glob("*/*/.*.tmp"), out / ".write-test"]:
        stale.unlink(missing_ok=True)


def _view(agent: Any, observe_stock: str) -> str:
    """What ``agent`` sees of the stock order in its rows (as ``evaluate`` reports it)."""
    if getattr(agent, "clairvoyant", False):
        return "clairvoyant"
    return getattr(agent, "env_kwargs", {}).get("observe_stock", observe_stock)


def run(
    rules: str | Rules = "relaxed",
    seeds: str = "test[:1000]",
    agents: list[str] | None = None,
    observe_stock: str = "seen",
    out: str | Path | None = None,
    workers: int = 2,
    progress: bool = True,
    resume: bool = False,
    replays: int = 3,
    backend: str = "local",
    address: str | None = None,
) -> list[dict[str, Any]]:
    """Evaluate each agent on the deals, write the outputs and return the summaries.

    Every argument is checked and every agent built (an agent read from a file makes one
    decision) before any deal is played; the plan is printed; then each agent's rows are
    written to ``benchmark.csv`` and ``episodes.csv`` as soon as it finishes, after its replay
    pages (a run stopped at any moment keeps what it did, and ``resume=True`` goes on from
    there, to the same files as a run never stopped); then the table is printed once, with the
    note and the files. Every file is written whole or not at all (a temporary file, then a
    rename).

    Args:
        rules: a preset name, or ``Rules`` (a preset changed by knobs: ``get_rules("msc",
            passes=2)``, named ``"msc passes=2"``).
        seeds: a seed-set spec, such as ``"test[:1000]"``.
        agents: agent names or .npz paths; default :func:`default_agents`. They run and are
            tabled grouped by kind (:func:`by_kind`). A .npz plays under its file's stem,
            or under its path where the stem is another agent's name.
        observe_stock: ``"seen"`` or ``"full"``, what the non-trained agents see of the stock.
        out: the output folder; default ``results/benchmark/<rules name>`` (spaces as ``_``).
        workers: processes per agent, 1 to :data:`~pyramid_env.sweep.MAX_WORKERS`.
        progress: show progress bars (needs tqdm, the ``bench`` extra).
        resume: keep the agents an earlier run with the same settings finished in ``out``
            (their rows checked: an agent whose rows do not hold up plays again), repair
            their missing replay pages, and take up the chunks of deals the agent it stopped
            in had finished. Agents of the earlier run not named now stay in the table.
        replays: for each agent, this many of the deals it lost that the solver wins are
            played again, kept and analysed: ``out/replays/<agent>/deal-<n>.html`` (the page,
            with the move after which the deal could no longer be won marked) and ``.json``
            (the replay). 0 for none.
        backend: ``"local"`` (``workers`` processes here) or ``"ray"`` (Ray tasks, the ``ray``
            extra: a local Ray instance of ``workers`` CPUs, or the cluster at ``address``).
            Either way each finished chunk of deals is kept in ``out/chunks/<agent>/`` until
            the agent's rows are written, so ``resume`` loses none.
        address: a Ray cluster's address, for ``backend="ray"``.

    Returns:
        One summary per agent (``Report.summary()`` with a ``kind``), in table order.

    Raises:
        PyramidError: an unknown preset, seed spec or agent, an agent given twice, a search
            agent the rules do not allow, an output folder that cannot be written, or nothing
            to resume; all before any work. An agent whose file is damaged is skipped with a
            warning instead.
    """
    start = time.time()
    preset = get_rules(rules)  # an unknown preset fails here, before any work
    rules = preset.name  # from here on the rules travel as `preset`, named by `rules`
    chosen = seed_set(seeds)
    n = len(chosen)
    if n > MAX_DEALS:
        raise PyramidError(f"--seeds {seeds!r} has {n:,} deals; at most {MAX_DEALS:,}")
    if observe_stock not in ("seen", "full"):
        raise PyramidError(f"--observe-stock {shorten(observe_stock)}: one of seen, full")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise PyramidError(
            f"--workers {shorten(workers)} must be an int >= 1, at most {MAX_WORKERS}"
        )
    where = check_backend(backend, workers, address)
    if isinstance(replays, bool) or not isinstance(replays, int) or not 0 <= replays <= MAX_REPLAYS:
        raise PyramidError(f"--replays {shorten(replays)} must be an int in 0..{MAX_REPLAYS:,}")
    if out is not None and not str(out).strip():
        raise PyramidError("--out '' names no folder: give one, or leave --out out for the default")
    names = list(agents or default_agents(preset))
    labels = _labels([x for x in names if isinstance(x, str)])
    made, skipped = _make_agents(names)
    for name in made:  # a search agent fails on its first move under other rules: fail now
        # A shipped search file plays as its kind's agent (a value network: lookahead).
        kind = (_meta(name) or {}).get("kind")
        searcher = SEARCH.get(name) or TRAINED_SEARCH.get(kind, LookaheadAgent)
        if agent_kind(name) == "search" and not searcher.supports(preset):
            raise PyramidError(f"{name} searches free-stock rules only, not {rules}")
    for name in [x for x in made if _from_file(x)]:
        try:
            _probe(made[name], name, preset, observe_stock, chosen[0])
        except Exception as err:  # any failure of a file's network: skip it
            why = str(err) if isinstance(err, PyramidError) else _file_error(name, err)
            skipped.append((name, why))
            del made[name]
    names = by_kind(list(made))
    for name in names:
        made[name].name = labels[name]  # the rows, the pages and the chunks go under it
    out = Path(out or Path("results") / "benchmark" / rules.replace(" ", "_"))
    _writable(out)
    settings = {"rules": rules, "seeds": seeds, "deals": n, "observe_stock": observe_stock}
    store = Store(out)
    order = [labels[name] for name in names]
    replay_again: list[str] = []
    if resume:
        earlier = _read_settings(out)
        if earlier != settings:
            diff = {k: (earlier.get(k), v) for k, v in settings.items() if earlier.get(k) != v}
            raise PyramidError(
                f"--resume: {out / RUN_FILE} holds a benchmark of other settings "
                f"({shorten(diff, 2000)}: "
                "(then, now)); use another --out, or run without --resume to start again"
            )
        _clean(out)
        expect = {labels[x]: (_view(made[x], observe_stock), agent_kind(x)) for x in names}
        replay_again = store.load(settings, list(chosen), expect)
    print(plan(preset, seeds, names, observe_stock, out, where, replays), flush=True)
    if store.summaries:
        print(f"  resumed      {', '.join(store.order(order))} (from {out}/)")
    for name, why in skipped:
        print(f"warning: skipping agent {name}: {why}", file=sys.stderr, flush=True)
    for why in replay_again:
        print(f"warning: rows of {why}: the agent plays again", file=sys.stderr, flush=True)
    if not resume:  # a fresh run: the files start empty, then grow agent by agent
        for stale in (*FILES, DIGESTS):
            (out / stale).unlink(missing_ok=True)
        shutil.rmtree(out / "replays", ignore_errors=True)
        shutil.rmtree(out / "chunks", ignore_errors=True)
        write_atomic(out / RUN_FILE, json.dumps(settings) + "\n")
    else:
        store.write(order)  # without the rows that did not hold up
        for name in names:  # pages a stop cut short, or lost: written again from the episodes
            label = labels[name]
            if label in store.summaries and replays:
                eps = [Episode(**{k: v for k, v in e.items() if k != "agent"})
                       for e in store.episodes[label]]  # fmt: skip
                report = Report(label, rules, observe_stock, seeds, eps)
                _write_replays(made[name], preset, report, observe_stock, replays, out, True)
            if label in store.summaries:  # done: its chunks, if a stop left them, are not needed
                shutil.rmtree(out / "chunks" / folder_name(label), ignore_errors=True)
    todo = [name for name in names if labels[name] not in store.summaries]
    bar = None
    if progress and len(todo) > 1:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="agents", unit="agent", leave=False)
    for name in todo:
        label = labels[name]
        chunks = out / "chunks" / folder_name(label)
        report = evaluate(
            made[name],
            preset,
            seeds,
            observe_stock,
            workers=workers,
            progress=progress,
            backend=where.name,
            address=where.address,
            store=chunks,
            resume=(chunks / SETTINGS_FILE).exists(),  # only after a stop: a fresh run cleared it
        )
        # Pages first, then the rows: the summary row is what marks an agent done.
        if replays:
            _write_replays(made[name], preset, report, observe_stock, replays, out)
        row = {"agent": label, "kind": agent_kind(name)} | report.summary()
        store.add(label, row, [{"agent": label} | e for e in report.rows()])
        store.write(order)
        shutil.rmtree(chunks, ignore_errors=True)  # the rows hold it all now
        if bar:
            bar.update()
    if bar:
        bar.close()
    shutil.rmtree(out / "chunks", ignore_errors=True)  # every agent's rows are written
    summaries = [store.summaries[a] for a in store.order(order)]
    kinds = ", ".join(f"{kind} ({why})" for kind, why in KINDS.items())
    missing = f"; skipped (unusable files): {', '.join(a for a, _ in skipped)}" if skipped else ""
    note = textwrap.fill(
        f"`{rules}`, deals {seeds} ({n}); stock order: what each agent may see of it "
        f"(`seen`: cards turned so far; `full`: all; `clairvoyant`: the oracles); kind: "
        f"{kinds}; {machine()}; {_where(where)}; {time.time() - start:.0f} s wall"
        f"{missing}",
        width=100,
        break_on_hyphens=False,
    )
    table = markdown(summaries)
    write_atomic(out / "benchmark.md", f"{table}\n\n{note}\n")
    drew = _plot_atomic(summaries, out / "benchmark.png", f"{rules}: {n} deals of {seeds}")
    written = [f for f in FILES if drew or f != "benchmark.png"]
    if (out / "replays").is_dir():
        written.append("replays/")
    print(f"\n{table}\n\n{note}")
    print(
        f"written to {out}/: {', '.join(written)}"
        + ("" if drew else " (no chart: matplotlib is not installed)")
    )
    return summaries


def _plot_atomic(summaries: list[dict[str, Any]], path: Path, title: str) -> bool:
    """:func:`plot` to a temporary file, then renamed: never half a chart."""
    tmp = path.with_name(f".{path.stem}.tmp.png")
    try:
        drew = plot(summaries, tmp, title)
        if drew:
            os.replace(tmp, path)
        return drew
    finally:
        tmp.unlink(missing_ok=True)


def _write_replays(
    agent: Any,
    rules: Rules,
    report: Report,
    observe_stock: str,
    count: int,
    out: Path,
    missing_only: bool = False,
) -> None:
    """Replays of the first ``count`` deals ``agent`` lost that the solver wins, analysed.

    The deals are played again with their replays kept (an episode depends only on the agent,
    the deal and the seed, so it is the same game; checked), then each is analysed (the solver
    marks the move after which the deal was lost) and written as a JSON file and a page, each
    whole or not at all. With ``missing_only``, only the deals one of whose two files is
    missing (a resumed run repairs what a stop cut short).
    """
    from pyramid_env.replay import analyse, write_html

    where = out / "replays" / folder_name(report.agent)
    lost = [e for e in report.episodes if e.solver_won and not e.won][:count]
    if missing_only:
        lost = [
            e for e in lost
            if not all((where / f"deal-{e.deal}.{x}").is_file() for x in ("json", "html"))
        ]  # fmt: skip
    if not lost:
        return
    again = evaluate(agent, rules, [e.deal for e in lost], observe_stock, replays=True)
    if again.episodes != lost:
        raise RuntimeError(f"{report.agent}: replaying deals {[e.deal for e in lost]} gave "
                           "other games than the benchmark's")  # fmt: skip
    where.mkdir(parents=True, exist_ok=True)
    for n, replay in again.replays.items():
        replay.save(where / f"deal-{n}.json")
        write_html(replay, where / f"deal-{n}.html", analyse(replay))


__all__ = [
    "KINDS",
    "agent_kind",
    "by_kind",
    "default_agents",
    "known_agents",
    "machine",
    "markdown",
    "plan",
    "plot",
    "run",
]

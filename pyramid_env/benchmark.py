"""The benchmark: every agent on the same fixed deals, as a table, CSVs and a chart.

    pyramid-env benchmark                                  # relaxed, test[:1000], all agents
    pyramid-env benchmark --rules msc --agents greedy solver --seeds "val[:200]"

Default agents: every baseline, the search agents that play the rules, every shipped agent
trained for the rules, and the solver (the clairvoyant ceiling). Each is run through
:func:`pyramid_env.evaluate` on the same deals. Agents come in four kinds (:func:`agent_kind`):
``baseline``, ``search``, ``learned`` and ``clairvoyant``; the table, the CSV and the chart
group them in that order, so a learned agent is read against the baselines above it and the
ceiling below it.

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
import importlib.util
import json
import math
import os
import platform
import shutil
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from pyramid_env.agents import (
    BASELINES,
    ORACLES,
    SEARCH,
    TRAINED_SEARCH,
    LookaheadAgent,
    MLPPolicy,
    make_agent,
    shipped,
)
from pyramid_env.engine.errors import PyramidError
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.evaluation import MAX_DEALS, Report, evaluate
from pyramid_env.seeds import seed_set
from pyramid_env.sweep import SETTINGS_FILE, Backend, check_backend

# The four kinds of agent, in table order, with what sets each apart (the note under the table
# says it, so a reader does not compare a clairvoyant agent with the rest unawares).
KINDS: dict[str, str] = {
    "baseline": "hand-written rules",
    "search": "looks ahead over what a player knows, value-* with a learned leaf value",
    "learned": "a trained policy network",
    "clairvoyant": "reads the stock order: the ceiling",
}
FILES = ("benchmark.md", "benchmark.csv", "episodes.csv", "benchmark.png")
RUN_FILE = "run.json"  # the settings of the run that wrote the folder, for --resume


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
        return MLPPolicy.load(path).meta
    return _shipped_meta().get(name)


def known_agents() -> dict[str, list[str]]:
    """Every agent that can be named, by kind (for help text and the unknown-agent message)."""
    out: dict[str, list[str]] = {kind: [] for kind in KINDS}
    out["baseline"] += BASELINES
    out["search"] += SEARCH
    for name, meta in _shipped_meta().items():
        out["search" if meta.get("kind") in TRAINED_SEARCH else "learned"].append(name)
    out["clairvoyant"] += ORACLES
    return out


def _unknown_agent(name: object) -> PyramidError:
    """The error for a name no agent answers to, listing every name that does."""
    known = [n for group in known_agents().values() for n in group]
    return PyramidError(f"unknown agent {name!r}: one of {', '.join(known)}, or the path of a .npz")


def agent_kind(name: str) -> str:
    """Which of the four kinds (:data:`KINDS`) the agent ``name`` is.

    The kind says what an agent's figures can be compared with: ``baseline`` (hand-written
    rules), ``search`` (looks ahead over what a player knows; a shipped value network is one,
    with a learned leaf value), ``learned`` (a trained policy: another shipped agent or a .npz
    path) and ``clairvoyant`` (reads the stock order, so it is the ceiling, not a rival).

    Args:
        name: an agent name as ``make_agent`` takes it, or a path to a .npz file.

    Returns:
        ``"baseline"``, ``"search"``, ``"learned"`` or ``"clairvoyant"``.

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
    return "search" if meta.get("kind") in TRAINED_SEARCH else "learned"


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
        lines.append(
            f"| {s['agent']} | {_kind(s)} | {s['observe_stock']} | {s['win_rate']:.1%} | "
            f"{s['ci_low']:.1%} – {s['ci_high']:.1%} | "
            f"{s['solver_normalised']:.1%} | {s['norm_ci_low']:.1%} – {s['norm_ci_high']:.1%} | "
            f"{s['cards_left']:.2f} | {s['moves_won']:.0f} | {1000 * cpu:.1f} ms | "
            f"{s['seconds']:.0f} s |"
        )
    return "\n".join(lines)


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
        trained_view = (_meta(name) or {}).get("observe_stock") if kind == "learned" else None
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


def _make_agents(names: list[str]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Every named agent built now, before any deal is played.

    An unknown name is an error (a typo: nothing runs). An agent whose file exists but cannot
    be used (a damaged or missing shipped file, a .npz that is not a policy) is skipped with the
    reason, so one bad file does not cost the rest of the table.
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
    return made, skipped


def _writable(out: Path) -> None:
    """Make the output folder and prove it takes files, before any work."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        raise PyramidError(f"--out {str(out)!r} cannot be written: {err.strerror or err}") from err


def _csv_value(text: str) -> Any:
    """A summary value read back from benchmark.csv (numbers as numbers)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _previous(out: Path, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """The summaries a resumed run keeps: those of an earlier run with the same settings.

    Raises:
        PyramidError: the folder holds a run of other settings (mixing them would give a table
            of incomparable rows), or no run at all.
    """
    try:
        earlier = json.loads((out / RUN_FILE).read_text())
        rows = []
        if (out / "benchmark.csv").exists():  # none if stopped during the first agent
            with open(out / "benchmark.csv", newline="") as f:
                # A row cut short by a stop mid-write has missing (None) or extra fields: the
                # agent did not finish, so it plays again.
                rows = [
                    {k: _csv_value(v) for k, v in row.items()}
                    for row in csv.DictReader(f)
                    if None not in row and None not in row.values()
                ]
    except (OSError, ValueError) as err:
        raise PyramidError(
            f"--resume: {out} holds no benchmark to resume ({err}); run without --resume"
        ) from err
    if earlier != settings:
        diff = {k: (earlier.get(k), v) for k, v in settings.items() if earlier.get(k) != v}
        raise PyramidError(
            f"--resume: {out} holds a benchmark of other settings ({diff}: (then, now)); "
            "use another --out, or run without --resume to start again"
        )
    return rows


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

    Every argument is checked and every agent built before any deal is played; the plan is
    printed; then each agent's rows are appended to ``benchmark.csv`` and ``episodes.csv`` as
    soon as it finishes (a run stopped half-way keeps what it did, and ``resume=True`` goes on
    from there); then the table is printed once, with the note and the files.

    Args:
        rules: a preset name, or ``Rules`` (a preset changed by knobs: ``get_rules("msc",
            passes=2)``, named ``"msc passes=2"``).
        seeds: a seed-set spec, such as ``"test[:1000]"``.
        agents: agent names or .npz paths; default :func:`default_agents`. They run and are
            tabled grouped by kind (:func:`by_kind`).
        observe_stock: ``"seen"`` or ``"full"``, what the non-trained agents see of the stock.
        out: the output folder; default ``results/benchmark/<rules name>`` (spaces as ``_``).
        workers: processes per agent.
        progress: show progress bars (needs tqdm, the ``bench`` extra).
        resume: keep the agents an earlier run with the same settings finished in ``out``,
            and the chunks of deals the agent it stopped in had finished.
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
        PyramidError: an unknown preset, seed spec or agent, a search agent the rules do not
            allow, an output folder that cannot be written, or nothing to resume; all before
            any work. An agent whose file is damaged is skipped with a warning instead.
    """
    start = time.time()
    preset = get_rules(rules)  # an unknown preset fails here, before any work
    rules = preset.name  # from here on the rules travel as `preset`, named by `rules`
    n = len(seed_set(seeds))
    if n > MAX_DEALS:
        raise PyramidError(f"--seeds {seeds!r} has {n:,} deals; at most {MAX_DEALS:,}")
    if observe_stock not in ("seen", "full"):
        raise PyramidError(f"--observe-stock {observe_stock!r}: one of seen, full")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise PyramidError(f"--workers {workers!r} must be an int >= 1")
    where = check_backend(backend, workers, address)
    if isinstance(replays, bool) or not isinstance(replays, int) or replays < 0:
        raise PyramidError(f"--replays {replays!r} must be an int >= 0")
    made, skipped = _make_agents(list(agents or default_agents(preset)))
    names = by_kind(list(made))
    for name in names:  # a search agent fails on its first move under other rules: fail now
        # A shipped search file plays as its kind's agent (a value network: lookahead).
        kind = (_meta(name) or {}).get("kind")
        searcher = SEARCH.get(name) or TRAINED_SEARCH.get(kind, LookaheadAgent)
        if agent_kind(name) == "search" and not searcher.supports(preset):
            raise PyramidError(f"{name} searches free-stock rules only, not {rules}")
    out = Path(out or Path("results") / "benchmark" / rules.replace(" ", "_"))
    _writable(out)
    settings = {"rules": rules, "seeds": seeds, "deals": n, "observe_stock": observe_stock}
    done = {row["agent"]: row for row in _previous(out, settings)} if resume else {}
    if resume:
        _keep_episodes(out / "episodes.csv", set(done))
    print(plan(preset, seeds, names, observe_stock, out, where, replays), flush=True)
    if done:
        kept = [a for a in names if made[a].name in done]
        print(f"  resumed      {', '.join(kept) or '(none)'} (from {out}/)")
    for name, why in skipped:
        print(f"warning: skipping agent {name}: {why}", file=sys.stderr, flush=True)
    if not resume:  # a fresh run: the files start empty, then grow agent by agent
        (out / RUN_FILE).write_text(json.dumps(settings) + "\n")
        for stale in FILES:
            (out / stale).unlink(missing_ok=True)
        shutil.rmtree(out / "replays", ignore_errors=True)
        shutil.rmtree(out / "chunks", ignore_errors=True)
    # Rows are keyed by the agent's own name (a .npz path plays as its file's stem).
    todo = [name for name in names if made[name].name not in done]
    bar = None
    if progress and len(todo) > 1:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="agents", unit="agent", leave=False)
    for name in todo:
        chunks = out / "chunks" / made[name].name.replace("/", "_")
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
        row = done[report.agent] = {"agent": report.agent, "kind": agent_kind(name)}
        row |= report.summary()
        # Episodes first: the summary row is what marks an agent done for --resume.
        _append(out / "episodes.csv", [{"agent": report.agent} | e for e in report.rows()])
        _append(out / "benchmark.csv", [row])
        shutil.rmtree(chunks, ignore_errors=True)  # the rows hold it all now
        if replays:
            _write_replays(made[name], preset, report, observe_stock, replays, out / "replays")
        if bar:
            bar.update()
    if bar:
        bar.close()
    shutil.rmtree(out / "chunks", ignore_errors=True)  # every agent's rows are written
    summaries = [done[made[name].name] for name in names]
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
    (out / "benchmark.md").write_text(f"{table}\n\n{note}\n")
    drew = plot(summaries, out / "benchmark.png", f"{rules}: {n} deals of {seeds}")
    written = [f for f in FILES if drew or f != "benchmark.png"]
    if (out / "replays").is_dir():
        written.append("replays/")
    print(f"\n{table}\n\n{note}")
    print(
        f"written to {out}/: {', '.join(written)}"
        + ("" if drew else " (no chart: matplotlib is not installed)")
    )
    return summaries


def _write_replays(
    agent: Any, rules: Rules, report: Report, observe_stock: str, count: int, folder: Path
) -> None:
    """Replays of the first ``count`` deals ``agent`` lost that the solver wins, analysed.

    The deals are played again with their replays kept (an episode depends only on the agent,
    the deal and the seed, so it is the same game; checked), then each is analysed (the solver
    marks the move after which the deal was lost) and written as a page and a JSON file.
    """
    from pyramid_env.replay import analyse, write_html

    lost = [e for e in report.episodes if e.solver_won and not e.won][:count]
    if not lost:
        return
    again = evaluate(agent, rules, [e.deal for e in lost], observe_stock, replays=True)
    if again.episodes != lost:
        raise RuntimeError(f"{report.agent}: replaying deals {[e.deal for e in lost]} gave "
                           "other games than the benchmark's")  # fmt: skip
    where = folder / report.agent.replace("/", "_")
    where.mkdir(parents=True, exist_ok=True)
    for n, replay in again.replays.items():
        replay.save(where / f"deal-{n}.json")
        write_html(replay, where / f"deal-{n}.html", analyse(replay))


def _keep_episodes(path: Path, agents: set[str]) -> None:
    """Drop the episodes of agents that did not finish (a stop between the two files)."""
    if not path.exists():
        return
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, [r for r in reader if r.get("agent") in agents]
    if not fields or not rows:  # nothing to keep: the next agent's rows start the file
        path.unlink()
        return
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def _append(path: Path, rows: list[dict[str, Any]]) -> None:
    """Append rows to a CSV file, with the header when the file is new."""
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        if new:
            w.writeheader()
        w.writerows(rows)


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

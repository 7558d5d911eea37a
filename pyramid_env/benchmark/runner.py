"""The benchmark's run: every agent on the same fixed deals, as a table, CSVs, a chart and pages.

:func:`run` checks every argument and builds every agent, prints the plan, plays the agents one
after another through :func:`pyramid_env.evaluate` (each agent's rows written as soon as it
finishes, so ``resume`` goes on after a stop), then prints the table once.
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from pyramid_env.agents import SEARCH, TRAINED_SEARCH, LookaheadAgent
from pyramid_env.agents.catalogue import (
    KINDS,
    agent_kind,
    agent_meta,
    by_kind,
    default_agents,
    from_file,
)
from pyramid_env.benchmark.chart import plot_atomic
from pyramid_env.benchmark.planning import plan, where_played
from pyramid_env.benchmark.roster import agent_labels, file_error, make_agents, probe
from pyramid_env.benchmark.store import (
    DIGESTS,
    FILES,
    RUN_FILE,
    Store,
    check_writable,
    clean,
    folder_name,
    read_settings,
)
from pyramid_env.benchmark.table import machine, markdown
from pyramid_env.engine.errors import PyramidError, shorten
from pyramid_env.engine.files import write_atomic
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.evaluation import MAX_DEALS, Episode, Report, evaluate
from pyramid_env.seeds import seed_set
from pyramid_env.sweep import MAX_WORKERS, SETTINGS_FILE, check_backend

MAX_REPLAYS = 1000  # pages per agent: each is a deal played again and solved position by position


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

    Everything is checked and every agent built before any deal is played; each agent's rows
    are written as soon as it finishes, each file whole, so a run stopped at any moment resumes
    (the docs' evaluation page describes the folder, ``resume`` and the replay pages).

    Args:
        rules: a preset name, or ``Rules`` (a preset changed by knobs: ``"msc passes=2"``).
        seeds: a seed-set spec, such as ``"test[:1000]"``.
        agents: agent names or .npz paths (default :func:`default_agents`), run by kind.
        observe_stock: ``"seen"`` or ``"full"``, what the non-trained agents see of the stock.
        out: the output folder; default ``results/benchmark/<rules name>`` (spaces as ``_``).
        workers: processes per agent, 1 to :data:`~pyramid_env.sweep.MAX_WORKERS`.
        progress: show progress bars (needs tqdm, the ``bench`` extra).
        resume: go on with the run of the same settings that stopped in ``out``.
        replays: per agent, how many lost deals the solver wins to keep as analysed pages.
        backend: ``"local"`` (``workers`` processes here) or ``"ray"`` (the ``ray`` extra).
        address: a Ray cluster's address, for ``backend="ray"``.

    Returns:
        One summary per agent (``Report.summary()`` with a ``kind``), in table order.

    Raises:
        PyramidError: bad input of any kind, before any work (an agent whose file is damaged
            is skipped with a warning instead).
    """
    start = time.time()
    played = get_rules(rules)  # the Rules played (an unknown preset fails here, before any work)
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
    names = list(agents or default_agents(played))
    labels = agent_labels([x for x in names if isinstance(x, str)])
    made, skipped = make_agents(names)
    for name in made:  # a search agent fails on its first move under other rules: fail now
        # A shipped search file plays as its kind's agent (a value network: lookahead).
        kind = (agent_meta(name) or {}).get("kind")
        searcher = SEARCH.get(name) or TRAINED_SEARCH.get(kind, LookaheadAgent)
        if agent_kind(name) == "search" and not searcher.supports(played):
            raise PyramidError(f"{name} searches free-stock rules only, not {played.name}")
    for name in [x for x in made if from_file(x)]:
        try:
            probe(made[name], name, played, observe_stock, chosen[0])
        except Exception as err:  # any failure of a file's network: skip it
            why = str(err) if isinstance(err, PyramidError) else file_error(name, err)
            skipped.append((name, why))
            del made[name]
    names = by_kind(list(made))
    for name in names:
        made[name].name = labels[name]  # the rows, the pages and the chunks go under it
    out = Path(out or Path("results") / "benchmark" / played.name.replace(" ", "_"))
    check_writable(out)
    settings = {"rules": played.name, "seeds": seeds, "deals": n, "observe_stock": observe_stock}
    store = Store(out)
    order = [labels[name] for name in names]
    replay_again: list[str] = []
    if resume:
        earlier = read_settings(out)
        if earlier != settings:
            diff = {k: (earlier.get(k), v) for k, v in settings.items() if earlier.get(k) != v}
            raise PyramidError(
                f"--resume: {out / RUN_FILE} holds a benchmark of other settings "
                f"({shorten(diff, 2000)}: "
                "(then, now)); use another --out, or run without --resume to start again"
            )
        clean(out)
        expect = {labels[x]: (_view(made[x], observe_stock), agent_kind(x)) for x in names}
        replay_again = store.load(settings, list(chosen), expect)
    print(plan(played, seeds, names, observe_stock, out, where, replays), flush=True)
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
                report = Report(label, played.name, observe_stock, seeds, eps)
                _write_replays(made[name], played, report, observe_stock, replays, out, True)
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
            played,
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
            _write_replays(made[name], played, report, observe_stock, replays, out)
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
        f"`{played.name}`, deals {seeds} ({n}); stock order: what each agent may see of it "
        f"(`seen`: cards turned so far; `full`: all; `clairvoyant`: the oracles); kind: "
        f"{kinds}; {machine()}; {where_played(where)}; {time.time() - start:.0f} s wall"
        f"{missing}",
        width=100,
        break_on_hyphens=False,
    )
    table = markdown(summaries)
    write_atomic(out / "benchmark.md", f"{table}\n\n{note}\n")
    drew = plot_atomic(summaries, out / "benchmark.png", f"{played.name}: {n} deals of {seeds}")
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

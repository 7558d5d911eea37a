"""Share of winnable deals per preset, with a 95% Wilson interval, time and CPU per deal.

    python -m experiments.winnability --rules relaxed unlimited msc two-card --deals 10000
    python -m experiments.winnability --rules relaxed --deals 1000000 --workers 2 --backend ray

The solver sees the stock order, so this is the bound for every agent; chunked and
resumable (the method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import functools
import math
import shutil
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from pyramid_env.benchmark import machine
from pyramid_env.engine import PyramidError, Rules, get_rules
from pyramid_env.evaluation import wilson
from pyramid_env.lab.tables import markdown_table
from pyramid_env.lab.verdicts import solve_chunk
from pyramid_env.options import add_sweep_args
from pyramid_env.seeds import labels
from pyramid_env.solver import Verdict
from pyramid_env.sweep import Backend, check_backend, default_chunk, resume_flags, sweep


@dataclass(slots=True)
class Row:
    rules: str
    deal: int
    status: str
    steps: int | None
    nodes: int
    seconds: float
    cpu: float  # CPU seconds of the deal in its process (solve and its checks)


def run(
    rules: Rules,
    first: int,
    deals: int,
    time_limit: float | None,
    python: bool = False,
    *,
    check: bool = True,
    backend: Backend | None = None,
    chunk: int = 500,
    store: Path | None = None,
    resume: bool = False,
) -> tuple[list[Row], list[int]]:
    """Solve each deal; returns the rows and the deals whose verdict differs from its label."""
    numbers = range(first, first + deals)
    settings = {"rules": rules.to_dict(), "time_limit": time_limit, "python": python,
                "check": check}  # fmt: skip
    results = sweep(
        functools.partial(solve_chunk, rules, time_limit, python, check),
        numbers,
        backend=backend or Backend(),
        chunk_size=default_chunk(deals, (backend or Backend()).workers, cap=chunk),
        store=store,
        settings=settings if store else None,
        resume=resume,
        progress=rules.name,
    )
    known = labels(rules.name)  # empty for rules that are not an unchanged preset
    rows, wrong = [], []
    for n, (status, steps, nodes, seconds, cpu) in zip(numbers, results, strict=True):
        rows.append(Row(rules.name, n, status, steps, nodes, seconds, cpu))
        label = known.get(n)
        if label is not None and label.won is not None and status != Verdict.UNKNOWN:
            if label.won != (status == Verdict.WIN):
                wrong.append(n)
    return rows, wrong


def summary(rows: list[Row]) -> dict[str, float | int | str]:
    wins = sum(r.status == Verdict.WIN for r in rows)
    unknown = sum(r.status == Verdict.UNKNOWN for r in rows)
    decided = len(rows) - unknown
    lo, hi = wilson(wins, decided)
    times = sorted(r.seconds for r in rows)
    return {
        "rules": rows[0].rules,
        "deals": len(rows),
        "winnable": wins,
        "unknown": unknown,
        "share": wins / decided if decided else float("nan"),
        "ci_low": lo,
        "ci_high": hi,
        "median_ms": 1000 * statistics.median(times),
        "p99_ms": 1000 * times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)],
        "max_ms": 1000 * times[-1],
        "total_s": sum(times),
        "cpu_per_million_h": sum(r.cpu for r in rows) / len(rows) * 1e6 / 3600,
    }


def markdown(rows: list[dict]) -> str:
    header = ["preset", "deals", "winnable", "95% CI", "unknown", "median", "p99", "max", "total",
              "CPU / 10⁶ deals"]  # fmt: skip
    return markdown_table(
        header,
        (
            [
                f"`{s['rules']}`",
                f"{s['deals']:,}",
                f"{s['share']:.1%}",
                f"{s['ci_low']:.1%} – {s['ci_high']:.1%}",
                s["unknown"],
                f"{s['median_ms']:.1f} ms",
                f"{s['p99_ms']:.0f} ms",
                f"{s['max_ms'] / 1000:.2f} s",
                f"{s['total_s']:.0f} s",
                f"{s['cpu_per_million_h']:.2f} h",
            ]  # fmt: skip
            for s in rows
        ),
    )


def main(argv: list[str] | None = None) -> dict | list:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["relaxed"])
    p.add_argument("--passes", default=None, help="an int, or 'unlimited', for every preset")
    p.add_argument("--goal", choices=["pyramid", "all"], help="the goal, for every preset")
    p.add_argument("--python", action="store_true", help="the pure-Python reference search")
    p.add_argument(
        "--no-check",
        action="store_true",
        help="do not replay each winning line through the engine's checked moves (the check "
        "costs most of a fast preset's time: for runs of millions of deals)",
    )
    p.add_argument("--deals", type=int, default=10_000)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--time-limit", type=float, default=None, help="seconds per deal")
    p.add_argument("--out", type=Path, default=Path("results/winnability"))
    p.add_argument("--merge", nargs="+", type=Path, help="CSVs of earlier runs to combine")
    add_sweep_args(p, chunk=500, workers=1)
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.time()
    all_rows: list[Row] = []
    summaries = []
    if args.merge:
        for path in args.merge:
            with open(path) as f:
                for r in csv.DictReader(f):
                    steps = int(r["steps"]) if r["steps"] else None
                    all_rows.append(
                        Row(
                            r["rules"],
                            int(r["deal"]),
                            r["status"],
                            steps,
                            int(r["nodes"]),
                            float(r["seconds"]),
                            float(r.get("cpu") or "nan"),  # older CSVs have no cpu column
                        )
                    )
        deals = [r.deal for r in all_rows]
        args.first, args.deals = min(deals), max(deals) - min(deals) + 1
        for rules in dict.fromkeys(r.rules for r in all_rows):
            rows = [r for r in all_rows if r.rules == rules]
            assert len({r.deal for r in rows}) == len(rows), f"{rules}: a deal appears twice"
            summaries.append(summary(rows))
    knobs = {}
    if args.passes is not None:
        knobs["passes"] = None if args.passes == "unlimited" else int(args.passes)
    if args.goal is not None:
        knobs["goal"] = args.goal
    mismatches = {}
    try:
        where = check_backend(args.backend, args.workers, args.address)
    except PyramidError as err:
        p.error(str(err))
    presets = [] if args.merge else [get_rules(name, **knobs) for name in args.rules]
    stores = [args.out / "chunks" / rules.name.replace(" ", "_") for rules in presets]
    try:
        resumes = resume_flags(stores, args.resume)
    except PyramidError as err:
        p.error(str(err))
    for rules, store, resume in zip(presets, stores, resumes, strict=True):
        try:
            rows, wrong = run(rules, args.first, args.deals, args.time_limit, args.python,
                              check=not args.no_check, backend=where, chunk=args.chunk,
                              store=store, resume=resume)  # fmt: skip
        except PyramidError as err:  # a resumed run of other settings (named), a bad chunk
            p.error(str(err))
        if wrong:
            mismatches[rows[0].rules] = wrong
            print(f"{rows[0].rules}: verdicts differ from the labels on deals {wrong}")
        all_rows += rows
        summaries.append(summary(rows))
        print(markdown(summaries[-1:]).splitlines()[-1], flush=True)
    with open(args.out / "winnability.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["rules", "deal", "status", "steps", "nodes", "seconds", "cpu"])
        for r in all_rows:
            writer.writerow([r.rules, r.deal, r.status, r.steps, r.nodes, f"{r.seconds:.6f}",
                             f"{r.cpu:.6f}"])  # fmt: skip
    for folder in stores:  # every row is in the CSV now
        shutil.rmtree(folder, ignore_errors=True)
    with contextlib.suppress(OSError):
        (args.out / "chunks").rmdir()
    table = markdown(summaries)
    search = "pure-Python search" if args.python else "compiled search where numba is installed"
    how = (
        "merged runs (each run's settings are in its own note)"
        if args.merge
        else f"time limit {args.time_limit} s, {search}, winning lines "
        f"{'not ' if args.no_check else ''}replayed through the engine, {where.name} backend, "
        f"{where.workers} worker(s)"
    )
    note = (
        f"deals {args.first}..{args.first + args.deals - 1}, {how}, {machine()}, "
        f"{time.time() - start:.0f} s wall"
        + ("" if args.merge else f"; label mismatches: {mismatches or 'none'}")
    )
    (args.out / "winnability.md").write_text(f"{table}\n\n{note}\n")
    print(f"\n{table}\n\n{note}")
    if mismatches:
        raise SystemExit(1)
    return summaries


if __name__ == "__main__":
    main()

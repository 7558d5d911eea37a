"""Share of winnable deals per preset, with a 95% Wilson interval and time per deal.

    python experiments/winnability.py --rules relaxed unlimited msc two-card --deals 10000

The solver knows the stock order, so "winnable" means winnable by a player who could see it:
the upper bound for every agent. Deals ``--first .. --first + --deals - 1``. With
``--time-limit`` a deal that runs out is counted as unknown (reported, never guessed) and the
interval is over the decided deals. ``--passes N`` (or ``unlimited``) changes every preset's
pass limit (``msc passes=2``). The search is the compiled one where numba is installed;
``--python`` runs the pure-Python reference instead (for a same-run speed ratio). Every verdict
on a deal the package ships a label for (``val`` and ``test``, unchanged presets) is checked
against it: a mismatch is reported and makes the script exit 1. Writes ``winnability.csv``
(one row per deal) and ``winnability.md`` (the table) to ``--out``. ``--merge a.csv b.csv``
rebuilds the table from the CSVs of runs over disjoint deal ranges (a long run split across
cores).
"""

from __future__ import annotations

import argparse
import csv
import math
import platform
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from pyramid_env.engine import Rules, get_rules
from pyramid_env.evaluation import wilson
from pyramid_env.seeds import labels
from pyramid_env.solver import Verdict, solve


@dataclass
class Row:
    rules: str
    deal: int
    status: str
    steps: int | None
    nodes: int
    seconds: float


def run(
    rules: Rules, first: int, deals: int, time_limit: float | None, python: bool = False
) -> tuple[list[Row], list[int]]:
    """Solve each deal; returns the rows and the deals whose verdict differs from its label."""
    rows, wrong = [], []
    known = labels(rules.name)  # empty for rules that are not an unchanged preset
    compiled = False if python else None
    for n in tqdm(range(first, first + deals), desc=rules.name, unit="deal", leave=False):
        sol = solve(n, rules, time_limit=time_limit, check=True, compiled=compiled)
        rows.append(Row(rules.name, n, sol.status.value, sol.steps, sol.nodes, sol.seconds))
        label = known.get(n)
        if label is not None and label.won is not None and sol.status is not Verdict.UNKNOWN:
            if label.won != (sol.status is Verdict.WIN):
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
    }


def markdown(rows: list[dict]) -> str:
    lines = [
        "| preset | deals | winnable | 95% CI | unknown | median | p99 | max | total |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for s in rows:
        lines.append(
            f"| `{s['rules']}` | {s['deals']:,} | {s['share']:.1%} | "
            f"{s['ci_low']:.1%} – {s['ci_high']:.1%} | {s['unknown']} | {s['median_ms']:.1f} ms | "
            f"{s['p99_ms']:.0f} ms | {s['max_ms'] / 1000:.2f} s | {s['total_s']:.0f} s |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict | list:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["relaxed"])
    p.add_argument("--passes", default=None, help="an int, or 'unlimited', for every preset")
    p.add_argument("--python", action="store_true", help="the pure-Python reference search")
    p.add_argument("--deals", type=int, default=10_000)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--time-limit", type=float, default=None, help="seconds per deal")
    p.add_argument("--out", type=Path, default=Path("results/winnability"))
    p.add_argument("--merge", nargs="+", type=Path, help="CSVs of earlier runs to combine")
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
    mismatches = {}
    for name in [] if args.merge else args.rules:
        rows, wrong = run(get_rules(name, **knobs), args.first, args.deals, args.time_limit,
                          args.python)  # fmt: skip
        if wrong:
            mismatches[rows[0].rules] = wrong
            print(f"{rows[0].rules}: verdicts differ from the labels on deals {wrong}")
        all_rows += rows
        summaries.append(summary(rows))
        print(markdown(summaries[-1:]).splitlines()[-1], flush=True)
    with open(args.out / "winnability.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["rules", "deal", "status", "steps", "nodes", "seconds"])
        for r in all_rows:
            writer.writerow([r.rules, r.deal, r.status, r.steps, r.nodes, f"{r.seconds:.6f}"])
    table = markdown(summaries)
    search = "pure-Python search" if args.python else "compiled search where numba is installed"
    note = (
        f"deals {args.first}..{args.first + args.deals - 1}, time limit {args.time_limit} s, "
        f"{search}, Python {platform.python_version()}, {time.time() - start:.0f} s wall; "
        f"label mismatches: {mismatches or 'none'}"
    )
    (args.out / "winnability.md").write_text(f"{table}\n\n{note}\n")
    print(f"\n{table}\n\n{note}")
    if mismatches:
        raise SystemExit(1)
    return summaries


if __name__ == "__main__":
    main()

"""Write the solver's labels for the ``val`` and ``test`` deals of every preset.

    python experiments/make_labels.py                       # all presets, val + test
    python experiments/make_labels.py --rules relaxed --shortest-limit 120 --workers 1

One CSV per preset in ``pyramid_env/labels/`` (shipped with the package, read by
``pyramid_env.seeds.labels``): ``deal, verdict, steps, shortest``. ``verdict`` is ``win``,
``loss`` or ``unknown`` (the verdict search ran out of ``--time-limit``); ``steps`` is the length
of the winning line found; ``shortest`` is filled only when ``--shortest-limit`` is given and
the shortest search finished within it (the shipped files have it for every winnable deal:
about 20 minutes a preset on one process with the compiled search, the ``fast`` extra). Deals are
spread over ``--workers`` processes; each deal is solved on its own, so the file does not depend
on the number of workers.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from tqdm import tqdm

from pyramid_env.engine.rules import PRESETS
from pyramid_env.seeds import LABELLED, SEED_SETS
from pyramid_env.solver import Verdict, solve
from pyramid_env.workers import process_pool

OUT = Path(__file__).parents[1] / "pyramid_env" / "labels"


def label(job: tuple[str, int, float, float]) -> tuple[int, str, int | None, int | None]:
    """``(deal, verdict, steps, shortest)`` of one deal (a process-pool task)."""
    rules, deal, time_limit, shortest_limit = job
    sol = solve(deal, rules, time_limit=time_limit)
    shortest = None
    if sol.status is Verdict.WIN and shortest_limit > 0:
        best = solve(deal, rules, shortest=True, time_limit=shortest_limit)
        shortest = best.steps if best.status is Verdict.WIN else None
    return deal, sol.status.value, sol.steps, shortest


def main(argv: list[str] | None = None) -> dict[str, dict[str, int]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=list(PRESETS))
    p.add_argument("--sets", nargs="+", default=list(LABELLED), choices=list(LABELLED))
    p.add_argument("--limit", type=int, help="only the first N deals of each set (for tests)")
    p.add_argument("--time-limit", type=float, default=600.0, help="seconds per verdict")
    p.add_argument("--shortest-limit", type=float, default=0.0, help="seconds per shortest")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    deals = sorted(n for name in args.sets for n in SEED_SETS[name][: args.limit])
    counts = {}
    with process_pool(args.workers) as pool:
        for rules in args.rules:
            start = time.time()
            jobs = [(rules, n, args.time_limit, args.shortest_limit) for n in deals]
            rows = list(
                tqdm(pool.map(label, jobs, chunksize=8), total=len(jobs), desc=rules, unit="deal")
            )
            with open(args.out / f"{rules}.csv", "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["deal", "verdict", "steps", "shortest"])
                w.writerows(rows)
            counts[rules] = {v: sum(r[1] == v for r in rows) for v in ("win", "loss", "unknown")}
            counts[rules]["shortest"] = sum(r[3] is not None for r in rows)
            print(f"{rules}: {counts[rules]} in {time.time() - start:.0f} s", flush=True)
    return counts


if __name__ == "__main__":
    main()

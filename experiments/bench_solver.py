"""The solver on msc-1500: 1,500 decks with shortest-solution lengths from a public solver.

    python -m experiments.bench_solver                      # verdicts on all 1,500 decks
    python -m experiments.bench_solver --shortest --time-limit 60   # compiled A* (fast extra)
    python -m experiments.bench_solver --shortest --decks 30 --pure-python   # the reference

Checks the solver's verdicts and shortest lengths against a public solver's and times them
(the method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import platform
import statistics
from pathlib import Path

from tqdm import tqdm

from pyramid_env.engine import Deal
from pyramid_env.engine.deal import parse_cards
from pyramid_env.solver import Verdict, solve
from pyramid_env.solver import kernel as _kernel

ORACLE = Path(__file__).parents[1] / "tests" / "fixtures" / "msc-1500"
JAVA_MEAN_S = 0.7  # quoted, see the module docstring
JAVA_MEDIAN_S = 0.150


def load() -> tuple[list[Deal], list[int]]:
    decks = [Deal(parse_cards(line)) for line in (ORACLE / "decks.txt").read_text().splitlines()]
    lengths = [int(x) for x in (ORACLE / "lengths.txt").read_text().split()]
    return decks, lengths


def main(argv: list[str] | None = None) -> dict | list:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shortest", action="store_true")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--decks", type=int, default=1500)
    p.add_argument("--time-limit", type=float, default=None, help="seconds per deck")
    p.add_argument(
        "--pure-python", action="store_true", help="shortest mode without the numba kernel"
    )
    p.add_argument("--out", type=Path, default=Path("results/bench_solver"))
    args = p.parse_args(argv)
    decks, lengths = load()
    idx = range(args.first, min(1500, args.first + args.decks))
    rows = []
    for i in tqdm(idx, unit="deck"):
        sol = solve(
            decks[i],
            "msc",
            shortest=args.shortest,
            time_limit=args.time_limit,
            compiled=False if args.pure_python else None,
        )
        want = Verdict.WIN if lengths[i] else Verdict.LOSS
        agree = sol.status == want and (not args.shortest or sol.steps in (None, lengths[i]))
        if sol.status is Verdict.UNKNOWN:
            agree = False
        rows.append((i, sol.status.value, lengths[i], sol.steps, sol.nodes, sol.seconds, agree))
    times = sorted(r[5] for r in rows)
    n = len(rows)
    result = {
        "mode": "shortest" if args.shortest else "verdict",
        "search": "python" if args.pure_python or not _kernel.AVAILABLE else "compiled",
        "decks": n,
        "agree": sum(r[6] for r in rows),
        "unknown": sum(r[1] == "unknown" for r in rows),
        "total_s": sum(times),
        "median_s": statistics.median(times),
        "mean_s": sum(times) / n,
        "p99_s": times[min(n - 1, math.ceil(0.99 * n) - 1)],
        "max_s": times[-1],
        "over_5s": sum(t > 5 for t in times),
        "java_total_s_quoted": JAVA_MEAN_S * n,
        "python": platform.python_version(),
    }
    result["java_over_ours_total"] = result["java_total_s_quoted"] / result["total_s"]
    result["java_over_ours_median"] = JAVA_MEDIAN_S / result["median_s"]
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"bench_solver_{result['mode']}"
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=1) + "\n")
    with open(args.out / f"{stem}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["deck", "status", "oracle_length", "steps", "nodes", "seconds", "agree"])
        w.writerows(rows)
    print(json.dumps(result, indent=1))
    bad = [r[0] for r in rows if not r[6]]
    if bad:
        print(f"disagreements or unknowns on decks: {bad[:50]}")
    return result


if __name__ == "__main__":
    main()

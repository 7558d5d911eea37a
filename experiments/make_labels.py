"""Write the solver's labels for the ``val`` and ``test`` deals of every preset.

    python -m experiments.make_labels                       # all presets, val + test
    python -m experiments.make_labels --rules relaxed --shortest-limit 120 --workers 1
    python -m experiments.make_labels --backend ray --address auto     # on a Ray cluster

The shipped labels let evaluation normalise by the solver without solving again; chunked
and resumable (the method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
import csv
import functools
import time
from pathlib import Path

from pyramid_env.engine import PyramidError
from pyramid_env.engine.rules import PRESETS
from pyramid_env.options import add_sweep_args
from pyramid_env.seeds import LABELLED, SEED_SETS
from pyramid_env.solver import Verdict, solve
from pyramid_env.sweep import ChunkStore, check_backend, resume_flags, sweep

OUT = Path(__file__).parents[1] / "pyramid_env" / "labels"


def label_chunk(
    rules: str, time_limit: float, shortest_limit: float, deals: list[int]
) -> list[list]:
    """``[verdict, steps, shortest]`` per deal (a sweep chunk)."""
    out = []
    for deal in deals:
        sol = solve(deal, rules, time_limit=time_limit)
        shortest = None
        if sol.status is Verdict.WIN and shortest_limit > 0:
            best = solve(deal, rules, shortest=True, time_limit=shortest_limit)
            shortest = best.steps if best.status is Verdict.WIN else None
        out.append([sol.status.value, sol.steps, shortest])
    return out


def main(argv: list[str] | None = None) -> dict[str, dict[str, int]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=list(PRESETS))
    p.add_argument("--sets", nargs="+", default=list(LABELLED), choices=list(LABELLED))
    p.add_argument("--limit", type=int, help="only the first N deals of each set (for tests)")
    p.add_argument("--time-limit", type=float, default=600.0, help="seconds per verdict")
    p.add_argument("--shortest-limit", type=float, default=0.0, help="seconds per shortest")
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument(
        "--chunks",
        type=Path,
        default=Path("results/make_labels"),
        help="where finished chunks are kept until a preset's file is written",
    )
    add_sweep_args(p, chunk=50, workers=2)
    args = p.parse_args(argv)
    try:
        where = check_backend(args.backend, args.workers, args.address)
    except PyramidError as err:
        p.error(str(err))
    args.out.mkdir(parents=True, exist_ok=True)
    deals = sorted(n for name in args.sets for n in SEED_SETS[name][: args.limit])
    stores = [args.chunks / rules for rules in args.rules]
    try:
        resumes = resume_flags(stores, args.resume)
    except PyramidError as err:
        p.error(str(err))
    counts = {}
    done = []
    for rules, store, resume in zip(args.rules, stores, resumes, strict=True):
        start = time.time()
        settings = {"rules": rules, "sets": args.sets, "time_limit": args.time_limit,
                    "shortest_limit": args.shortest_limit}  # fmt: skip
        try:
            results = sweep(
                functools.partial(label_chunk, rules, args.time_limit, args.shortest_limit),
                deals,
                backend=where,
                chunk_size=args.chunk,
                store=store,
                settings=settings,
                resume=resume,
                progress=rules,
            )
        except PyramidError as err:  # a resumed run of other settings (named), a bad chunk
            p.error(str(err))
        rows = [[n, *r] for n, r in zip(deals, results, strict=True)]
        with open(args.out / f"{rules}.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["deal", "verdict", "steps", "shortest"])
            w.writerows(rows)
        done.append(ChunkStore(store, settings, resume=True))
        counts[rules] = {v: sum(r[1] == v for r in rows) for v in ("win", "loss", "unknown")}
        counts[rules]["shortest"] = sum(r[3] is not None for r in rows)
        print(f"{rules}: {counts[rules]} in {time.time() - start:.0f} s", flush=True)
    for store in done:  # kept till now: a resumed run takes finished presets from them
        store.clear()
    return counts


if __name__ == "__main__":
    main()

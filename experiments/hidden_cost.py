"""How much does hidden information cost? The solver against honest play, per preset.

    python -m experiments.hidden_cost --rules msc two-card --seeds "test[:500]"

For each preset, on the same deals: the solver (it reads the stock order: the ceiling), the
solver with one pass fewer (what a player reaches by scouting the first pass, then playing
perfectly: the floor of the best honest play under a pass limit), and the honest agents
``scout`` and ``pimc`` with ``greedy`` for scale, each with its 95% Wilson interval and its
CPU time per deal. Each preset's rows go to ``--out/<preset>.json`` as soon as they are done,
and a preset already there is not run again (delete the file to redo it), but for the agents
of ``--agents`` it lacks (or ``--redo`` names), which are played and added. ``--out/table.md``
is the table of every file in the folder (an agent beyond the three gets its own columns).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pyramid_env import PRESETS, evaluate, get_rules
from pyramid_env.benchmark import machine
from pyramid_env.evaluation import solver_labels, wilson
from pyramid_env.lab.tables import markdown_table
from pyramid_env.seeds import seed_set
from pyramid_env.workers import process_pool

AGENTS = ("greedy", "scout", "pimc")


def _verdict(job: tuple[str, int, int]) -> tuple[bool | None, float]:
    """The solver's verdict on one deal with ``passes`` passes, and its CPU seconds."""
    from pyramid_env.solver import solve

    preset, passes, n = job
    start = time.process_time()
    won = solve(n, get_rules(preset, passes=passes), time_limit=120, check=False).won
    return won, time.process_time() - start


def fewer_passes(preset: str, deals: list[int], workers: int) -> dict | None:
    """The solver with one pass fewer than ``preset`` allows.

    ``None`` where that is 0 passes, or passes are unlimited (scouting is then free: the bound
    is the solver itself).
    """
    passes = get_rules(preset).passes
    if passes is None or passes < 2:
        return None
    with process_pool(workers) as pool:
        out = list(pool.map(_verdict, [(preset, passes - 1, n) for n in deals], chunksize=10))
    return {
        "passes": passes - 1,
        "won": [n for n, (won, _) in zip(deals, out, strict=True) if won],
        "unknown": sum(won is None for won, _ in out),
        "cpu_per_deal": sum(cpu for _, cpu in out) / len(deals),
    }


def run_preset(preset: str, seeds: str, workers: int, agents: tuple[str, ...] = AGENTS) -> dict:
    """The bounds and ``agents``' wins on the deals ``seeds``, as the JSON file keeps them."""
    deals = list(seed_set(seeds))
    solver = solver_labels(get_rules(preset), deals)
    rows = {"preset": preset, "seeds": seeds, "deals": len(deals)}
    rows["solver"] = [n for n in deals if solver[n]]
    rows["fewer_passes"] = fewer_passes(preset, deals, workers)
    rows["agents"] = {}
    return add_agents(rows, agents, workers)


def add_agents(rows: dict, agents: tuple[str, ...], workers: int) -> dict:
    """``rows`` with each of ``agents`` it lacks played on its deals (kept ones not replayed)."""
    deals = list(seed_set(rows["seeds"]))
    for name in agents:
        if name in rows["agents"]:
            continue
        report = evaluate(name, rows["preset"], deals, workers=workers)
        s = report.summary()
        rows["agents"][name] = {
            "won": [e.deal for e in report.episodes if e.won],
            "cpu_per_deal": s["cpu_per_deal"],
        }
    return rows


def _cell(won: list[int], n: int, solver: set[int]) -> str:
    """Share of the deals, then of the solver's wins with its 95% Wilson interval."""
    share = len(set(won) & solver)
    lo, hi = wilson(share, len(solver))
    return f"{len(won) / n:.1%} ({share / len(solver):.3f} [{lo:.3f}, {hi:.3f}])"


def table(results: list[dict]) -> str:
    """One row per preset: each figure as a share of the deals and of the solver's wins."""
    more = sorted({a for r in results for a in r["agents"]} - set(AGENTS))
    header = ["preset", "deals", "solver", "solver, one pass fewer", *AGENTS, *more,
              *(f"{a} CPU / deal" for a in ("pimc", *more))]  # fmt: skip
    rows = []
    for r in results:
        n, solver = r["deals"], set(r["solver"])

        def cell(won: list[int], n: int = n, solver: set[int] = solver) -> str:
            return _cell(won, n, solver)

        fewer = r["fewer_passes"]
        if fewer:
            bound = cell(fewer["won"])
            if fewer["unknown"]:  # a verdict out of time counts as a loss: say how many
                bound += f", {fewer['unknown']} unknown"
        elif get_rules(r["preset"]).passes is None:
            bound = "= solver (scouting is free)"
        else:
            bound = "n/a (one pass)"
        agents = r["agents"]
        rows.append(
            [f"`{r['preset']}`", r["seeds"], f"{len(solver) / n:.1%}", bound]
            + [cell(agents[a]["won"]) if a in agents else "–" for a in (*AGENTS, *more)]
            + [
                f"{1000 * agents[a]['cpu_per_deal']:.0f} ms" if a in agents else "–"
                for a in ("pimc", *more)
            ]
        )
    return markdown_table(header, rows)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["msc"])
    p.add_argument("--seeds", default="test[:500]")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--agents", nargs="+", default=list(AGENTS), help="honest agents to play")
    p.add_argument("--redo", nargs="+", default=[], help="agents to play again, named or not")
    p.add_argument("--out", type=Path, default=Path("results/hidden_cost"))
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for preset in args.rules:
        path = args.out / f"{preset}.json"
        # A redone agent is played again even where --agents leaves it out (not dropped).
        agents = tuple(dict.fromkeys([*args.agents, *args.redo]))
        if path.exists():
            rows = json.loads(path.read_text())
            for name in args.redo:  # played again below, with today's code
                rows["agents"].pop(name, None)
            missing = [a for a in agents if a not in rows["agents"]]
            print(f"{preset}: kept from {path}" + f", adding {', '.join(missing)}" * bool(missing))
            if missing:
                rows = add_agents(rows, agents, args.workers)
                rows.setdefault("added", {}).update(
                    {a: {"date": time.strftime("%Y-%m-%d"), "machine": machine()} for a in missing}
                )
                path.write_text(json.dumps(rows) + "\n")
            continue
        start = time.time()
        rows = run_preset(preset, args.seeds, args.workers, agents)
        rows["wall_s"], rows["machine"] = round(time.time() - start), machine()
        rows["date"] = time.strftime("%Y-%m-%d")
        path.write_text(json.dumps(rows) + "\n")
        print(f"{preset}: {rows['wall_s']} s", flush=True)
    results = [json.loads(f.read_text()) for f in args.out.glob("*.json")]
    order = list(PRESETS)  # the README's order of the presets
    results.sort(key=lambda r: order.index(r["preset"]) if r["preset"] in order else len(order))
    text = table(results)
    (args.out / "table.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()

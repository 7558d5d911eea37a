"""Check the replay analysis on real games: is the marked move really where a deal was lost?

    python -m experiments.verify_replays --rules msc --agents pimc greedy --episodes 100

Plays the agents on ``test`` deals (as the benchmark does) until it has ``--episodes`` games
that were lost on deals the solver wins (shared out among the agents in order, a later one
making up what an earlier one could not give), analyses each replay (``pyramid_env.replay.analyse``
marks the first move after which the deal could no longer be won) and checks every mark with
the solver's pure-Python search, independent of the compiled one the analysis uses: the
position before the marked move must be winnable, the one after it lost, and the suggested move
must keep it winnable. Prints the counts and writes ``--out/verify_replays.json``; exits 1 if
any mark is wrong.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pyramid_env import evaluate
from pyramid_env.engine import state as st
from pyramid_env.engine.notation import parse_move
from pyramid_env.replay import analyse
from pyramid_env.solver import Verdict, solve


def check(replay: object, analysis: object) -> str | None:
    """What is wrong with the mark of one analysed replay, or ``None``."""
    k = analysis.losing_move
    if k is None:
        return "no move marked on a lost game of a winnable deal"
    positions = list(replay.positions())
    before, after = positions[k], positions[k + 1]
    if solve(before, compiled=False).status is not Verdict.WIN:
        return f"move {k}: the position before it is not winnable"
    if solve(after, compiled=False).status is not Verdict.LOSS:
        return f"move {k}: the position after it is not lost"
    better = before.copy()
    st.apply_checked(better, parse_move(before, analysis.better_move))
    if solve(better, compiled=False).status is not Verdict.WIN:
        return f"move {k}: the suggested move {analysis.better_move} does not keep it winnable"
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="msc")
    p.add_argument("--agents", nargs="+", default=["pimc", "greedy"])
    p.add_argument("--episodes", type=int, default=100)
    p.add_argument("--seeds", default="test")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("results/verify_replays"))
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.time()
    checked, wrong = [], []
    for i, agent in enumerate(args.agents):
        left = len(args.agents) - i
        want = -(-(args.episodes - len(checked)) // left)  # a fair share of what is missing
        report = evaluate(agent, args.rules, args.seeds, workers=args.workers)
        lost = [e.deal for e in report.episodes if e.solver_won and not e.won][:want]
        again = evaluate(agent, args.rules, lost, replays=True, workers=args.workers)
        for n, replay in again.replays.items():
            analysis = analyse(replay)
            problem = check(replay, analysis)
            checked.append({"agent": agent, "deal": n, "losing_move": analysis.losing_move,
                            "better_move": analysis.better_move, "problem": problem})  # fmt: skip
            if problem:
                wrong.append((agent, n, problem))
    summary = {
        "rules": args.rules,
        "agents": args.agents,
        "episodes": len(checked),
        "wrong": len(wrong),
        "seconds": round(time.time() - start, 1),
        "checked": checked,
    }
    (args.out / "verify_replays.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{len(checked)} lost games of winnable deals ({args.rules}, {', '.join(args.agents)}): "
          f"{len(checked) - len(wrong)} marks verified, {len(wrong)} wrong; "
          f"{summary['seconds']} s")  # fmt: skip
    for agent, n, problem in wrong:
        print(f"  {agent} deal {n}: {problem}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Play against training steps: a run's saved networks (``train_cards --checkpoints``) on val.

    python -m experiments.cards_steps results/cards/msc-long/rel_1257152_s1 \
        --start agents/trained/cards-msc.npz --seeds "val[:500]" --plays q:0.1 policy:0 \
        --out experiments/figures/cards_steps.png

Each network in ``<run>/steps/`` (and ``--start``, the network the run went on from, as step
0) plays ``--seeds`` alone, once per way of playing (``q:0.1`` is Q plus a tenth of the
policy's log-probability, ``policy:0`` the policy alone: see ``train_cards.PLAYS``). Rows go to
``<run>/steps.jsonl`` as each finishes, and a row already there is not played again. Whether
play still rises with training steps is the question this answers, which the losses alone do
not (they fell while play stood still). ``--heldout`` (a ``card_data`` file of deals no run
trained on) adds each network's held-out losses to ``<run>/heldout.jsonl``; it needs torch.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pyramid_env.agents.cardnet import CardNet, CardNetAgent
from pyramid_env.evaluation import evaluate

KEYS = ("wins", "deals", "solver_winnable", "solver_normalised", "norm_ci_low", "norm_ci_high")


def parse_play(text: str) -> tuple[str, float]:
    """``"q:0.1"`` -> ``("q", 0.1)``: a way of playing and its weight."""
    play, _, tie = text.partition(":")
    try:
        weight = float(tie)
    except ValueError:
        weight = None
    if play not in ("q", "policy", "both") or weight is None:
        raise SystemExit(f"--plays {text!r}: PLAY:WEIGHT with PLAY one of q, policy, both")
    return play, weight


def networks(run: Path, start: Path | None) -> list[tuple[int, Path]]:
    """The run's saved networks by step, with ``start`` as step 0."""
    found = [(int(p.stem.split("_")[1]), p) for p in sorted((run / "steps").glob("step_*.npz"))]
    if not found and start is None:
        raise SystemExit(f"{run}/steps: no saved networks (train_cards --checkpoints)")
    return ([(0, start)] if start else []) + found


def play_all(run: Path, start: Path | None, seeds: str, plays: list[tuple[str, float]],
             workers: int) -> list[dict[str, Any]]:  # fmt: skip
    """Every network and way of playing not yet in ``steps.jsonl``; all rows, by step."""
    log = run / "steps.jsonl"
    rows = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    done = {(r["step"], r["play"], r["tie"], r["seeds"]) for r in rows}
    for step, path in networks(run, start):
        for play, tie in plays:
            if (step, play, tie, seeds) in done:
                continue
            net = CardNet.load(path)
            net.meta |= {"play": play, "tie": tie}
            s = evaluate(CardNetAgent(net), str(net.meta["rules"]), seeds, workers=workers)
            summary = s.summary()
            row = {"step": step, "play": play, "tie": tie, "seeds": seeds, "net": str(path)}
            rows.append(row | {k: summary[k] for k in KEYS})
            with open(log, "a") as f:
                f.write(json.dumps(rows[-1]) + "\n")
            print(f"step {step:>6}: {play} {tie}: {rows[-1]['solver_normalised']:.3f}", flush=True)
    return sorted(rows, key=lambda r: (r["step"], r["play"], r["tie"]))


def held_out_rows(run: Path, start: Path | None, path: Path,
                  target: str = "verdict") -> list[dict[str, Any]]:  # fmt: skip
    """Each network's held-out losses (``cardnet_metrics.held_out``), those not yet in the file.

    ``target``: the Q labels the losses are taken against (``load_data``'s), the run's own.
    """
    from pyramid_env.agents.cardnet_metrics import held_out
    from pyramid_env.agents.cardnet_torch import twin
    from pyramid_env.lab.card_data import load_data

    log = run / "heldout.jsonl"
    rows = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    done = {(r["step"], r["data"], r["q_target"]) for r in rows}
    data = None
    for step, net_path in networks(run, start):
        if (step, str(path), target) in done:
            continue
        data = data or load_data(path, None, target)
        try:
            net = twin(CardNet.load(net_path))
        except ValueError as err:
            raise SystemExit(f"{net_path}: held-out losses need {err}") from None
        row = {"step": step, "data": str(path), "q_target": target}
        rows.append(row | held_out(net.eval(), data))
        with open(log, "a") as f:
            f.write(json.dumps(rows[-1]) + "\n")
    return sorted(rows, key=lambda r: r["step"])


def plot(rows: list[dict[str, Any]], reference: dict[str, Any] | None, out: Path,
         held: list[dict[str, Any]] = ()) -> None:  # fmt: skip
    """Play against steps, a line per way of playing (95% bands); held-out losses beside it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2 if held else 1, figsize=(11 if held else 6.4, 4), squeeze=False)
    ax = axes[0, 0]
    for play, tie in sorted({(r["play"], r["tie"]) for r in rows}):
        rs = [r for r in rows if (r["play"], r["tie"]) == (play, tie)]
        steps = [r["step"] for r in rs]
        ax.plot(steps, [r["solver_normalised"] for r in rs], marker="o", label=f"{play} {tie}")
        lo, hi = [r["norm_ci_low"] for r in rs], [r["norm_ci_high"] for r in rs]
        ax.fill_between(steps, lo, hi, alpha=0.15)
    for name, style in (("greedy-careful", "--"), ("greedy", ":")):
        if reference and name in reference:
            ax.axhline(reference[name]["solver_normalised"], ls=style, c="grey", label=name)
    ax.set_xlabel("training steps after the start (batches of 256)")
    ax.set_ylabel("share of the solver's wins")
    ax.set_title(f"network alone, {rows[0]['seeds']}")
    ax.legend(fontsize=8)
    if held:
        ax = axes[0, 1]
        steps = [r["step"] for r in held]
        for key in ("q_loss", "policy_loss"):
            ax.plot(steps, [r[key] for r in held], marker="o", label=key.replace("_", " "))
        ax.set_xlabel("training steps after the start (batches of 256)")
        ax.set_ylabel("held-out loss")
        ax.set_title("held-out positions (deals not trained on)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run", type=Path, help="a train_cards run folder (with steps/)")
    p.add_argument("--start", type=Path, help="the network the run started from (step 0)")
    p.add_argument("--seeds", default="val[:500]")
    p.add_argument("--plays", nargs="+", default=["q:0.1", "policy:0"])
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--heldout", type=Path, help="a card_data file: held-out losses too")
    p.add_argument("--q-target", default="verdict", choices=["verdict", "soft", "rollout"],
                   help="the Q labels of the held-out losses (the run's own)")  # fmt: skip
    p.add_argument("--out", type=Path, help="the chart (PNG)")
    args = p.parse_args(argv)
    plays = [parse_play(t) for t in args.plays]
    held = held_out_rows(args.run, args.start, args.heldout, args.q_target) if args.heldout else []
    rows = play_all(args.run, args.start, args.seeds, plays, args.workers)
    if args.out:
        ref_path = args.run.parent / "reference.json"
        reference = json.loads(ref_path.read_text()) if ref_path.exists() else None
        mine = [r for r in held if (r["data"], r["q_target"]) == (str(args.heldout), args.q_target)]
        plot([r for r in rows if r["seeds"] == args.seeds], reference, args.out, mine)
    return rows


if __name__ == "__main__":
    main()

"""Does the plan a card network learns beside its heads tell apart the moves that lose?

    python -m experiments.partner_probe --run RUN --heldout data/msc_heldout-line.npz \
        --phase known --out results/cards/msc-partner/probe.json

``RUN`` is a ``train_cards --partner`` run folder (``net.npz``, and ``partner.pt``, the head
that names each card's partner in a winning line). On the held-out positions where a legal
move loses, for each pair move the head's chance that its two cards go together in the line
(``log P(a -> b) + log P(b -> a)``), and the policy read with that added, ``beta`` times, to
each pair move's logit. Since the policy's mistakes there are mostly pairs where it must wait,
any penalty on pairs moves the count: the same sweep with a constant penalty instead of the
plan's is the control. Every legal move's verdict is in the file, so "right" is exact.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch

from pyramid_env.agents.cardnet import KING_PLACE, PAIR_A, PAIR_B, PAIR_IDS, CardNet, place_tokens
from pyramid_env.agents.cardnet_torch import tokens, twin
from pyramid_env.engine.moves import NUM_MOVES
from pyramid_env.lab.card_data import PHASES, load_data
from pyramid_env.lab.partner import PartnerHead, watch


@torch.no_grad()
def scores(run: Path, data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The policy's logits ``(N, 327)`` and each move's plan score (0 for draws and recycles)."""
    net = twin(CardNet.load(run / "net.npz")).eval()
    head = PartnerHead(net.meta["d"])
    head.load_state_dict(torch.load(run / "partner.pt"))
    seen, _ = watch(net)
    pols, plans = [], []
    for at in range(0, len(data["teacher"]), 1024):
        x = data["obs"][at : at + 1024]
        legal = torch.as_tensor(data["legal"][at : at + 1024])
        pols.append(net(tokens(torch.as_tensor(x)), legal)[:, 0].numpy())
        there = np.concatenate([x[:, :28] > 0, x[:, 80:104] > 0], 1)  # slots, stock places
        logp = torch.log_softmax(head.logits(seen["h"], torch.as_tensor(there)), -1).numpy()
        tok = place_tokens(x[:, 80:104].astype(np.int64))  # move place -> token
        plan = np.zeros((len(x), NUM_MOVES), np.float32)
        rows = np.arange(len(x))[:, None]
        ta, tb = tok[:, PAIR_A], tok[:, PAIR_B]  # (B, 295); token 0: no card at that place
        both = logp[rows, np.maximum(ta - 1, 0), tb] + logp[rows, np.maximum(tb - 1, 0), ta]
        plan[:, PAIR_IDS] = np.where((ta > 0) & (tb > 0), both, 0.0)
        kings = np.flatnonzero(KING_PLACE >= 0)
        tk = tok[:, KING_PLACE[kings]]
        plan[:, kings] = np.where(tk > 0, logp[rows, np.maximum(tk - 1, 0), tk], 0.0)
        plans.append(plan)
    return np.concatenate(pols), np.concatenate(plans)


def _mean(x: np.ndarray) -> float | None:
    return float(x.mean()) if len(x) else None


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run", type=Path, required=True, help="a train_cards --partner run folder")
    p.add_argument("--heldout", type=Path, required=True, help="a card_data --line file")
    p.add_argument("--phase", default="all", choices=list(PHASES))
    p.add_argument("--betas", type=float, nargs="+", default=[0.0, 0.25, 0.5, 1.0, 2.0, 4.0])
    p.add_argument("--penalties", type=float, nargs="+", default=[0.5, 1.0, 2.0, 4.0, 8.0])
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    if not (args.run / "partner.pt").exists():
        p.error(f"--run {args.run}: no partner.pt (a train_cards --partner run writes it)")
    data = load_data(args.heldout, None, phase=args.phase)
    pol, plan = scores(args.run, data)
    legal, wins = data["legal"], data["wins"].astype(bool)
    hard = (legal & wins).sum(1) < legal.sum(1)
    pair = np.zeros(NUM_MOVES, bool)
    pair[PAIR_IDS] = True

    def right(logits: np.ndarray) -> dict[str, float]:
        pick = np.where(legal, logits, -np.inf).argmax(1)
        ok = wins[np.arange(len(pick)), pick]
        return {"hard_right": float(ok[hard].mean()), "all_right": float(ok.mean())}

    rows = [{"read": "plan", "beta": b} | right(pol + b * plan) for b in args.betas]
    rows += [{"read": "penalty", "beta": c} | right(pol - c * pair) for c in args.penalties]
    pick = np.where(legal, pol, -np.inf).argmax(1)
    at = np.arange(len(pick))
    wrong = hard & ~wins[at, pick]
    lost_pairs = wrong & pair[pick]
    winning_pairs = hard & wins[at, pick] & pair[pick]
    out = {
        "run": str(args.run), "heldout": str(args.heldout), "phase": args.phase,
        "positions": int(len(pick)), "hard": int(hard.sum()), "policy_wrong": int(wrong.sum()),
        "wrong_by_a_pair": int(lost_pairs.sum()),
        # the plan's chance that the two cards of the policy's pair go together in the line
        "plan_p_losing_pairs": _mean(np.exp(plan[at, pick][lost_pairs] / 2)),
        "plan_p_winning_pairs": _mean(np.exp(plan[at, pick][winning_pairs] / 2)),
        "rows": rows,
    }  # fmt: skip
    text = json.dumps(out, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return out


if __name__ == "__main__":
    main()

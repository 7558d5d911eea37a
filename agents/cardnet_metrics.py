"""Held-out scores of a card network or flat MLP: losses and where the deciding moves go.

Training's yardstick beside play (``experiments/train_cards.py``, ``cards_steps.py``): how
often each head picks a winning move where a legal move loses. Needs the ``train`` extra.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from pyramid_env.agents.cardnet_torch import counts_from_packed, tokens


@torch.no_grad()
def held_out(net: nn.Module, data: dict[str, np.ndarray]) -> dict[str, float | None]:
    """Held-out losses; how often Q's favourite wins where a move loses; policy = teacher.

    ``losing_q_low``: the share of the losing legal moves that Q rates below an even chance.
    Where a draw can never lose (unlimited passes) Q's favourite is nearly always a draw and
    wins, so ``hard_q_right`` says little there; whether Q knows which moves lose is this.
    """
    flat = net.meta["arch"] == "flat"
    x = data["obs"]
    outs = []
    for i in range(0, len(x), 2048):
        xb = x[i : i + 2048]
        if flat:
            outs.append(net(torch.as_tensor(counts_from_packed(xb))))
        else:  # the legal moves' scores are all it reads (and all a probe need compute)
            outs.append(
                net(tokens(torch.as_tensor(xb)), torch.as_tensor(data["legal"][i : i + 2048]))
            )
    out = torch.cat(outs)
    legal, wins = torch.as_tensor(data["legal"]), torch.as_tensor(data["wins"]).float()
    q = out[:, 1].masked_fill(~legal, -1e9)
    hard = (wins.sum(1) < legal.sum(1)).numpy()
    best = q.argmax(1)
    right = wins.gather(1, best[:, None])[:, 0].numpy()
    bce = nn.functional.binary_cross_entropy_with_logits(out[:, 1], wins, reduction="none")
    pol = out[:, 0].masked_fill(~legal, -1e9)
    teacher = torch.as_tensor(data["teacher"].astype(np.int64))
    pol_right = wins.gather(1, pol.argmax(1)[:, None])[:, 0].numpy()
    losing = legal & (wins == 0)
    return {
        "q_loss": float((bce * legal).sum() / legal.sum()),
        "hard_share": float(hard.mean()),
        "hard_q_right": float(right[hard].mean()),
        "hard_policy_right": float(pol_right[hard].mean()),
        "losing_q_low": float((out[:, 1][losing] < 0).float().mean()) if losing.any() else None,
        "policy_loss": float(nn.functional.cross_entropy(pol, teacher)),
        "policy_teacher": float((pol.argmax(1) == teacher).float().mean()),
    }

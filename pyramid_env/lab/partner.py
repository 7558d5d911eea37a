"""An auxiliary task for the card network: each card's partner in a winning line.

``experiments/card_data.py --line`` stores the line's plan
(:func:`~pyramid_env.lab.card_data.line_partners`); ``experiments/train_cards.py --partner W``
trains :class:`PartnerHead` beside the network's two heads. Needs the ``train`` extra (torch).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn
from torch.utils.hooks import RemovableHandle

from pyramid_env.agents.cardnet_torch import tokens


class PartnerHead(nn.Module):
    """Each card's partner in a winning line, scored over the tokens: an auxiliary task.

    ``card_data --line`` stores the line's plan (``line_partners``); this head reads it from
    the card network's last token vectors, one query a card and one key a token (the counters'
    token standing for "never removed", a card's own for a King). Trained beside the two heads
    (``--partner W``) and not shipped: what it adds is what its gradient teaches the trunk.
    """

    def __init__(self, d: int) -> None:
        """See the class docstring."""
        super().__init__()
        self.q, self.k = nn.Linear(d, d), nn.Linear(d, d)

    def logits(self, h: torch.Tensor, there: torch.Tensor) -> torch.Tensor:
        """Each card's scores over the tokens ``(B, 52, 53)``.

        Only "never removed" and the cards ``there`` (``(B, 52)`` bool) may be named.
        """
        s = self.q(h[:, 1:]) @ self.k(h).transpose(1, 2) * h.shape[-1] ** -0.5
        ok = torch.cat([there.new_ones(len(h), 1), there], 1)
        return s.masked_fill(~ok[:, None, :], -1e9)

    def forward(self, h: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Cross-entropy over the cards still there and the share right ``(loss, accuracy)``.

        ``h``: ``(B, 53, d)`` the network's token vectors; ``target``: ``(B, 52)`` long, -1
        where a card is gone (or the position has no line), so it is left out.
        """
        there = target >= 0
        s = self.logits(h, there).reshape(-1, 53)
        flat = target.reshape(-1)
        if not there.any():
            return s.sum() * 0.0, s.new_zeros(())
        loss = nn.functional.cross_entropy(s, flat, ignore_index=-1)
        right = (s.argmax(1) == flat)[flat >= 0].float().mean()
        return loss, right


def watch(net: nn.Module) -> tuple[dict[str, torch.Tensor], RemovableHandle]:
    """The card network's last token vectors, kept at each forward pass (``seen["h"]``).

    Also returns the hook's handle (``remove()`` it when done). What the head reads, without
    a second pass through the network.
    """
    seen: dict[str, torch.Tensor] = {}
    return seen, net.ln.register_forward_hook(lambda m, i, o: seen.update(h=o))


@torch.no_grad()
def partner_right(net: nn.Module, aux: PartnerHead, data: dict[str, np.ndarray]) -> float:
    """The share of the cards still there whose partner in the line ``aux`` names (held out)."""
    seen, hook = watch(net)
    right, n = 0.0, 0
    for at in range(0, len(data["teacher"]), 1024):
        x = torch.as_tensor(data["obs"][at : at + 1024])
        net(tokens(x), torch.as_tensor(data["legal"][at : at + 1024]))
        target = torch.as_tensor(data["partner"][at : at + 1024].astype(np.int64))
        k = int((target >= 0).sum())
        right += float(aux(seen["h"], target)[1]) * k
        n += k
    hook.remove()
    return right / max(n, 1)

"""PPO's networks: the MLPs over the env's observations, and the card network as an actor.

Split from :mod:`pyramid_env.lab.ppo_fast` (the trainer): what its config builds
(:func:`build_net`), what ``--init`` loads into it (:func:`load_init`) and what a run exports
for the benchmark (:func:`export`, :meth:`CardPolicy.export`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pyramid_env.agents import MLPPolicy
from pyramid_env.agents.cardnet import CardNet
from pyramid_env.agents.cardnet_torch import ARCHS, FLAGS, load_shipped
from pyramid_env.engine.errors import PyramidError
from pyramid_env.env import PyramidVectorEnv
from pyramid_env.env.actions import N_ACTIONS

CARD_NETS = ARCHS[:-1]  # cardnet_torch.build's card networks (its last, "flat", is an MLP)
CARD_PLAYS = ("q", "policy", "sample")  # how the actor reads the two heads (CardNet's play)


def cards(cfg: dict[str, Any]) -> bool:
    """The config trains the card network (float ``counts`` observations, not uint8)."""
    return cfg.get("ppo", {}).get("arch", "mlp") == "cards"


def layer(n_in: int, n_out: int, std: float = 2**0.5) -> nn.Linear:
    """A linear layer with CleanRL's orthogonal initialisation."""
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


def mlp(n_in: int, hidden: list[int], n_out: int, std: float) -> nn.Sequential:
    """Tanh MLP: ``hidden`` widths, then a linear head initialised with ``std``."""
    mods: list[nn.Module] = []
    for h in hidden:
        mods += [layer(n_in, h), nn.Tanh()]
        n_in = h
    return nn.Sequential(*mods, layer(n_in, n_out, std))


class FlatNet(nn.Module):
    """Separate actor and critic MLPs on a flat observation (uint8 in, scaled by ``1/high``).

    The scaled input equals the env's float32 form, so the actor exports as it is.
    """

    def __init__(self, high: np.ndarray, hidden: list[int]) -> None:
        """``high``: the uint8 space's upper bounds, one per input; ``hidden``: layer widths."""
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(1.0 / high.astype(np.float32)))
        self.actor = mlp(len(high), hidden, N_ACTIONS, 0.01)
        self.critic = mlp(len(high), hidden, 1, 1.0)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits ``(B, 327)`` and values ``(B,)``."""
        x = obs.float() * self.scale
        return self.actor(x), self.critic(x).squeeze(-1)


class CompactNet(nn.Module):
    """An embedding per card row of the ``compact`` form, then actor and critic MLPs.

    Each of the 52 card rows becomes the sum of embeddings of its rank (0..14), its ``where``
    (0..6) and its place, plus learned vectors for ``playable`` and ``seen``; the rows and the
    counters (scaled to [0, 1]) are concatenated into one vector that both MLPs read.
    """

    def __init__(self, hidden: list[int], embed: int) -> None:
        """``hidden``: the MLPs' widths; ``embed``: the width of a card row's embedding."""
        super().__init__()
        self.rank = nn.Embedding(15, embed)
        self.where = nn.Embedding(7, embed)
        self.place = nn.Parameter(torch.randn(52, embed) * 0.1)
        self.flags = nn.Parameter(torch.randn(2, embed) * 0.1)
        n_in = 52 * embed + 5
        self.actor = mlp(n_in, hidden, N_ACTIONS, 0.01)
        self.critic = mlp(n_in, hidden, 1, 1.0)

    def features(self, obs: torch.Tensor) -> torch.Tensor:
        """The concatenated row embeddings and counters of a batch ``(B, 53, 5)``."""
        x = obs.long()
        cards = x[:, :52]
        h = self.rank(cards[..., 0]) + self.where(cards[..., 2]) + self.place
        h = h + cards[..., 3:5].float() @ self.flags
        return torch.cat([h.flatten(1), x[:, 52].float() / 255.0], dim=1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits ``(B, 327)`` and values ``(B,)``."""
        f = self.features(obs)
        return self.actor(f), self.critic(f).squeeze(-1)


class CardPolicy(nn.Module):
    """The card network as actor, and a small critic on its counters' token.

    The actor's logits are the shipped agent's move scores over ``temperature``, read from the
    two heads as the agent reads them (:meth:`CardNet.act_logits`): with ``play = "q"`` the
    chance the deal stays winnable, the policy logit times ``tie`` breaking near ties; with
    ``"policy"`` or ``"sample"`` the policy's logits. So the greedy policy is what the exported
    :class:`CardNetAgent` plays (up to the float16 rounding of its saved weights), and the
    sampled one explores among the moves the network rates alike. The critic reads the token
    detached: a fresh value head must not pull the pretrained network about while it learns.
    """

    def __init__(self, card: nn.Module, temperature: float, tie: float, play: str = "q") -> None:
        """The actor ``card`` (a :class:`~pyramid_env.agents.cardnet_torch.CardTorch`).

        ``play``: one of :data:`CARD_PLAYS`; ``tie``: the tie-break's weight for ``"q"``, the
        temperature the exported agent samples at for ``"sample"``.
        """
        super().__init__()
        if play not in CARD_PLAYS:
            raise PyramidError(f"play={play!r}: expected one of {CARD_PLAYS}")
        self.card, self.temperature, self.tie, self.play = card, temperature, tie, play
        d = card.meta["d"]
        self.critic = nn.Sequential(layer(d, 64), nn.Tanh(), layer(64, 1, 1.0))

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits ``(B, 327)`` and values ``(B,)``."""
        out, g = self.card.scores(obs)
        score = out[:, 0]
        if self.play == "q":
            score = torch.sigmoid(out[:, 1]) + self.tie * score
        return score / self.temperature, self.critic(g.detach()).squeeze(-1)

    def export(self, **meta: Any) -> CardNet:
        """The actor as the shipped numpy network, played the way it was trained."""
        from pyramid_env.agents.cardnet_torch import export

        plays = {"play": self.play, "tie": self.tie, "obs_mode": "counts"}
        return export(self.card, plays | meta)


class Logits(nn.Module):
    """The actor alone (logits of a batch), what :class:`PolicyAgent` plays for the compact net."""

    def __init__(self, net: nn.Module) -> None:
        """Wrap ``net``; its value head is ignored."""
        super().__init__()
        self.net = net

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """Logits of a batch of observations."""
        return self.net(obs)[0]


def build_net(cfg: dict[str, Any], env: PyramidVectorEnv) -> nn.Module:
    """The network the config names, seeded by ``torch.manual_seed`` beforehand."""
    ppo = cfg.get("ppo", {})
    hidden = list(ppo.get("hidden", [64, 64]))
    if cards(cfg):
        from pyramid_env.agents.cardnet_torch import build

        card = build(ppo.get("card_net", "rel"), ppo.get("size", "small"), ppo.get("layers"))
        play = ppo.get("play", "q")
        return CardPolicy(card, ppo.get("temperature", 0.05), ppo.get("tie", 0.1), play)
    if cfg["obs_mode"] == "compact":
        return CompactNet(hidden, ppo.get("embed", 8))
    return FlatNet(np.asarray(env.single_observation_space.high, np.float64), hidden)


def export(net: nn.Module, **meta: Any) -> MLPPolicy:
    """The actor of a :class:`FlatNet` as the numpy policy the benchmark plays.

    Raises:
        PyramidError: ``net`` is not a :class:`FlatNet` (the compact net has no numpy form).
    """
    if not isinstance(net, FlatNet):
        raise PyramidError(f"{type(net).__name__} cannot be exported to an MLPPolicy")
    layers = [
        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
        for m in net.actor
        if isinstance(m, nn.Linear)
    ]
    return MLPPolicy(layers, "tanh", meta)


def load_init(net: nn.Module, path: Path) -> None:
    """Start from ``path``: a ``.pt`` of this trainer, or the weights of a shipped ``.npz``.

    An :class:`MLPPolicy` (the actor's layers) for the MLP; for the card network a
    :class:`CardNet` (``CardNet.save``).

    Raises:
        PyramidError: the file's layers do not fit the network.
    """
    if path.suffix == ".pt":
        try:
            net.load_state_dict(torch.load(path, weights_only=True))
        except (OSError, RuntimeError) as err:
            raise PyramidError(f"init={str(path)!r} does not fit the network: {err}") from err
        return
    if isinstance(net, CardPolicy):
        shipped = CardNet.load(path)
        check_card_init(net, shipped, path)
        try:
            load_shipped(net.card, shipped)
        except RuntimeError as err:
            raise PyramidError(f"init={str(path)!r} does not fit the network: {err}") from err
        return
    init = MLPPolicy.load(path)
    linears = [m for m in getattr(net, "actor", []) if isinstance(m, nn.Linear)]
    shapes = [tuple(w.shape[::-1]) for w, _ in init.layers]
    if not isinstance(net, FlatNet) or shapes != [tuple(m.weight.shape) for m in linears]:
        raise PyramidError(f"init={str(path)!r}: layers {shapes} do not fit the actor")
    copy_layers(linears, init)


def check_card_init(net: CardPolicy, shipped: CardNet, path: Path) -> None:
    """Refuse a card network whose inputs or way of playing differ from the config's.

    Its weights would not fit, or the trainer's actor would not play what the file plays: the
    config must say ``ppo.card_net`` and ``ppo.play`` (and ``ppo.tie``, except for ``"policy"``,
    which has none) as the file does, rather than either being silently replaced by the other.

    Raises:
        PyramidError: naming the setting, the config's value and the file's.
    """
    ours = {k for k in FLAGS if net.card.meta.get(k)}
    theirs = {k for k in FLAGS if shipped.meta.get(k)}
    if ours != theirs:
        raise PyramidError(
            f"init={str(path)!r} is a card network with {sorted(theirs)}; the config's "
            f"ppo.card_net builds one with {sorted(ours)}: set ppo.card_net to the file's"
        )
    blocks = (shipped.meta.get("d"), shipped.meta.get("layers"))
    if blocks != (net.card.meta["d"], net.card.meta["layers"]):
        raise PyramidError(
            f"init={str(path)!r} is a card network of width {blocks[0]} and {blocks[1]} blocks; "
            f"the config's ppo.size and ppo.layers build width {net.card.meta['d']} and "
            f"{net.card.meta['layers']} blocks: set them to the file's"
        )
    play = shipped.meta.get("play", "q")
    if play != net.play:
        raise PyramidError(
            f"init={str(path)!r} plays {play!r}; the config's ppo.play={net.play!r}: "
            "set ppo.play to the file's"
        )
    tie = float(shipped.meta.get("tie", 1.0 if play == "sample" else 0.01))
    if play != "policy" and not np.isclose(tie, net.tie):
        raise PyramidError(
            f"init={str(path)!r} plays {play!r} with tie={tie}; the config's ppo.tie={net.tie}: "
            "set ppo.tie to the file's"
        )


def copy_layers(linears: list[nn.Linear], policy: MLPPolicy) -> None:
    """Copy an exported policy's weights into torch layers, one layer each, in order."""
    with torch.no_grad():
        for lin, (w, b) in zip(linears, policy.layers, strict=True):
            lin.weight.copy_(torch.as_tensor(w.T))
            lin.bias.copy_(torch.as_tensor(b))

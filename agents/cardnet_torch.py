"""The card network in torch: for training, and as a Stable-Baselines3 policy's body.

The twin of the shipped numpy :class:`~pyramid_env.agents.cardnet.CardNet` (same weights'
names, same outputs: a test checks them against each other); ``FlatTorch`` is a flat MLP with
the same two outputs per move, for comparison. Needs the ``train`` extra (torch).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from pyramid_env.agents import cardnet_inputs as inputs
from pyramid_env.agents.cardnet import (
    KING_IDS,
    KING_PLACE,
    PAIR_A,
    PAIR_B,
    PAIR_IDS,
    CardNet,
    place_tokens,
)
from pyramid_env.agents.cardnet_inputs import ORDERS, RELATIONS, TALLIES, TALLY_CAP, relations
from pyramid_env.engine.moves import NUM_MOVES
from pyramid_env.env import observation as ob
from pyramid_env.env.observation import rank_maps

COUNTER_SCALE = torch.tensor([255, 255, 24, 24, 28], dtype=torch.float32)


def tokens(x: torch.Tensor) -> dict[str, torch.Tensor]:
    """Packed observations ``(B, 122)`` (card_data's form) as the network's inputs."""
    x = x.long()
    counters = x[:, 104:109].float()
    recycles_left = nn.functional.one_hot(x[:, 105].clamp(max=3), 4)
    glob = torch.cat([counters / COUNTER_SCALE, x[:, 109:122].float() / 4, recycles_left], 1)
    places = {"prank": (0, 28), "exposed": (28, 56), "srank": (56, 80), "where": (80, 104)}
    return {k: x[:, a:b] for k, (a, b) in places.items()} | {"glob": glob.float()}


def from_counts(x: torch.Tensor) -> dict[str, torch.Tensor]:
    """Counts observations ``(B, 922)`` as the network's inputs (the one-hot rows' indices)."""
    at = np.cumsum([0, 28 * 14, 28, 24 * 15, 24 * 5])
    return {
        "prank": x[:, at[0] : at[1]].view(-1, 28, 14).argmax(-1),
        "exposed": x[:, at[1] : at[2]].round().long(),
        "srank": x[:, at[2] : at[3]].view(-1, 24, 15).argmax(-1),
        "where": x[:, at[3] : at[4]].view(-1, 24, 5).argmax(-1),
        "glob": x[:, at[4] :],
    }


def relabel(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each packed position with its ranks relabelled by a random game-keeping map."""
    maps = rank_maps(len(x), rng)
    out = x.copy()
    out[:, 0:28] = np.take_along_axis(maps, x[:, 0:28].astype(np.int64), 1)
    out[:, 56:80] = np.take_along_axis(maps, x[:, 56:80].astype(np.int64), 1)
    unseen = np.zeros((len(x), 13), x.dtype)
    np.put_along_axis(unseen, maps[:, 1:14] - 1, x[:, 109:122], 1)
    out[:, 109:122] = unseen
    return out


def counts_from_packed(x: np.ndarray) -> np.ndarray:
    """Packed positions -> the env's ``counts`` observation (what the shipped agent reads)."""
    pieces, at = {}, 0
    for name, size, _ in ob.PIECES:
        pieces[name] = x[:, at : at + size]
        at += size
    pieces["unseen"] = x[:, at:]
    return ob.counts(pieces)


class Block(nn.Module):
    """Pre-norm self-attention and feed-forward, as the numpy twin computes them."""

    def __init__(self, d: int, heads: int, rel: bool = False) -> None:
        """See the class docstring."""
        super().__init__()
        self.heads = heads
        if rel:  # one bias per head and relation (cardnet_inputs.relations), zero at the start
            self.rel = nn.Parameter(torch.zeros(heads, RELATIONS))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.ff1, self.ff2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)

    def forward(self, h: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
        """The module's output for a batch and its attention's bias (:meth:`bias`)."""
        b, t, d = h.shape
        q, k, v = self.qkv(self.ln1(h)).view(b, t, 3, self.heads, -1).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # (b, heads, t, e)
        att = (q * q.shape[-1] ** -0.5) @ k.transpose(-1, -2)  # scaled before: 4x fewer
        if bias is not None:
            att = att + bias
        att = torch.softmax(att, -1)
        h = h + self.out((att @ v).transpose(1, 2).reshape(b, t, d))
        return h + self.ff2(torch.relu(self.ff1(self.ln2(h))))

    def bias(self, rel: torch.Tensor | None) -> torch.Tensor | None:
        """The attention's bias from relation ids; made once a forward pass, shared by loops.

        By ``index_select``: its backward (``index_add``) is far cheaper than indexing's.
        """
        flat = None if rel is None else self.rel.index_select(1, rel.reshape(-1))
        return None if flat is None else flat.view(-1, *rel.shape).transpose(0, 1)


class Heads(nn.Module):
    """Scores every move from the places' vectors and the global vector: ``(B, 2, 327)``.

    With ``probe`` (``heads`` > 0), each pair move also reads the board from its own two
    places: a query made of the two places' vectors attends over every token, with one learned
    bias per head for the relation of the token to each of the move's cards (covers it, pairs
    with it, ...: :func:`~pyramid_env.agents.cardnet_inputs.relations`), and what it reads is
    added to the move's hidden layer. A move's value depends on what its two cards do for the
    others (free a card, take the last partner of one); the sum of the two places'
    vectors, alone, carries that only where the trunk has written it into each place.
    """

    def __init__(self, d: int, m: int, probe: int = 0) -> None:
        """See the class docstring."""
        super().__init__()
        self.pair_in, self.pair_out = nn.Linear(d, m), nn.Linear(m, 2)
        self.king, self.turn = nn.Linear(d, 2), nn.Linear(d, 4)
        self.bias = nn.Parameter(torch.zeros(2, NUM_MOVES))
        self.probe = probe
        if probe:
            self.probe_q, self.probe_kv = nn.Linear(d, d), nn.Linear(d, 2 * d)
            self.probe_rel = nn.Parameter(torch.zeros(probe, RELATIONS))
            self.probe_out = nn.Linear(d, m)
            nn.init.zeros_(self.probe_out.weight)  # adds nothing at first: a grown head
            nn.init.zeros_(self.probe_out.bias)
        # Action ids: draw and recycle, then the Kings, then the pairs, each in place order.
        assert (KING_IDS == np.arange(2, 32)).all() and (PAIR_IDS == np.arange(32, NUM_MOVES)).all()
        both = np.zeros((len(PAIR_IDS), 30), np.float32)  # pair move -> its two places
        both[np.arange(len(PAIR_IDS)), PAIR_A] = 1
        both[np.arange(len(PAIR_IDS)), PAIR_B] = 1
        self.register_buffer("both", torch.as_tensor(both), persistent=False)
        self.register_buffer("kp", torch.as_tensor(KING_PLACE[KING_IDS]), persistent=False)
        self.register_buffer("pa", torch.as_tensor(PAIR_A), persistent=False)
        self.register_buffer("pb", torch.as_tensor(PAIR_B), persistent=False)

    def forward(self, places: torch.Tensor, g: torch.Tensor, h: torch.Tensor | None = None,
                rel: torch.Tensor | None = None, where: torch.Tensor | None = None,
                legal: torch.Tensor | None = None) -> torch.Tensor:  # fmt: skip
        """The module's output for a batch (see the class docstring).

        ``h`` (the tokens' vectors), ``rel`` (their relations) and ``where`` (the stock
        places' states) are the probe's inputs, needed with ``probe`` only. ``legal``
        (``(b, 327)`` bool): only the legal pair moves are scored (the others get the bias
        alone), all training needs: under one legal pair a position, not 295.
        """
        b = len(g)
        u = places @ self.pair_in.weight.T  # (b, 30, m)
        if legal is None:  # every pair move
            pre = torch.matmul(self.both, u) + self.pair_in.bias  # (b, 295, m)
        else:  # the legal ones, in a flat list (bi, mi): under one a position, not 295
            bi, mi = torch.nonzero(legal[:, PAIR_IDS[0] :], as_tuple=True)
            pre = u[bi, self.pa[mi]] + u[bi, self.pb[mi]] + self.pair_in.bias  # (n, m)
        if self.probe:
            assert h is not None and rel is not None and where is not None
            if legal is None:  # every pair move
                bi, mi = torch.nonzero(torch.ones(pre.shape[:2], dtype=torch.bool), as_tuple=True)
            read = self.probe_out(self._probe(places, h, rel, where, bi, mi))
            pre = pre.index_put((bi, mi), read, accumulate=True) if legal is None else pre + read
        pair = self.pair_out(torch.relu(pre))
        if legal is not None:  # the others' scores stay 0 (before the bias): never read
            pair = pair.new_zeros(b, len(PAIR_IDS), 2).index_put((bi, mi), pair)
        kings = self.king(places[:, self.kp])  # (b, 30, 2)
        out = torch.cat([self.turn(g).view(b, 2, 2), kings.transpose(1, 2),
                         pair.transpose(1, 2)], 2)  # fmt: skip
        return out + self.bias

    def _probe(self, places: torch.Tensor, h: torch.Tensor, rel: torch.Tensor,
               where: torch.Tensor, bi: torch.Tensor,
               mi: torch.Tensor) -> torch.Tensor:  # fmt: skip
        """What the query of pair move ``mi`` in position ``bi`` reads: ``(len(bi), d)``."""
        _, t, d = h.shape
        heads, e = self.probe, d // self.probe
        a, c = self.pa[mi], self.pb[mi]  # the move's two places
        qp = self.probe_q(places)
        q = (qp[bi, a] + qp[bi, c]).view(-1, heads, e)
        k, v = self.probe_kv(h)[bi].view(len(bi), t, 2, heads, e).unbind(2)
        tok = torch.as_tensor(place_tokens(where.cpu().numpy()), device=h.device)
        bias = self.probe_rel[:, rel[bi, tok[bi, a]]] + self.probe_rel[:, rel[bi, tok[bi, c]]]
        att = torch.einsum("nhe,nthe->nht", q, k) / e**0.5
        att = torch.softmax(att + bias.transpose(0, 1), -1)
        return torch.einsum("nht,nthe->nhe", att, v).reshape(-1, d)


class CardTorch(nn.Module):
    """The card network (see :mod:`pyramid_env.agents.cardnet`), in torch for training."""

    def __init__(
        self,
        d: int = 64,
        layers: int = 2,
        heads: int = 4,
        m: int = 64,
        rel: bool = False,
        probe: bool = False,
        order: bool = False,
        tally: bool = False,
        cover: bool = False,
        loops: int = 1,
    ) -> None:
        """See the class docstring; ``probe`` (with ``rel``): :class:`Heads`' move probe.

        ``order``: each stock card's token also gets an embedding of its place in the cycle
        (:func:`~pyramid_env.agents.cardnet_inputs.cycle_order`); ``tally``: each card's token
        one of each of its counts (:func:`~pyramid_env.agents.cardnet_inputs.tallies`);
        ``cover``: each pyramid card's count of partners on or under it (``covering_partners``).
        Each starts at zero, so adding it to a trained network leaves its function as it was
        (:func:`with_inputs`). ``loops``: the blocks applied this many times, the same weights.
        """
        super().__init__()
        if probe and not rel:
            raise ValueError("probe=True reads the relations: it needs rel=True")
        if loops < 1:
            raise ValueError(f"loops={loops}: times the blocks are applied, at least 1")
        self.rel, self.loops = rel, loops
        if order:  # row 0 (no card) stays zero
            self.order = nn.Embedding(ORDERS, d, padding_idx=0)
            nn.init.zeros_(self.order.weight)
        if tally:
            self.tally = nn.Embedding(TALLIES * (TALLY_CAP + 1), d)
            nn.init.zeros_(self.tally.weight)
        if cover:
            self.cover = nn.Embedding(TALLY_CAP + 1, d)
            nn.init.zeros_(self.cover.weight)
        self.rank, self.where, self.exposed = (
            nn.Embedding(15, d),
            nn.Embedding(6, d),
            nn.Embedding(2, d),
        )
        self.place = nn.Parameter(torch.randn(52, d) * 0.1)
        self.glob = nn.Linear(22, d)
        self.blocks = nn.ModuleList(Block(d, heads, rel) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.heads = Heads(d, m, heads if probe else 0)
        self.meta = {"arch": "cards", "d": d, "layers": layers, "heads": heads, "m": m}
        self.meta |= {"loops": loops} if loops > 1 else {}
        flags = {"rel": rel, "probe": probe, "order": order, "tally": tally, "cover": cover}
        self.meta |= {k: True for k, on in flags.items() if on}

    def forward(
        self, t: dict[str, torch.Tensor] | torch.Tensor, legal: torch.Tensor | None = None
    ) -> torch.Tensor:
        """Policy and Q logits ``(B, 2, 327)`` of :func:`tokens` or of counts observations.

        ``legal``: the legal moves, where only theirs are needed (:class:`Heads`).
        """
        return self.scores(t, legal)[0]

    def scores(
        self, t: dict[str, torch.Tensor] | torch.Tensor, legal: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """The move scores and the counters' token output (a value head's input)."""
        if isinstance(t, torch.Tensor):
            t = from_counts(t)
        n = len(t["prank"])
        where = torch.cat([t["where"].new_full((n, 28), 5), t["where"]], 1)
        rank = torch.cat([t["prank"], t["srank"]], 1)
        exposed = torch.cat([t["exposed"], t["exposed"].new_zeros(n, 24)], 1)
        h = self.rank(rank) + self.where(where) + self.exposed(exposed) + self.place
        if hasattr(self, "order"):
            h = torch.cat([h[:, :28], h[:, 28:] + self.order(cycle_order(t["where"]))], 1)
        if hasattr(self, "tally"):
            unseen = (t["glob"][:, 5:18] * 4).round().cpu().numpy()
            idx = inputs.tally_index(rank.cpu().numpy(), unseen)
            h = h + self.tally(torch.as_tensor(idx, device=h.device)).sum(-2)
        if hasattr(self, "cover"):
            near = inputs.covering_partners(rank.cpu().numpy())
            h = h + self.cover(torch.as_tensor(near, device=h.device))
        h = torch.cat([self.glob(t["glob"])[:, None], h], 1)
        rel = self.relations(rank) if self.rel else None
        for block, bias in [(b, b.bias(rel)) for b in self.blocks] * self.loops:  # bias once
            h = block(h, bias)
        h = self.ln(h)
        g, cards = h[:, 0], h[:, 1:]
        stock, sw = cards[:, 28:], t["where"]
        waste = (stock * (sw == 3)[..., None]).sum(1)
        drawn = (stock * (sw == 4)[..., None]).sum(1)
        places = torch.cat([cards[:, :28], waste[:, None], drawn[:, None]], 1)
        return self.heads(places, g, h, rel, sw, legal), g  # h, rel, sw: the probe's

    def relations(self, rank: torch.Tensor) -> torch.Tensor:
        """Token pairs' relation ids ``(B, 53, 53)``: :func:`cardnet_inputs.relations`'s."""
        return torch.as_tensor(relations(rank.cpu().numpy()), device=rank.device)


def cycle_order(where: torch.Tensor) -> torch.Tensor:
    """:func:`~pyramid_env.agents.cardnet_inputs.cycle_order` of a batch, as a tensor."""
    return torch.as_tensor(inputs.cycle_order(where.cpu().numpy()), device=where.device)


class FlatTorch(nn.Module):
    """An MLP on the counts observation, the same two outputs per move."""

    def __init__(self, hidden: tuple[int, ...] = (512, 512)) -> None:
        """See the class docstring."""
        super().__init__()
        layers: list[nn.Module] = []
        for a, b in zip([ob.COUNTS_SIZE, *hidden[:-1]], hidden, strict=True):
            layers += [nn.Linear(a, b), nn.ReLU()]
        layers.append(nn.Linear(hidden[-1], 2 * NUM_MOVES))
        self.net = nn.Sequential(*layers)
        self.meta = {"arch": "flat", "hidden": list(hidden)}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The module's output for a batch (see the class docstring)."""
        return self.net(x).view(len(x), 2, NUM_MOVES)


def export(net: nn.Module, meta: dict[str, Any]) -> CardNet:
    """The trained network in its shipped numpy form."""
    weights = {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}
    return CardNet(weights, net.meta | meta)


def load_shipped(net: nn.Module, shipped: CardNet) -> nn.Module:
    """``net`` with a shipped network's weights (the inverse of :func:`export`); returns it.

    Raises ``RuntimeError`` (torch's) where the weights do not fit ``net``'s shapes.
    """
    net.load_state_dict({k: torch.as_tensor(v) for k, v in shipped.w.items()})
    return net


def grow(net: CardTorch, layers: int) -> CardTorch:
    """``net`` with blocks added on top up to ``layers``, computing the same function at first.

    A new block's two output projections start at zero, so it adds nothing until training
    moves them: the cheapest test of whether depth is what a trained network lacks (Net2Net).

    Raises:
        ValueError: where ``layers`` is fewer than ``net`` has.
    """
    have = net.meta["layers"]
    if layers < have:
        raise ValueError(f"layers={layers}: the network has {have} already; grow adds blocks")
    d, heads = net.meta["d"], net.meta["heads"]
    for _ in range(layers - have):
        block = Block(d, heads, net.rel)
        for lin in (block.out, block.ff2):
            nn.init.zeros_(lin.weight)
            nn.init.zeros_(lin.bias)
        net.blocks.append(block)
    net.meta["layers"] = layers
    return net


def with_probe(net: CardTorch) -> CardTorch:
    """``net`` with :class:`Heads`' move probe added, computing the same function at first.

    The probe's output layer starts at zero (as :func:`grow`'s new blocks do), so a trained
    network goes on from where it stands.

    Raises:
        ValueError: where ``net`` has no relations (the probe reads them) or has a probe.
    """
    if not net.rel or net.heads.probe:
        raise ValueError("with_probe: a card network with relations and no probe yet")
    dims = dims_of(net.meta)
    grown = CardTorch(**dims, rel=True, probe=True)
    missing, unexpected = grown.load_state_dict(net.state_dict(), strict=False)
    assert not unexpected and all(k.startswith("heads.probe_") for k in missing), missing
    return grown


INPUTS = ("order", "tally", "cover")  # inputs with_inputs can add to a trained network
FLAGS = ("rel", "probe", *INPUTS)  # a card network's switches, in its metadata when on


def dims_of(meta: dict[str, Any]) -> dict[str, int]:
    """A card network's dimensions from its metadata (``loops`` is 1 where it is absent)."""
    return {k: meta[k] for k in ("d", "layers", "heads", "m")} | {"loops": meta.get("loops", 1)}


def with_inputs(net: CardTorch, *names: str) -> CardTorch:
    """``net`` with the embeddings ``names`` (of :data:`INPUTS`) added, computing as it did.

    They start at zero, so the network goes on from where it stands.

    Raises:
        ValueError: a name not in :data:`INPUTS`, or an input the network has already.
    """
    for name in names:
        if name not in INPUTS:
            raise ValueError(f"with_inputs: {name!r} is not one of {INPUTS}")
        if hasattr(net, name):
            raise ValueError(f"with_inputs: the network has the {name!r} input already")
    dims = dims_of(net.meta)
    flags = {k: hasattr(net, k) or k in names for k in INPUTS}
    grown = CardTorch(**dims, rel=net.rel, probe=bool(net.heads.probe), **flags)
    missing, unexpected = grown.load_state_dict(net.state_dict(), strict=False)
    assert not unexpected and sorted(missing) == sorted(f"{k}.weight" for k in names), missing
    return grown


def twin(shipped: CardNet) -> CardTorch:
    """A shipped card network's torch twin, built from its own dimensions, with its weights."""
    if shipped.meta["arch"] != "cards":
        raise ValueError(f"a card network's twin: this one is {shipped.meta['arch']!r}")
    dims = dims_of(shipped.meta)
    flags = {k: bool(shipped.meta.get(k)) for k in FLAGS}
    return load_shipped(CardTorch(**dims, **flags), shipped)


ARCHS = ("cards", "rel", "probe", "order", "tally", "cover", "flat")  # build's, flat last
SIZES = {"small": {"d": 48, "layers": 2}, "base": {"d": 64, "layers": 3}}  # width, depth


def build(arch: str, size: str, layers: int | None = None, loops: int = 1) -> nn.Module:
    """The network of ``arch`` and ``size`` (``small`` or ``base``).

    ``arch``: ``cards`` (the card network); ``rel``, with relation biases in its attention;
    ``probe``, ``rel`` with :class:`Heads`' move probe; ``order``, ``tally`` and ``cover``,
    ``rel`` with one input more (the cycle's order, each card's tallies, and ``cover`` with the
    tallies too: :mod:`pyramid_env.agents.cardnet_inputs`); ``flat``, an MLP.
    ``layers``: the card network's depth, where it is not the size's (2 small, 3 base);
    ``loops``: the times its blocks are applied (:class:`CardTorch`).
    """
    if arch in ARCHS[:-1]:
        dims = SIZES[size] | ({} if layers is None else {"layers": layers})
        flags = {"rel": arch != "cards", "probe": arch == "probe"}
        flags |= {k: arch == k for k in INPUTS} | {"tally": arch in ("tally", "cover")}
        return CardTorch(**dims, **flags, loops=loops)
    if arch == "flat":
        return FlatTorch((256, 256) if size == "small" else (512, 512))
    raise SystemExit(f"--arch {arch!r}: one of {', '.join(map(repr, ARCHS))}")


def sb3_policy() -> type:
    """``CardNetPolicy``: the card network as sb3-contrib's ``MaskablePPO`` policy.

    The card network's policy logits are the action logits (no extra layer: one learned
    function scores every pair move), and a linear value head reads the counters' token. It
    takes the env's ``obs_mode="counts"``. Pass ``policy_kwargs={"net": {...}}`` for the
    network's size (:class:`CardTorch`'s arguments).
    """
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class CardFeatures(BaseFeaturesExtractor):
        def __init__(self, observation_space: Any, **net: Any) -> None:
            """See the class docstring."""
            card = CardTorch(**net)
            super().__init__(observation_space, NUM_MOVES + card.meta["d"])
            self.card = card

        def forward(self, obs: torch.Tensor) -> torch.Tensor:
            """The module's output for a batch (see the class docstring)."""
            out, g = self.card.scores(obs)
            return torch.cat([out[:, 0], g], 1)

    class Split(nn.Module):
        def __init__(self, d: int) -> None:
            """See the class docstring."""
            super().__init__()
            self.latent_dim_pi, self.latent_dim_vf = NUM_MOVES, d

        def forward(self, f: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            """The module's output for a batch (see the class docstring)."""
            return f[:, :NUM_MOVES], f[:, NUM_MOVES:]

        def forward_actor(self, f: torch.Tensor) -> torch.Tensor:
            return f[:, :NUM_MOVES]

        def forward_critic(self, f: torch.Tensor) -> torch.Tensor:
            return f[:, NUM_MOVES:]

    class CardNetPolicy(MaskableActorCriticPolicy):
        def __init__(self, *args: Any, net: dict[str, Any] | None = None, **kwargs: Any) -> None:
            """See the class docstring."""
            kwargs.setdefault("features_extractor_class", CardFeatures)
            kwargs.setdefault("features_extractor_kwargs", net or {})
            kwargs.setdefault("ortho_init", False)  # keep the embeddings' own initialisation
            super().__init__(*args, **kwargs)

        def _build_mlp_extractor(self) -> None:
            self.mlp_extractor = Split(self.features_extractor.card.meta["d"])

        def _get_action_dist_from_latent(self, latent_pi: torch.Tensor) -> Any:
            return self.action_dist.proba_distribution(action_logits=latent_pi)

    return CardNetPolicy


def from_sb3(model: Any, **meta: Any) -> CardNet:
    """A ``MaskablePPO`` model with the :func:`sb3_policy` policy as a shipped numpy network.

    Its policy logits are what the agent plays by (``meta["play"] = "policy"``).
    """
    card = model.policy.features_extractor.card
    return export(card, {"play": "policy", "obs_mode": "counts"} | meta)

"""A network over the cards: one token per card place, self-attention, moves scored by place.

A flat network must learn the pairing rule once for each of the 295 pair moves. This one reads
the ``counts`` observation as 52 card tokens (28 slots, 24 stock places) and one of the
counters; self-attention lets each card find its partners and blockers; one learned function
scores every pair move from the two places it names. Two numbers a move: a policy logit and a
Q logit (the chance the deal stays winnable after it). :class:`CardNet` is the shipped form,
numpy weights and a numpy forward pass (the benchmark plays it without torch); its torch twin
is :mod:`pyramid_env.agents.cardnet_torch` (a test checks they agree).
"""

from __future__ import annotations

import hashlib
import json
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents.base import Turn
from pyramid_env.agents.cardnet_inputs import (  # noqa: F401  (re-exported: the inputs' home)
    GEOMETRY,
    ORDERS,
    RELATIONS,
    TALLIES,
    TALLY_CAP,
    TOKENS,
    covering_partners,
    cycle_order,
    relations,
    tallies,
    tally_index,
)
from pyramid_env.engine.errors import PyramidError
from pyramid_env.engine.moves import MOVES, NUM_MOVES, MoveKind
from pyramid_env.env import observation as ob
from pyramid_env.env.observation import rank_maps

PLAY_MODES = ("q", "policy", "both", "filter", "sample")  # how the agent reads the two heads
PLACES = 30  # 28 slots, the waste top (28), the drawn card / face-up stock top (29)


def _move_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pair moves' two places, and the King moves' place, by action id."""
    pair_ids, pair_a, pair_b, king_place = [], [], [], np.full(NUM_MOVES, -1)
    for m in MOVES:
        if m.kind is MoveKind.PAIR:
            pair_ids.append(m.id)
            pair_a.append(m.a)
            pair_b.append(m.b)
        elif m.kind is MoveKind.KING:
            king_place[m.id] = m.a
    return np.array(pair_ids), np.array(pair_a), np.array(pair_b), king_place


PAIR_IDS, PAIR_A, PAIR_B, KING_PLACE = _move_tables()
KING_IDS = np.flatnonzero(KING_PLACE >= 0)


def place_tokens(where: np.ndarray) -> np.ndarray:
    """Each move place's token ``(B, 30)`` from the stock places' states ``(B, 24)``.

    Slot ``p`` is token ``p + 1``; the waste top (place 28) and the drawn card (29) are the
    tokens of the stock places that hold them, or the counters' token 0 where there is none.
    """
    n = len(where)
    out = np.zeros((n, PLACES), np.int64)
    out[:, :28] = np.arange(1, 29)
    for place, state in ((28, 3), (29, 4)):
        at = where == state
        out[:, place] = np.where(at.any(1), 29 + at.argmax(1), 0)
    return out


def parse_counts(x: np.ndarray) -> dict[str, np.ndarray]:
    """The ``counts`` observation ``(B, 922)`` as the token indices and the global numbers.

    Returns ``prank`` (B, 28) 0..13, ``exposed`` (B, 28), ``srank`` (B, 24) 0..14, ``where``
    (B, 24) 0..4 and ``glob`` (B, 22): the counters, the unseen ranks and the passes left.
    """
    x = np.asarray(x, np.float32).reshape(-1, ob.COUNTS_SIZE)
    at = 0

    def take(n: int) -> np.ndarray:
        nonlocal at
        at += n
        return x[:, at - n : at]

    prank = take(28 * 14).reshape(-1, 28, 14).argmax(-1)
    exposed = take(28).astype(np.int64)
    srank = take(24 * 15).reshape(-1, 24, 15).argmax(-1)
    where = take(24 * 5).reshape(-1, 24, 5).argmax(-1)
    glob = x[:, at:]
    return {"prank": prank, "exposed": exposed, "srank": srank, "where": where, "glob": glob}


def relabel_counts(p: dict[str, np.ndarray], m: np.ndarray) -> dict[str, np.ndarray]:
    """Parsed observations with rank ``r`` read as ``m[r]`` (a map of ``rank_maps``)."""
    glob = p["glob"].copy()
    glob[:, 5 + m[1:14] - 1] = p["glob"][:, 5:18]  # the unseen cards per rank follow them
    return p | {"prank": m[p["prank"]], "srank": m[p["srank"]], "glob": glob}


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * g + b


class CardNet:
    """The card network's weights as numpy arrays, with its forward pass.

    Args:
        weights: name -> array, as the torch twin's ``state_dict`` names them.
        meta: ``layers``, ``heads`` and what it was trained on (``rules``, ``obs_mode``;
            ``train``: the training run's settings, which play does not read).
    """

    def __init__(self, weights: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        """See the class docstring."""
        self.w = {k: np.asarray(v, np.float32) for k, v in weights.items()}
        self.meta = dict(meta)
        self.meta.setdefault("obs_mode", "counts")

    def forward(self, obs: np.ndarray) -> np.ndarray:
        """Policy and Q logits of a batch of ``counts`` observations: ``(B, 2, 327)``.

        With ``meta["views"] = k > 1`` the logits are the mean over the position and ``k - 1``
        fixed relabellings of its ranks that keep the game (:func:`relabel_counts`): the
        network was trained on every relabelling, and its errors differ between them.
        """
        if self.meta.get("arch") == "flat":
            return self._flat(obs)
        p = parse_counts(obs)
        views = int(self.meta.get("views", 1))
        if views == 1:
            return self._cards(p)
        maps = rank_maps(views - 1, np.random.default_rng(0))
        outs = [self._cards(p)] + [self._cards(relabel_counts(p, m)) for m in maps]
        return np.mean(outs, axis=0)

    def _cards(self, p: dict[str, np.ndarray]) -> np.ndarray:
        """The card network's outputs for parsed observations (:func:`parse_counts`)."""
        w = self.w
        n = len(p["prank"])
        where = np.concatenate([np.full((n, 28), 5), p["where"]], 1)
        rank = np.concatenate([p["prank"], p["srank"]], 1)
        exposed = np.concatenate([p["exposed"], np.zeros((n, 24), np.int64)], 1)
        h = w["rank.weight"][rank] + w["where.weight"][where] + w["exposed.weight"][exposed]
        h = h + w["place"][None]
        if "order.weight" in w:  # the stock cards' order in the cycle (cycle_order)
            h[:, 28:] += w["order.weight"][cycle_order(p["where"])]
        if "tally.weight" in w:  # each card's counts of partners and rivals (tallies)
            h += w["tally.weight"][tally_index(rank, np.rint(p["glob"][:, 5:18] * 4))].sum(-2)
        if "cover.weight" in w:  # partners directly on or under it (covering_partners)
            h += w["cover.weight"][covering_partners(rank)]
        g = p["glob"] @ w["glob.weight"].T + w["glob.bias"]
        h = np.concatenate([g[:, None], h], 1)  # (B, 53, d)
        heads = self.meta["heads"]
        rel = relations(rank) if "blocks.0.rel" in w else None
        layers = self.meta["layers"]
        for i in range(layers * self.meta.get("loops", 1)):  # loops: the blocks over again
            pre = f"blocks.{i % layers}."
            y = _layer_norm(h, w[pre + "ln1.weight"], w[pre + "ln1.bias"])
            qkv = y @ w[pre + "qkv.weight"].T + w[pre + "qkv.bias"]
            b, t, d3 = qkv.shape
            d = d3 // 3
            # (b, heads, t, e) and batched matmul: at batch 1 (the agent's every turn) numpy's
            # matmul is several times faster than the same product through einsum
            q, k, v = (
                qkv[..., j * d : (j + 1) * d].reshape(b, t, heads, -1).transpose(0, 2, 1, 3)
                for j in range(3)
            )
            att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d // heads)
            if rel is not None:
                att = att + np.moveaxis(w[pre + "rel"][:, rel], 0, 1)
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            y = (att @ v).transpose(0, 2, 1, 3).reshape(b, t, d)
            h = h + y @ w[pre + "out.weight"].T + w[pre + "out.bias"]
            y = _layer_norm(h, w[pre + "ln2.weight"], w[pre + "ln2.bias"])
            y = np.maximum(y @ w[pre + "ff1.weight"].T + w[pre + "ff1.bias"], 0.0)
            h = h + y @ w[pre + "ff2.weight"].T + w[pre + "ff2.bias"]
        h = _layer_norm(h, w["ln.weight"], w["ln.bias"])
        return _heads(w, h, where[:, 28:], rel, heads)

    def _flat(self, obs: np.ndarray) -> np.ndarray:
        """The flat MLP's outputs (``meta["arch"] == "flat"``): ReLU between layers."""
        x = np.asarray(obs, np.float32).reshape(-1, ob.COUNTS_SIZE)
        linear = sorted(int(k.split(".")[1]) for k in self.w if k.endswith(".weight"))
        for j, i in enumerate(linear):
            x = x @ self.w[f"net.{i}.weight"].T + self.w[f"net.{i}.bias"]
            if j < len(linear) - 1:
                x = np.maximum(x, 0.0)
        return x.reshape(len(x), 2, NUM_MOVES)

    def act_logits(self, obs: np.ndarray, legal: np.ndarray | None = None) -> np.ndarray:
        """The move scores the agent plays by: ``(B, 327)`` (see :meth:`CardNetAgent.act`).

        ``meta["play"]`` says how the two heads make one score: ``"q"`` (the default), Q first
        with ``meta["tie"]`` times the policy's log-probability breaking near ties; ``"policy"``
        alone; ``"both"``, the log of policy probability times Q to the power ``tie``;
        ``"filter"``, the policy's logit among the legal moves whose Q (a chance) is within
        ``tie`` of the best legal move's (a veto: Q's near-ties, such as a draw a clairvoyant
        can always afford, do not steer play); ``"sample"``, the policy's logits over the
        temperature ``tie``, which the agent draws from.

        Args:
            obs: ``(B, 922)`` ``counts`` observations.
            legal: ``(B, 327)`` bool, the legal moves; needed by ``"filter"`` only, since its
                veto compares a move with the best legal one.

        Raises:
            ValueError: ``"filter"`` without ``legal``, ``"sample"`` at a temperature not above
                0, or an unknown ``meta["play"]``.
        """
        out = self.forward(obs)
        mode = self.meta.get("play", "q")
        if mode not in PLAY_MODES:
            raise ValueError(f"meta['play'] = {mode!r}: one of {PLAY_MODES}")
        if mode == "policy":
            return out[:, 0]
        if mode == "sample":
            temp = float(self.meta.get("tie", 1.0))
            if not temp > 0:
                raise ValueError(f"meta['tie'] = {temp}: sample's temperature, above 0")
            return out[:, 0] / temp
        pol = out[:, 0] - out[:, 0].max(-1, keepdims=True)
        weight = float(self.meta.get("tie", 0.01))
        if mode == "both":  # log of (policy probability x chance of staying winnable ** weight)
            return pol - weight * np.logaddexp(0.0, -out[:, 1])
        if mode == "filter":
            if legal is None:
                raise ValueError("meta['play'] = 'filter' compares legal moves: pass legal")
            return filter_scores(out, legal, weight)
        q = 1.0 / (1.0 + np.exp(-out[:, 1]))
        return q + weight * pol  # Q first; the policy breaks ties

    def save(self, path: str | Path) -> None:
        """One ``.npz``: float16 weights, the metadata as JSON and a digest of the weights.

        The digest lets :meth:`load` refuse a file damaged where the zip format does not check
        (a byte changed inside an uncompressed block passes numpy's reader).
        """
        arrays = {k: v.astype(np.float16) for k, v in self.w.items()}
        digest = _digest(arrays)
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta)),
                            digest=np.array(digest), **arrays)  # fmt: skip

    @classmethod
    def load(cls, path: str | Path) -> CardNet:
        """Read a file written by :meth:`save`.

        Raises:
            PyramidError: naming the file, when it is not a card network's.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                weights = {k: data[k] for k in data.files if k not in ("meta", "digest")}
                digest = str(data["digest"])
            if _digest(weights) != digest:
                raise ValueError("the weights do not match the digest stored with them")
            net = cls(weights, meta)
            net.forward(np.zeros((1, ob.COUNTS_SIZE), np.float32))
        except (OSError, ValueError, KeyError, TypeError, IndexError, EOFError, zlib.error,
                zipfile.BadZipFile) as err:  # fmt: skip
            raise PyramidError(
                f"agent file {str(path)!r} is not a card network saved by CardNet.save "
                f"({type(err).__name__}: {err})"
            ) from err
        return net


def _digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 of the arrays, by name, as stored."""
    h = hashlib.sha256()
    for k in sorted(arrays):
        h.update(k.encode())
        h.update(np.ascontiguousarray(arrays[k]).tobytes())
    return h.hexdigest()


def _heads(
    w: dict[str, np.ndarray], h: np.ndarray, where: np.ndarray, rel: np.ndarray | None, heads: int
) -> np.ndarray:
    """Scores of every move from the token outputs ``h`` (B, 53, d): ``(B, 2, 327)``."""
    b = len(h)
    g, cards = h[:, 0], h[:, 1:]
    stock = cards[:, 28:]
    waste = (stock * (where == 3)[..., None]).sum(1)
    drawn = (stock * (where == 4)[..., None]).sum(1)
    places = np.concatenate([cards[:, :28], waste[:, None], drawn[:, None]], 1)  # (B, 30, d)
    u = places @ w["heads.pair_in.weight"].T  # (B, 30, m)
    pre = u[:, PAIR_A] + u[:, PAIR_B] + w["heads.pair_in.bias"]
    if "heads.probe_q.weight" in w:
        assert rel is not None
        read = _probe(w, places, h, rel, where, heads)
        pre = pre + read @ w["heads.probe_out.weight"].T + w["heads.probe_out.bias"]
    z = np.maximum(pre, 0.0)
    out = np.zeros((b, 2, NUM_MOVES), np.float32)
    out[:, :, PAIR_IDS] = np.swapaxes(
        z @ w["heads.pair_out.weight"].T + w["heads.pair_out.bias"], 1, 2
    )
    king = places[:, KING_PLACE[KING_IDS]] @ w["heads.king.weight"].T + w["heads.king.bias"]
    out[:, :, KING_IDS] = np.swapaxes(king, 1, 2)
    turn = (g @ w["heads.turn.weight"].T + w["heads.turn.bias"]).reshape(b, 2, 2)
    out[:, :, :2] = turn
    return out + w["heads.bias"]


def _probe(
    w: dict[str, np.ndarray],
    places: np.ndarray,
    h: np.ndarray,
    rel: np.ndarray,
    where: np.ndarray,
    heads: int,
) -> np.ndarray:
    """What each pair move's query reads from the tokens: ``(B, 295, d)``.

    The torch twin's ``Heads._probe``: attention from the move's two places, biased by each
    token's relation to either card.
    """
    b, t, d = h.shape
    e = d // heads
    qp = places @ w["heads.probe_q.weight"].T + w["heads.probe_q.bias"]
    q = (qp[:, PAIR_A] + qp[:, PAIR_B]).reshape(b, -1, heads, e)
    kv = (h @ w["heads.probe_kv.weight"].T + w["heads.probe_kv.bias"]).reshape(b, t, 2, heads, e)
    k, v = kv[:, :, 0], kv[:, :, 1]
    tok = place_tokens(where)
    att = np.einsum("bmhe,bthe->bhmt", q, k) / np.sqrt(e)
    rows = np.arange(b)[:, None]
    for side in (tok[:, PAIR_A], tok[:, PAIR_B]):
        att = att + np.moveaxis(w["heads.probe_rel"][:, rel[rows, side]], 0, 1)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    return np.einsum("bhmt,bthe->bmhe", att, v).reshape(b, -1, d)


def filter_scores(out: np.ndarray, legal: np.ndarray, margin: float) -> np.ndarray:
    """``"filter"`` play's scores from the heads' ``(B, 2, 327)`` outputs: ``(B, 327)``.

    The policy logit where a move's Q (a chance) is within ``margin`` of the best legal move's,
    minus infinity elsewhere; illegal moves may pass, so a caller masks them as for any score.
    """
    q = 1.0 / (1.0 + np.exp(-out[:, 1]))
    best = np.where(legal, q, -np.inf).max(-1, keepdims=True)
    return np.where(q >= best - margin, out[:, 0], -np.inf)


def parse_way(way: str, modes: tuple[str, ...] = PLAY_MODES) -> tuple[str, float]:
    """A way of playing written ``"play:tie"`` (``"q:0.1"``, ``"sample:1.0"``), checked.

    Command lines name a network's way of playing this way (``meta["play"]``, ``meta["tie"]``).

    Raises:
        ValueError: not ``play:tie``, a ``play`` outside ``modes``, a ``tie`` that is not a
            number >= 0, or ``sample`` at a temperature not above 0.
    """
    play, _, tie = way.partition(":")
    if play not in modes or not tie.replace(".", "", 1).isdigit():
        raise ValueError(f"{way!r}: play:tie, play one of {', '.join(modes)}, tie a number >= 0")
    if play == "sample" and not float(tie) > 0:
        raise ValueError(f"{way!r}: sample's tie is a temperature, above 0")
    return play, float(tie)


def legal_mask(legal: list[int]) -> np.ndarray:
    """``(1, 327)`` bool, True at the ``legal`` ids: the mask :meth:`CardNet.act_logits` takes."""
    mask = np.zeros((1, NUM_MOVES), bool)
    mask[0, legal] = True
    return mask


class CardNetAgent:
    """A card network as an agent: observation in, move out, no search and no rule.

    Plays the legal move of highest score (:meth:`CardNet.act_logits`), by default the move
    the network rates most likely to keep the deal winnable, its policy breaking near ties.
    With ``meta["play"] = "sample"`` it draws from the policy with the ``rng`` it is given (the
    benchmark's, seeded by the deal): a player that always draws where a pair wins draws there
    on every pass until the env ends the game, one that samples takes the pair on some pass.
    """

    def __init__(self, net: CardNet, name: str = "cardnet") -> None:
        """See the class docstring."""
        self.net, self.name = net, name
        self.env_kwargs = {"obs_mode": "counts"}

    def config(self) -> dict[str, Any]:
        """What play depends on: the weights and the metadata, except how it was trained."""
        meta = {k: v for k, v in self.net.meta.items() if k != "train"}
        h = hashlib.sha256(json.dumps(meta, sort_keys=True).encode())
        for k in sorted(self.net.w):
            h.update(self.net.w[k].tobytes())
        return {"net": h.hexdigest()[:16]}

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The legal move of highest score, or one drawn from the policy (see the class)."""
        legal = np.asarray(turn.legal)
        scores = self.net.act_logits(turn.obs[None], legal_mask(turn.legal))[0][legal]
        if self.net.meta.get("play") == "sample":
            p = np.exp(scores - scores.max())
            return int(legal[rng.choice(len(legal), p=p / p.sum())])
        return int(legal[np.argmax(scores)])


__all__ = [
    "CardNet",
    "CardNetAgent",
    "filter_scores",
    "legal_mask",
    "parse_counts",
    "parse_way",
    "tallies",
]

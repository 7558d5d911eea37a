"""The agent protocol: what an agent sees each turn, and what it must answer.

An agent maps a :class:`Turn` to an action id (the env's ``Discrete(327)`` ids, which are the
engine's move ids). A turn carries both views of the position, so one protocol serves both kinds
of agent:

- policies read ``turn.obs`` (the env observation) and ``turn.mask``;
- rule-reading agents (greedy, solver) read ``turn.state``, the engine position. They must play
  fair with the observation: a stock card is theirs to know only if its bit is set in
  ``turn.known`` (all of them with ``observe_stock="full"``, else those turned face up so far).
  The solver agent is the one declared exception: it is the clairvoyant upper bound.

Randomness comes from the ``rng`` argument, which evaluation seeds from (agent seed, deal
number): results then do not depend on the order the deals are played in, or on the process.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pyramid_env.engine import state as st
from pyramid_env.engine.moves import NUM_MOVES, RECYCLE


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision point.

    Attributes:
        state: the engine position (read it, never change it).
        legal: the legal action ids, sorted (never empty: evaluation stops at the episode's end).
        known: stock cycle positions the agent may know (bit ``i`` is deal card ``29 + i``).
        obs: the env observation in the agent's ``obs_mode``; ``None`` when built from the
            engine alone (:meth:`from_state`).
    """

    state: st.State
    legal: list[int]
    known: int
    obs: Any = None
    _mask: list[np.ndarray] = field(default_factory=list, repr=False, compare=False)

    @classmethod
    def from_state(cls, s: st.State, known: int | None = None) -> Turn:
        """A turn straight from an engine position (``known`` defaults to the whole stock)."""
        return cls(s, st.legal_ids(s), s.left if known is None else known)

    @property
    def mask(self) -> np.ndarray:
        """``legal`` as a bool array of length 327 (built on first use)."""
        if not self._mask:
            m = np.zeros(NUM_MOVES, bool)
            m[self.legal] = True
            self._mask.append(m)
        return self._mask[0]

    @property
    def removals(self) -> list[int]:
        """The legal removals (Kings and pairs): every legal id but draw and recycle."""
        return [a for a in self.legal if a > RECYCLE.id]

    @property
    def turns(self) -> list[int]:
        """Draw or recycle, whichever is legal (at most one of them is)."""
        return [a for a in self.legal if a <= RECYCLE.id]


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` and ``act(turn, rng) -> action id`` is an agent.

    ``env_kwargs`` (optional attribute): env arguments the agent needs, such as the
    ``obs_mode`` a policy was trained on; evaluation builds the env with them.
    """

    name: str

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The action to play: one of ``turn.legal``."""
        ...


def agent_config(agent: Any) -> dict[str, Any]:
    """What an agent's play depends on, as far as it can be read: its settings, as JSON values.

    An agent's own ``config()`` if it has one (for an agent with counters or caches among its
    public attributes); else its public attributes: numbers, strings, paths and lists or dicts
    of them as they are, a network by a digest of its weights (``MLPPolicy.digest()``, a torch
    module's or an SB3 model's parameters), an agent inside it (a fallback, greedy's weights)
    by its own config, anything else by its class name. Evaluation keeps it with a run's
    stored results, so that resuming a store with an agent of the same name but other
    settings or weights is refused instead of mixing the two runs' games.
    """
    config = getattr(agent, "config", None)
    if callable(config):
        return dict(config())
    attrs = getattr(agent, "__dict__", {})
    return {k: _config_value(v) for k, v in sorted(attrs.items()) if not k.startswith("_")}


def _config_value(v: Any) -> Any:
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, Path):
        return str(v)
    if isinstance(v, list | tuple):
        return [_config_value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _config_value(x) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return _sha(v.tobytes(), str(v.dtype), str(v.shape))
    if callable(getattr(v, "digest", None)):
        return v.digest()
    kind = f"{type(v).__module__}.{type(v).__qualname__}"
    if callable(getattr(v, "act", None)):
        return {"class": kind, **agent_config(v)}
    module = v if callable(getattr(v, "state_dict", None)) else getattr(v, "policy", None)
    if callable(getattr(module, "state_dict", None)):  # a torch module, or an SB3 model's policy
        tensors = module.state_dict().items()
        return _sha(*(k.encode() + t.detach().cpu().numpy().tobytes() for k, t in tensors))
    return f"<{kind}>"


def _sha(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
    return h.hexdigest()[:16]


__all__ = ["Agent", "Turn", "agent_config"]

"""PyramidVectorEnv: N games stepped together, observations and masks built as batches.

Same rules, observations, rewards and episode ends as N :class:`PyramidEnv` (a test checks them
step for step); what differs is the cost. Each game's move still goes through the engine (a few
microseconds), but the observation of all N games is built by a handful of numpy operations
over ``(N, 28)`` and ``(N, 24)`` arrays, instead of N encoders and N Gymnasium wrappers plus a
concatenation, which is where ``SyncVectorEnv`` spends its time.

Autoreset follows Gymnasium's default, ``NEXT_STEP``: the step after a game ends resets it (that
step's action is ignored, reward 0). Sub-env ``i`` of ``reset(seed=s)`` is seeded ``s + i``, as
``SyncVectorEnv`` does, so it deals the same games as ``PyramidEnv().reset(seed=s + i)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils.seeding import np_random
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pyramid_env.engine import state as st
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.deal import to_deal
from pyramid_env.engine.game import score
from pyramid_env.engine.moves import MOVES
from pyramid_env.env import observation as ob
from pyramid_env.env.actions import N_ACTIONS
from pyramid_env.env.pyramid_env import PyramidEnv, draw_deal, episode_over, step_reward

_SHIFT_P = np.arange(28, dtype=np.int64)
_SHIFT_S = np.arange(24, dtype=np.int64)


class PyramidVectorEnv(VectorEnv):
    """``num_envs`` Pyramid games; arguments as :class:`PyramidEnv` (``render_mode`` aside).

    ``gym.make_vec("PyramidSolitaire-v0", num_envs=64)`` returns one (the ids register it as
    their ``vector_entry_point``). ``action_masks()`` has shape ``(num_envs, 327)``; the int8 mask
    is also in ``infos["action_mask"]``.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, **kwargs: Any) -> None:
        """Validate the arguments through one :class:`PyramidEnv` and take its spaces."""
        kwargs.pop("max_episode_steps", None)  # make_vec passes the spec's; we use max_steps
        self.proto = PyramidEnv(**kwargs)
        self.num_envs = num_envs
        self.rules = self.proto.rules
        self.single_observation_space = self.proto.observation_space
        self.single_action_space = self.proto.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._states: list[st.State | None] = [None] * n
        self._ids: list[list[int]] = [[] for _ in range(n)]
        # Per-game flags and counters as Python lists: the step loop reads them one by one.
        self._done = [False] * n
        self._ended = [False] * n  # ended at the last step: autoreset at the next
        self._steps = [0] * n
        self._moves = [0] * n
        self._seen = [0] * n
        self._deal: list[int | None] = [None] * n  # None for a deal given by code or cards
        self._prank = np.zeros((n, 28), np.int8)
        self._srank = np.zeros((n, 24), np.int8)

    # -- the VectorEnv API -----------------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every game; ``options={"deal": [n0, n1, ...]}`` chooses the deals."""
        n = self.num_envs
        seeds = (
            seed
            if isinstance(seed, list)
            else [None if seed is None else seed + i for i in range(n)]
        )
        for i in range(n):
            if seeds[i] is not None or self._rngs[i] is None:
                self._rngs[i], _ = np_random(seeds[i])
        deals = (options or {}).get("deal")
        for i in range(n):
            self._reset_one(i, None if deals is None else deals[i])
        self._ended = [False] * n
        mask = self.action_masks()
        return self._obs(mask), self._infos(mask)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game (ignored for a game being autoreset)."""
        p = self.proto
        n = self.num_envs
        rewards = [0.0] * n
        terminated = [False] * n
        truncated = [False] * n
        ended, done, steps, moves = self._ended, self._done, self._steps, self._moves
        for i, a in enumerate(np.asarray(actions).tolist()):
            if ended[i]:
                self._reset_one(i, None)
                ended[i] = False
                continue
            s = self._states[i]
            before_cards = s.pyr.bit_count()
            before_score = score(s, moves[i]) if p.reward_kind == "score" else 0.0
            if a in self._ids[i] and not done[i]:
                st.apply(s, MOVES[a])
                moves[i] += 1
                self._seen[i] |= ob.face_up(s)
                self._update(i)
                rewards[i] = step_reward(p.reward_kind, s, moves[i], before_cards, before_score)
            else:
                if p.illegal_action == "raise":
                    reason = st.why_illegal(s, MOVES[a]) or "the episode is over"
                    raise st.IllegalMove(f"env {i}, action {a}: {reason}")
                rewards[i] = p.illegal_reward
            steps[i] += 1
            terminated[i] = done[i]
            truncated[i] = steps[i] >= p.max_steps
            ended[i] = terminated[i] or truncated[i]
        mask = self.action_masks()  # once a step, for the observation and the infos
        return (
            self._obs(mask),
            np.array(rewards),
            np.array(terminated),
            np.array(truncated),
            self._infos(mask),
        )

    def action_masks(self) -> np.ndarray:
        """Legal actions, bool, shape ``(num_envs, 327)``; never all false in a row."""
        mask = np.zeros((self.num_envs, N_ACTIONS), bool)
        rows = [i for i in range(self.num_envs) for _ in self._ids[i]]
        mask[rows, [a for ids in self._ids for a in ids]] = True
        done = np.array(self._done)
        mask[done, :] = False
        mask[done, 0] = True
        return mask

    # -- helpers -----------------------------------------------------------------------------------
    def _reset_one(self, i: int, deal: int | None) -> None:
        spec = draw_deal(self._rngs[i], self.proto.deals) if deal is None else deal
        d = to_deal(spec)
        s = self._states[i] = st.State(d, self.rules)
        self._deal[i] = d.number
        self._prank[i] = [RANK[c] for c in d.pyramid]
        self._srank[i] = [RANK[c] for c in d.stock]
        self._seen[i] = ob.face_up(s)
        self._steps[i] = self._moves[i] = 0
        self._update(i)

    def _update(self, i: int) -> None:
        s = self._states[i]
        ids = self._ids[i] = st.legal_ids(s)
        self._done[i] = episode_over(s, ids, self.proto._check_dead)

    def _obs(self, mask: np.ndarray) -> Any:
        states = self._states
        n = self.num_envs
        # One pass over the games; everything after it is numpy over all of them at once.
        cols = np.array(
            [
                (s.pyr, ob.EXPOSED_MASK[s.pyr], s.left, s.ptr, s.recycles, s.drawn, *s._tops())
                for s in states
            ],
            np.int64,
        )
        pyr, exp, left, ptr = cols[:, 0:1], cols[:, 1:2], cols[:, 2:3], cols[:, 3:4]
        recycles, drawn, w, d = cols[:, 4], cols[:, 5], cols[:, 6], cols[:, 7]
        live = ((left >> _SHIFT_S) & 1).astype(np.int8)
        if self.proto.observe_stock == "full":
            known = live
        else:
            seen = np.array(self._seen, np.int64)[:, None]
            known = (((seen & left) >> _SHIFT_S) & 1).astype(np.int8)
        on_waste = _SHIFT_S[None, :] < ptr
        where = live * (1 + on_waste).astype(np.int8)
        for top, value in ((w, 3), (d, 4)):  # the waste top; the drawn / face-up stock card
            rows = np.flatnonzero(top >= 0)
            where[rows, top[rows]] = value
        present = ((pyr >> _SHIFT_P) & 1).astype(np.int8)
        limit = self.rules.recycles
        counters = np.stack(
            [
                np.minimum(recycles + 1, 255),
                np.full(n, 255) if limit is None else limit - recycles,
                (live * ~on_waste).sum(axis=1),
                (live * on_waste).sum(axis=1) - drawn,
                present.sum(axis=1),
            ],
            axis=1,
        ).astype(np.int16)
        obs = {
            "pyramid": present * self._prank,
            "exposed": ((exp >> _SHIFT_P) & 1).astype(np.int8),
            "stock": np.where(known == 1, self._srank, live * np.int8(ob.UNKNOWN)).astype(np.int8),
            "stock_where": where,
            "counters": counters,
        }
        mode = self.proto.obs_mode
        if mode == "dict":
            return obs
        if mode == "onehot":
            return ob.onehot(obs)
        flat = np.concatenate([obs[name] for name, _, _ in ob.PIECES], axis=1).astype(np.float32)
        if mode == "flat":
            return flat
        if mode == "pettingzoo":
            return {"observation": flat, "action_mask": mask.astype(np.int8)}
        return {"observations": flat, "action_mask": mask.astype(np.float32)}

    def _infos(self, mask: np.ndarray) -> dict[str, Any]:
        n = self.num_envs
        every = np.ones(n, bool)
        return {
            "action_mask": mask.astype(np.int8),
            "_action_mask": every,
            "deal": np.array(self._deal, dtype=object),
            "_deal": every,
            "pyramid_left": np.array([s.pyr.bit_count() for s in self._states]),
            "_pyramid_left": every,
            "won": np.array([st.is_won(s) for s in self._states]),
            "_won": every,
        }

"""PyramidVectorEnv: N games stepped together, as numpy arrays.

Same rules, observations, rewards and episode ends as N :class:`PyramidEnv` (a test checks them
step for step); what differs is the cost. The games live in a :class:`~pyramid_env.env.batch.Batch`
(one row per game), so legal-move masks, moves, rewards and observations of all N games come
from a few dozen numpy operations, with no Python call per game except to deal a new one.
``SyncVectorEnv`` pays N engine calls, N encoders and N Gymnasium wrappers a step.

It is built from the single env's pieces, called on arrays rather than copied: the score is
:func:`~pyramid_env.engine.game.points`, the reward
:func:`~pyramid_env.env.pyramid_env.step_reward`, the observation
:func:`~pyramid_env.env.observation.encode_rows`, and the episode's end
:func:`~pyramid_env.env.batch.is_over`, the array statement of the engine's
:func:`~pyramid_env.engine.state.is_over`, with the single env's own
:attr:`~pyramid_env.env.pyramid_env.PyramidEnv.stops_at_dead_deal`. The rules themselves are
:mod:`~pyramid_env.env.batch`, their one array statement, checked against the engine.

Autoreset follows Gymnasium's default, ``NEXT_STEP``: the step after a game ends resets it (that
step's action is ignored, reward 0). Sub-env ``i`` of ``reset(seed=s)`` is seeded ``s + i``, as
``SyncVectorEnv`` does, so it deals the same games as ``PyramidEnv().reset(seed=s + i)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.utils.seeding import np_random
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import Deal, deal
from pyramid_env.engine.errors import PyramidError
from pyramid_env.engine.game import points
from pyramid_env.engine.moves import MOVES, RECYCLE
from pyramid_env.env import observation as ob
from pyramid_env.env.actions import N_ACTIONS, action_id
from pyramid_env.env.batch import Batch, is_over, popcount
from pyramid_env.env.pyramid_env import (
    ENV_ARGS,
    MAX_ENVS,
    MAX_STEPS,
    PyramidEnv,
    check_deal_option,
    check_int,
    check_options,
    check_seed,
    draw_deal,
    step_reward,
    unknown_arguments,
)


def short(value: Any, limit: int = 60) -> str:
    """``describe(value)``, its repr cut at ``limit`` characters (a deal as text is long)."""
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{text} ({type(value).__name__})"


def per_game(name: str, values: Any, n: int) -> None:
    """Refuse ``values`` unless it is a list (tuple, 1-d array) of ``n`` entries, one per game.

    A string (or bytes) is refused too, though a sequence: ``{"cards": "Ac 2c ..."}`` is one
    deal, not one per game.
    """
    if (
        isinstance(values, str | bytes)
        or not isinstance(values, Sequence | np.ndarray)
        or (isinstance(values, np.ndarray) and values.ndim == 0)
    ):
        raise PyramidError(
            f"{name}={short(values)}: expected a list with one entry per game ({n} games)"
        )
    if len(values) != n:
        raise PyramidError(f"{name}: {len(values)} entries for {n} games (one per game)")


class PyramidVectorEnv(VectorEnv):
    """``num_envs`` Pyramid games; arguments as :class:`PyramidEnv` (no ``"human"`` rendering).

    ``gym.make_vec("PyramidSolitaire-v0", num_envs=64)`` returns one (the ids register it as
    their ``vector_entry_point``). ``action_masks()`` has shape ``(num_envs, 327)``; the int8 mask
    is also in ``infos["action_mask"]``.
    """

    metadata = {
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": PyramidEnv.metadata["render_fps"],
    }

    def __init__(self, num_envs: int = 8, **kwargs: Any) -> None:
        """Validate the arguments through one :class:`PyramidEnv` and take its spaces.

        ``max_episode_steps`` (what ``gym.make_vec`` passes for a time limit) truncates as
        ``max_steps`` does; given both, the smaller one applies, as a ``TimeLimit`` around a
        ``PyramidEnv`` would.

        Raises:
            PyramidError: as :class:`PyramidEnv`; also a ``num_envs`` that is not an int in
                1..1,000,000, and ``render_mode="human"`` (no window per game).
        """
        num_envs = check_int("num_envs", num_envs, 1, MAX_ENVS, f"{MAX_ENVS:,}")
        unknown_arguments(kwargs, (*ENV_ARGS, "max_episode_steps"), "PyramidVectorEnv")
        limit = kwargs.pop("max_episode_steps", None)
        if limit is not None:
            limit = check_int("max_episode_steps", limit, 1, MAX_STEPS, "10**9")
        modes = (None, *self.metadata["render_modes"])  # no "human": no window per game
        if kwargs.get("render_mode") == "human":
            raise PyramidError(f"render_mode='human' is not one of {modes} for a vector env")
        self.proto = PyramidEnv(**kwargs)  # validates the rest; fails early sans Pillow
        self.render_mode = self.proto.render_mode
        if self.render_mode not in modes:  # "human" inside a config dict
            raise PyramidError(f"render_mode={self.render_mode!r} is not one of {modes}")
        if limit is not None:
            self.proto.max_steps = min(self.proto.max_steps, limit)
        self.num_envs = num_envs
        self.rules = self.proto.rules
        self.single_observation_space = self.proto.observation_space
        self.single_action_space = self.proto.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._games = Batch.empty(n, self.rules)
        self._deals: list[Deal | None] = [None] * n
        self._done = np.ones(n, bool)  # before reset the masks allow action 0 alone
        self._ended = np.zeros(n, bool)  # ended at the last step: autoreset at the next
        self._steps = np.zeros(n, np.int64)
        self._moves = np.zeros(n, np.int64)
        self._idle = np.zeros(n, np.int64)  # full passes in a row without a removal
        self._removed = np.zeros(n, bool)  # a removal in the current pass
        self._seen = np.zeros(n, np.int64)
        self._legal = np.zeros((n, N_ACTIONS), bool)  # the engine's legal moves, per game
        # Board arrays of the current positions, computed once a step by _update.
        self._present = np.zeros((n, 28), bool)
        self._exposed = np.zeros((n, 28), bool)
        self._left = np.zeros(n, np.int64)  # pyramid cards left
        self._tops = (np.zeros(n, np.int64), np.zeros(n, np.int64))
        self._numbers = np.array([None] * n, dtype=object)  # deal numbers, for the infos
        self._codes = np.array([None] * n, dtype=object)  # deal codes (costly: once a deal)
        self._seeds = np.array([None] * n, dtype=object)  # the seed each game was last given

    # -- the VectorEnv API -----------------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every game; ``options={"deal": [n0, n1, ...]}`` chooses the deals.

        ``options`` takes one of ``"deal"``, ``"code"`` or ``"cards"`` as a list with one entry
        per game, each as :meth:`PyramidEnv.reset` takes it, and Gymnasium's ``"reset_mask"``
        (a bool array, one per game: reset only those; see :meth:`_reset_mask`). ``seed``: an
        int (game ``i`` gets ``seed + i``) or a list of ``num_envs`` ints or Nones.

        Raises:
            PyramidError: an unknown option, a list of the wrong length or a bad entry, a bad
                mask, a seed that is not an int >= 0, named; checked before anything changes.
        """
        n = self.num_envs
        options, resetting = self._reset_mask(options)
        key, values = check_options(options)
        deals: list[Deal | None] = [None] * n
        if key is not None:
            where = f"options[{key!r}]"
            per_game(where, values, n)
            deals = [
                check_deal_option(key, v, f"{where}[{i}]") if resetting[i] else None
                for i, v in enumerate(values)
            ]
        if isinstance(seed, list | tuple | np.ndarray):
            per_game("seed", seed, n)
            seeds = [None if s is None else check_seed(s) for s in seed]
        else:
            seed = check_seed(seed)
            seeds = [None if seed is None else seed + i for i in range(n)]
        seeds = [s if resetting[i] else None for i, s in enumerate(seeds)]
        # Gymnasium checks each seed; all of them before any game changes.
        rngs = [
            np_random(s)[0] if s is not None or self._rngs[i] is None else self._rngs[i]
            for i, s in enumerate(seeds)
        ]
        self._rngs = rngs
        for i in np.flatnonzero(resetting):
            if seeds[i] is not None:
                self._seeds[i] = seeds[i]
            self._reset_one(i, deals[i])
        self._seen = np.where(resetting, self._games.face_up(), self._seen)
        self._ended &= ~resetting
        self._update()
        mask = self.action_masks()
        infos = self._infos(mask)
        for k in [k for k in infos if k.startswith("_")]:  # Gymnasium: infos of the games reset
            infos[k] = resetting.copy()
        return self._obs(mask), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game (ignored for a game being autoreset).

        ``actions``: ``num_envs`` action ids, an integer array of shape ``(num_envs,)`` (the
        fast path) or a list of ints. An id the rules forbid follows ``illegal_action``.

        Raises:
            PyramidError: the wrong length or shape, a non-integer dtype or entry, or an id
                outside 0..326 (in any game: the action space is the contract, even where the
                action is ignored); nothing changes.
            IllegalMove: with ``illegal_action="raise"``, an id the rules forbid, naming the game.
            RuntimeError: before the first ``reset()``, as :class:`PyramidEnv`.
        """
        if self._deals[0] is None:
            raise RuntimeError("call reset() before step()")
        p = self.proto
        n = self.num_envs
        g = self._games
        if type(actions) is not np.ndarray or actions.shape != (n,) or actions.dtype.kind != "i":
            actions = self._check_actions(actions)
        inside = (actions >= 0) & (actions < N_ACTIONS)
        if not inside.all():
            i = int(np.flatnonzero(~inside)[0])
            raise PyramidError(f"env {i}, action {actions[i]} is out of range 0..{N_ACTIONS - 1}")
        acts = actions.astype(np.int64, copy=False)
        ok = ~self._ended & ~self._done
        ok[ok] = self._legal[np.flatnonzero(ok), acts[ok]]
        bad = ~self._ended & ~ok
        if bad.any() and p.illegal_action == "raise":  # before the autoresets: nothing changes
            i = int(np.flatnonzero(bad)[0])
            a = int(acts[i])
            reason = st.why_illegal(self._state(i), MOVES[a]) or "the episode is over"
            raise st.IllegalMove(f"env {i}, action {a}: {reason}")
        ended = self._ended.copy()
        for i in np.flatnonzero(ended):
            self._reset_one(i, None)
        playing = ~ended
        before_cards, before_score = self._left, self._scores
        g.apply(np.where(ok, acts, 0), ok)
        self._moves += ok
        if p.max_idle_passes is not None:
            # Idle passes, as PyramidEnv counts them: a recycle ends a pass, idle unless it saw
            # a removal. (The count only matters when it reaches the limit, at a recycle, so a
            # removal need not reset it at once: the next recycle does.)
            self._removed |= ok & (acts > RECYCLE.id)
            recycle = ok & (acts == RECYCLE.id)
            if recycle.any():
                self._idle = np.where(
                    recycle, np.where(self._removed, 0, self._idle + 1), self._idle
                )
                self._removed &= ~recycle
        self._seen |= np.where(ok | ended, g.face_up(), 0)  # ended: reset above
        self._update()
        gain = step_reward(
            p.reward_kind, before_cards, self._left, self._won, before_score, self._scores
        )
        rewards = np.where(ok, gain, np.where(bad, p.illegal_reward, 0.0))
        self._steps += playing
        terminated = playing & self._done
        truncated = self._steps >= p.max_steps
        if p.max_idle_passes is not None:
            idle = self._idle >= p.max_idle_passes
            truncated |= idle
        truncated &= playing & ~terminated
        self._ended = terminated | truncated
        mask = self.action_masks()  # once a step, for the observation and the infos
        infos = self._infos(mask)
        if truncated.any():
            why = np.where(truncated, "max_steps", None).astype(object)
            if p.max_idle_passes is not None:
                why[truncated & idle] = "idle_passes"  # the single env names this one first
            infos["truncated_by"] = why
            infos["_truncated_by"] = truncated
        return self._obs(mask), rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """Legal actions, bool, shape ``(num_envs, 327)``; never all false in a row."""
        mask = self._legal.copy()
        mask[self._done, :] = False
        mask[self._done, 0] = True
        return mask

    def render(self, index: int | None = None) -> tuple[Any, ...] | str | np.ndarray | None:
        """Every game's frame as a tuple (``SyncVectorEnv``'s convention), or game ``index``'s.

        A frame is what :meth:`PyramidEnv.render` gives for the same game: the board text
        (``"ansi"``) or the picture (``"rgb_array"``), the stock shown as the observation shows
        it. ``None`` without a ``render_mode`` or before ``reset``.
        """
        if self.render_mode is None or self._deals[0] is None:
            return None
        if self.render_mode == "ansi":
            from pyramid_env.engine.notation import format_board as draw
        else:
            from pyramid_env.env.rendering import render_rgb as draw

        def frame(i: int) -> str | np.ndarray:
            left = int(self._games.left[i])  # the known mask, as _obs builds it
            known = left if self.proto.observe_stock == "full" else int(self._seen[i]) & left
            return draw(self._state(i), known=known)

        if index is not None:
            return frame(check_int("index", index, 0, self.num_envs - 1))
        return tuple(frame(i) for i in range(self.num_envs))

    # -- helpers -----------------------------------------------------------------------------------
    def _reset_mask(self, options: Any) -> tuple[Any, np.ndarray]:
        """``options`` without ``"reset_mask"``, and which games to reset (all, without one).

        Gymnasium's partial reset (``SyncVectorEnv`` takes it too): ``reset_mask``, a bool array
        of shape ``(num_envs,)`` with at least one True, resets those games only; the others
        keep their positions, and the infos' ``_key`` masks mark the games reset.

        Raises:
            PyramidError: a mask of another type, dtype or shape, or one with no True.
        """
        n = self.num_envs
        if not isinstance(options, Mapping) or "reset_mask" not in options:
            return options, np.ones(n, bool)
        if self._deals[0] is None:
            raise PyramidError("options['reset_mask']: reset every game first (reset())")
        options = dict(options)
        m = options.pop("reset_mask")
        if not isinstance(m, np.ndarray) or m.dtype != np.bool_ or m.shape != (n,):
            what = f"of dtype {m.dtype} and shape {m.shape}" if isinstance(m, np.ndarray) else ""
            raise PyramidError(
                f"options['reset_mask']={short(m)} {what}: expected a numpy bool array of shape "
                f"({n},), True for each game to reset"
            )
        if not m.any():
            raise PyramidError("options['reset_mask'] has no True: no game to reset")
        return options or None, m.copy()

    def _check_actions(self, actions: Any) -> np.ndarray:
        """``actions`` off the fast path: checked, as an integer array of shape ``(num_envs,)``.

        A list is checked entry by entry (numpy would turn ``[True, 2]`` into ints, and
        ``[1, 2.5]`` into floats, unnoticed); anything else through ``np.asarray``.
        """
        n = self.num_envs
        if isinstance(actions, list | tuple) or (
            isinstance(actions, np.ndarray) and actions.dtype == object and actions.ndim == 1
        ):
            per_game("actions", actions, n)
            ids = [action_id(a, f"env {i}, action") for i, a in enumerate(actions)]
            return np.array(ids, np.int64)
        arr = np.asarray(actions)  # an array of another dtype, a tensor, a scalar...
        if arr.ndim == 0 or arr.dtype.kind not in "iu":
            dtype = f" of dtype {arr.dtype}" if hasattr(actions, "dtype") else ""
            raise PyramidError(
                f"actions {short(actions)}{dtype}: expected {n} action ids 0..{N_ACTIONS - 1}, "
                f"an integer array of shape ({n},) or a list"
            )
        if arr.shape != (n,):
            raise PyramidError(
                f"actions of shape {arr.shape}: expected shape ({n},), one action per game"
            )
        return arr

    def _reset_one(self, i: int, chosen: Deal | None) -> None:
        if chosen is None:
            chosen = deal(draw_deal(self._rngs[i], self.proto.deals))
        d = self._deals[i] = chosen
        self._numbers[i], self._codes[i] = d.number, d.code
        self._games.set_deal(i, d)
        self._seen[i] = 0  # the caller adds the opening's face-up cards, for all rows at once
        self._steps[i] = self._moves[i] = self._idle[i] = 0
        self._removed[i] = self._ended[i] = False

    def _state(self, i: int) -> st.State:
        """Game ``i`` as an engine State (for the error message of an illegal action)."""
        return self._games.state(i, st.State(self._deals[i], self.rules))

    def _update(self) -> None:
        """Masks, episode ends and board arrays of every game, after moves or resets."""
        g = self._games
        self._present = g.present()
        self._exposed = g.exposed(self._present)
        self._left = popcount(g.pyr)
        self._tops = g.tops()
        legal, removal, no_help = g.legal(self._present, self._exposed, self._tops)
        self._legal = legal
        self._done = is_over(legal, removal, no_help, self.proto.stops_at_dead_deal)
        self._won = g.won()
        self._scores = self._score()  # for the infos, and the "score" reward

    def _score(self) -> np.ndarray:
        """``engine.game.score`` of every game (no time bonus): its :func:`points`, on arrays."""
        g, sc = self._games, self.rules.scoring
        # Inputs of terms the preset does not score are not worked out: this runs every step.
        stock = 24 - popcount(g.left) if sc.stock_card else 0
        cleared = g.pyr == 0 if sc.clear_bonus else 0
        pts = points(sc, 28 - self._left, stock, cleared, self._won, self._moves)
        return pts.astype(np.float64, copy=False)

    def _obs(self, mask: np.ndarray) -> Any:
        g = self._games
        obs = ob.encode_rows(
            g.pyr, g.left, g.ptr, g.drawn, g.recycles, g.prank, g.srank, self._seen, g.knobs,
            self.proto.observe_stock == "full", with_unseen=self.proto.obs_mode == "counts",
            present=self._present, exposed=self._exposed, tops=self._tops,
        )  # fmt: skip
        mode = self.proto.obs_mode
        if mode == "dict":
            return obs
        if mode == "onehot":
            return ob.onehot(obs)
        if mode == "counts":
            return ob.counts(obs)
        flat = ob.flatten(obs)
        if mode == "flat":
            return flat
        if mode == "pettingzoo":
            return {"observation": flat, "action_mask": mask.astype(np.int8)}
        return {"observations": flat, "action_mask": mask.astype(np.float32)}

    def _infos(self, mask: np.ndarray) -> dict[str, Any]:
        """The single env's info keys, one array each (Gymnasium's vector form, ``_key`` masks)."""
        every = np.ones(self.num_envs, bool)
        g = self._games
        values = {
            "deal": self._numbers.copy(),
            "code": self._codes.copy(),
            "pyramid_left": self._left.copy(),
            "moves": self._moves.copy(),
            "pass": g.recycles + 1,
            "score": self._scores.copy(),
            "won": self._won.copy(),
            "seed": self._seeds.copy(),
            "action_mask": mask.astype(np.int8),
        }
        return values | {f"_{k}": every for k in values}

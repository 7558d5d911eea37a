"""PyramidVectorEnv: N games stepped together by one compiled call.

Same rules, observations, rewards and episode ends as N :class:`PyramidEnv` (a test checks them
step for step under every rule variant); what differs is the cost: the games live in
preallocated arrays and :func:`pyramid_env.env.kernel.step_games` plays, resets and observes
all of them at once with the engine's own primitives, where ``SyncVectorEnv`` pays N engine
calls, N encoders and N wrappers. Autoreset is Gymnasium's ``NEXT_STEP``; sub-env ``i`` of
``reset(seed=s)`` deals what ``PyramidEnv().reset(seed=s + i)`` deals (docs/environment.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils.seeding import np_random
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import Deal, deal
from pyramid_env.engine.errors import PyramidError
from pyramid_env.engine.moves import MOVES
from pyramid_env.env import kernel as K
from pyramid_env.env import observation as ob
from pyramid_env.env.actions import N_ACTIONS, action_id
from pyramid_env.env.pyramid_env import PyramidEnv
from pyramid_env.env.settings import (
    ENV_ARGS,
    MAX_ENVS,
    MAX_STEPS,
    EnvSettings,
    check_deal_option,
    check_int,
    check_options,
    check_seed,
    draw_deal,
    raw_words,
    unknown_arguments,
)

# The kernel's ``why`` of a truncated game (0: not truncated) as ``infos["truncated_by"]``.
_TRUNCATED_BY = (None, "max_steps", "idle_passes")
_WHY = np.array(_TRUNCATED_BY, dtype=object)  # indexed by every game's why at once


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
        """Check the arguments once into :class:`~pyramid_env.env.settings.EnvSettings`.

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
        settings = EnvSettings.build(**kwargs)  # checks the rest; fails early sans Pillow
        self.render_mode = settings.render_mode
        if self.render_mode not in modes:  # "human" inside a config dict
            raise PyramidError(f"render_mode={self.render_mode!r} is not one of {modes}")
        if limit is not None:
            settings = settings.replace(max_steps=min(settings.max_steps, limit))
        self.settings = settings
        self.num_envs = num_envs
        self.rules = settings.rules
        self.single_observation_space = settings.observation_space()
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._config = K.config_of(settings)  # as the single env's compiled observation
        form = self._config.form
        self._ci, self._cf = K.config_arrays(self._config)
        self._width = {
            K.FLAT: ob.FLAT_SIZE, K.ONEHOT: ob.ONEHOT_SIZE, K.COUNTS: ob.COUNTS_SIZE,
            K.COMPACT: ob.COMPACT_SHAPE[0] * ob.COMPACT_SHAPE[1],
        }  # fmt: skip
        self._dtype = np.uint8 if form == K.COMPACT else settings.dtype
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._raw: list[Any] = [None] * n  # each game's settings.raw_words, for the autoresets
        # The games, as the kernel reads and writes them (see pyramid_env.env.kernel).
        self._s = np.zeros((n, K.COLUMNS), np.int64)
        self._s[:, K.DONE] = 1  # before reset the masks allow action 0 alone
        self._cards = np.zeros((n, 52), np.int64)
        self._prank = np.zeros((n, 28), np.int64)
        self._srank = np.zeros((n, 24), np.int64)
        self._stock_of = np.zeros((n, 14), np.int64)
        self._score = np.zeros(n, np.float64)
        self._mask = np.zeros((n, N_ACTIONS), np.int8)  # the last mask given out, kept
        self._mask[:, 0] = 1
        self._code_chars = np.zeros((n, K.CODE_LEN), np.uint8)
        self._numbers_u64 = np.zeros(n, np.uint64)  # the new games' deal numbers, for the kernel
        self._ends = np.zeros(n, np.int64)  # the games that ended at the last step
        self._n_ends = 0
        self._why = np.zeros(n, np.int8)
        self._all = np.ones(n, bool)  # the kernel's rows, on a step: every game
        self._none = np.zeros(n, np.int64)  # on a reset: no actions,
        self._rewards = np.zeros(n, np.float64)  # nor outputs of a step
        self._flags = np.zeros(n, bool)
        self._reset_yet = False
        self._numbers = np.array([None] * n, dtype=object)  # deal numbers, for the infos
        self._codes = np.array([None] * n, dtype=object)  # deal codes
        self._seeds = np.array([None] * n, dtype=object)  # the seed each game was last given
        self._true = np.ones(n, bool)  # copied for the infos' ``_key`` masks (np.ones is slower)
        # The kernel's outputs a form leaves unused: one row each, never given out, so kept.
        dict_ = form == K.DICT
        wide = self._dtype == np.float32
        self._obs_shape = (n, 104) if dict_ else (n, self._width[form])
        self._obs_kind = 0 if dict_ else 1 if wide else 2  # dict, float32, uint8 (_buffers)
        self._spare_pieces = np.empty((1, 104), np.int8)
        self._spare_counters = np.empty((1, 5), np.int16)
        self._spare_out = np.empty((1, 1), np.float32)
        self._spare_out8 = np.empty((1, 1), np.uint8)

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
        self._raw = [raw_words(r, self.settings.deals) for r in rngs]
        for i in np.flatnonzero(resetting):
            if seeds[i] is not None:
                self._seeds[i] = seeds[i]
            d = deals[i]
            if d is None:
                d = deal(draw_deal(rngs[i], self.settings.deals))
            self._cards[i] = d.cards
            self._numbers[i] = d.number
        info = self._buffers()
        none = self._none
        K.step_games(
            True, resetting, none, self._numbers_u64, self._s, self._cards, self._prank,
            self._srank, self._stock_of, self._score, self._mask, self._code_chars, self._ci,
            self._cf, self._rewards, self._flags, self._flags, self._why, self._ends, *info,
        )  # fmt: skip
        for i in np.flatnonzero(resetting):
            self._codes[i] = self._code_chars[i].tobytes().decode()
        pending = np.flatnonzero(self._s[:, K.ENDED])  # a partial reset leaves the others'
        self._ends[: len(pending)] = pending  # autoresets due
        self._n_ends = len(pending)
        self._reset_yet = True
        infos = self._infos(info)
        for k in [k for k in infos if k.startswith("_")]:  # Gymnasium: infos of the games reset
            infos[k] = resetting.copy()
        return self._observation(info), infos

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
        if not self._reset_yet:
            raise RuntimeError("call reset() before step()")
        n = self.num_envs
        if type(actions) is not np.ndarray or actions.shape != (n,) or actions.dtype.kind != "i":
            actions = self._check_actions(actions)
        if actions.dtype != np.int64:
            actions = actions.astype(np.int64)
        why, i = K.check_actions(actions, self._s, self._mask, self._config.raise_illegal)
        if why == 1:
            raise PyramidError(f"env {i}, action {actions[i]} is out of range 0..{N_ACTIONS - 1}")
        if why == 2:  # before the autoresets: nothing changes
            a = int(actions[i])
            reason = st.why_illegal(self._state(i), MOVES[a]) or "the episode is over"
            raise st.IllegalMove(f"env {i}, action {a}: {reason}")
        resets = self._ends[: self._n_ends].tolist()
        numbers, kept, raw = self._numbers_u64, self._numbers, self._raw
        for i in resets:  # draw_deal, the usual case inline
            word = raw[i]
            numbers[i] = kept[i] = (
                word() >> 1 if word is not None else draw_deal(self._rngs[i], self.settings.deals)
            )
        info = self._buffers()
        rewards = np.empty(n, np.float64)
        terminated = np.empty(n, bool)
        truncated = np.empty(n, bool)
        self._n_ends, n_trunc = K.step_games(
            False, self._all, actions, numbers, self._s, self._cards, self._prank, self._srank,
            self._stock_of, self._score, self._mask, self._code_chars, self._ci, self._cf,
            rewards, terminated, truncated, self._why, self._ends, *info,
        )  # fmt: skip
        for i in resets:
            self._codes[i] = self._code_chars[i].tobytes().decode()
        infos = self._infos(info)
        if n_trunc:
            infos["truncated_by"] = _WHY.take(self._why)  # every game's label in one call
            infos["_truncated_by"] = truncated.copy()
        return self._observation(info), rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """Legal actions, bool, shape ``(num_envs, 327)``; never all false in a row."""
        return self._mask.astype(bool)

    def render(self, index: int | None = None) -> tuple[Any, ...] | str | np.ndarray | None:
        """Every game's frame as a tuple (``SyncVectorEnv``'s convention), or game ``index``'s.

        A frame is what :meth:`PyramidEnv.render` gives for the same game: the board text
        (``"ansi"``) or the picture (``"rgb_array"``), the stock shown as the observation shows
        it. ``None`` without a ``render_mode`` or before ``reset``.
        """
        if self.render_mode is None or not self._reset_yet:
            return None
        if self.render_mode == "ansi":
            from pyramid_env.engine.notation import format_board as draw
        else:
            from pyramid_env.env.rendering import render_rgb as draw

        def frame(i: int) -> str | np.ndarray:
            left = int(self._s[i, K.LEFT])  # the known mask, as the observation reads it
            full = self.settings.observe_stock == "full"
            known = left if full else int(self._s[i, K.SEEN]) & left
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
        if not self._reset_yet:
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

    def _state(self, i: int) -> st.State:
        """Game ``i`` as an engine State (an illegal action's message, a frame)."""
        cards = tuple(int(c) for c in self._cards[i])
        s = st.State(Deal(cards), self.rules)
        S = self._s
        s.pyr, s.left, s.ptr = int(S[i, K.PYR]), int(S[i, K.LEFT]), int(S[i, K.PTR])
        s.drawn, s.recycles = bool(S[i, K.DRAWN]), int(S[i, K.REC])
        return s

    def _buffers(self) -> K.Infos:
        """Fresh arrays for this call's infos and observation, for the kernel to fill.

        Fresh because they are given out (a caller may keep last step's). The dict form's four
        int8 pieces are one (N, 104) array, split by :meth:`_observation`; the other forms one
        (N, width) float32 or uint8 array. The outputs a form leaves unused are the kept spares.
        """
        n = self.num_envs
        e = np.empty
        kind = self._obs_kind
        pieces, counters = self._spare_pieces, self._spare_counters
        out, out8 = self._spare_out, self._spare_out8
        if kind == 1:
            out = e(self._obs_shape, np.float32)
        elif kind == 2:
            out8 = e(self._obs_shape, np.uint8)
        else:
            pieces, counters = e(self._obs_shape, np.int8), e((n, 5), np.int16)
        return K.Infos(
            e(n, np.int64), e(n, np.int64), e(n, np.int64), e(n, np.float64), e(n, np.bool_),
            e((n, N_ACTIONS), np.int8), pieces, counters, out, out8,
        )  # fmt: skip

    def _observation(self, info: K.Infos) -> Any:
        mode = self.settings.obs_mode
        if mode == "dict":
            pieces = info.pieces
            return {
                "pyramid": pieces[:, :28],
                "exposed": pieces[:, 28:56],
                "stock": pieces[:, 56:80],
                "stock_where": pieces[:, 80:104],
                "counters": info.counters,
            }
        out = info.out if self._dtype == np.float32 else info.out8
        if mode == "compact":
            return out.reshape(self.num_envs, *ob.COMPACT_SHAPE)
        if mode == "pettingzoo":
            return {"observation": out, "action_mask": self._mask.copy()}
        if mode == "rllib":
            return {"observations": out, "action_mask": self._mask.astype(np.float32)}
        return out

    def _infos(self, info: K.Infos) -> dict[str, Any]:
        """The single env's info keys, one array each (Gymnasium's vector form, ``_key`` masks).

        One dict literal, the masks one fresh all-True array: this runs every step.
        """
        every = self._true.copy()
        return {
            "deal": self._numbers.copy(),
            "code": self._codes.copy(),
            "pyramid_left": info.pyramid_left,
            "moves": info.moves,
            "pass": info.pass_,
            "score": info.score,
            "won": info.won,
            "seed": self._seeds.copy(),
            "action_mask": info.mask,
            "_deal": every,
            "_code": every,
            "_pyramid_left": every,
            "_moves": every,
            "_pass": every,
            "_score": every,
            "_won": every,
            "_seed": every,
            "_action_mask": every,
        }

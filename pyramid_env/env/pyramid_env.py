"""PyramidEnv: the Gymnasium environment, a thin adapter over the engine.

Each rule of an episode is stated once and shared with the vector env
(:class:`~pyramid_env.env.vector.PyramidVectorEnv`): the score
:func:`~pyramid_env.engine.game.points`, the reward :func:`~pyramid_env.env.settings.step_reward`,
the end :func:`~pyramid_env.engine.state.is_over`; the arguments one checked
:class:`~pyramid_env.env.settings.EnvSettings`. With numba a step is one call of the vector
env's kernel for one game (:class:`_CompiledGame`: Python, not the rules, was most of a step's
cost); the engine's path stays, tested equal to it.
"""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from pyramid_env import jit
from pyramid_env.engine import state as st
from pyramid_env.engine.deal import deal
from pyramid_env.engine.game import points, score
from pyramid_env.engine.moves import MOVES, RECYCLE
from pyramid_env.engine.notation import format_board
from pyramid_env.engine.rules import Rules
from pyramid_env.env import observation as ob
from pyramid_env.env.actions import N_ACTIONS, action_id
from pyramid_env.env.settings import (  # noqa: F401  (the checks' old home: names kept)
    DEAL_OPTIONS,
    ENV_ARGS,
    ENV_DEFAULTS,
    MAX_ENVS,
    MAX_STEPS,
    OBS_MODES,
    REWARDS,
    RULE_KNOBS,
    EnvSettings,
    check_choice,
    check_deal_option,
    check_deals,
    check_int,
    check_options,
    check_seed,
    config_arguments,
    draw_deal,
    step_reward,
    unknown_arguments,
)


class PyramidEnv(gym.Env):
    """Pyramid Solitaire: clear the 28-card pyramid by removing pairs that sum to 13.

    One deal under a rule set (a preset of :mod:`pyramid_env.engine.rules`, default
    ``relaxed``); the rules engine decides every legal move and outcome, and this class only
    adapts it to Gymnasium. Actions are ``Discrete(327)`` over board places, always masked
    (:meth:`action_masks`, ``info["action_mask"]``); ``obs_mode`` picks one of seven forms of
    the observation, ``reward`` one of ``"cards"``, ``"win"``, ``"score"``. Every input is
    checked where it enters: a wrong one raises ``PyramidError`` naming it and changes nothing
    (docs/environment.md is the reference: spaces, rewards, episode end, arguments).
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}

    def __init__(
        self,
        rules: str | Rules | dict | None = "relaxed",
        observe_stock: str = "seen",
        reward: str = "cards",
        max_steps: int = 1000,
        obs_mode: str = "dict",
        illegal_action: str = "penalty",
        illegal_reward: float = -0.01,
        terminate_on_dead: bool = True,
        render_mode: str | None = None,
        deals: str | range | list[int] | None = None,
        max_idle_passes: int | None = 2,
        obs_dtype: str = "float32",
        **rule_knobs: Any,
    ) -> None:
        """The arguments are described in docs/environment.md ("Arguments").

        Raises:
            PyramidError: an argument of the wrong type or out of range, an unknown argument
                name (listing the env's arguments and the rule knobs), or a rule knob the
                engine refuses (``RulesError``). Nothing is replaced by a default.
        """
        self.settings = EnvSettings.build(
            rules, observe_stock=observe_stock, reward=reward, max_steps=max_steps,
            obs_mode=obs_mode, illegal_action=illegal_action, illegal_reward=illegal_reward,
            terminate_on_dead=terminate_on_dead, render_mode=render_mode, deals=deals,
            max_idle_passes=max_idle_passes, obs_dtype=obs_dtype, **rule_knobs,
        )  # fmt: skip
        self.render_mode = self.settings.render_mode
        self._window = None
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = self.settings.observation_space()
        self.state: st.State | None = None
        self._seed: int | None = None  # the last seed given to reset
        self._compiled = jit.AVAILABLE  # step with the vector env's kernel (False: the engine's)
        self._fast: _CompiledGame | None = None  # set at the first reset, if compiled

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new game: ``options`` ``{"deal": n}``, ``{"code": c}`` or ``{"cards": t}``.

        Without options the deal number is drawn from the env's generator (see ``deals``).

        Raises:
            PyramidError: an unknown option key, more than one deal option, or a value that is
                not a deal of that kind (checked before anything changes: the env stays as it
                was), or a ``seed`` that is not None or an integer >= 0.
        """
        key, value = check_options(options)
        chosen = None if key is None else check_deal_option(key, value, f"options[{key!r}]")
        seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self._seed = seed
        d = deal(draw_deal(self.np_random, self.deals)) if chosen is None else chosen
        self.state = s = st.State(d, self.rules)
        self._deal_number = d.number
        self._encoder = ob.Encoder(s, self.observe_stock == "full")
        if self._fast is None and self._compiled:
            self._fast = _CompiledGame(self.settings)
        if self._fast is not None:
            self._code = self._fast.deal(d.cards)  # the code is costly: once a deal, compiled
            _kernel().play_one(-1, *self._fast.args)
            self._sync()
        else:
            self._code = d.code
            self._seen = st.face_up(s)
            self._steps = self._moves = 0
            self._idle_passes, self._removed_in_pass = 0, False
            self._update()
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play one action; an illegal one follows ``illegal_action``.

        Raises:
            PyramidError: ``action`` is not an action id (an int, numpy integer or 0-d integer
                array in 0..326; a bool, a float such as 3.0, a string or None is refused).
            IllegalMove: with ``illegal_action="raise"``, an id the rules forbid here.
            RuntimeError: before the first ``reset()``.
        """
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if type(action) is not int or not 0 <= action < N_ACTIONS:  # the fast path: a plain id
            action = action_id(action)
        fast = self._fast
        if fast is None:
            return self._python_step(action)
        reward, code = _kernel().play_one(action, *fast.args)
        if code < 0:  # illegal, under illegal_action="raise": nothing changed
            self._raise_illegal(action)
        self._sync()
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if code >= 4:
            info["illegal_action"] = self._illegal(action)
            code -= 4
        if code:
            info["truncated_by"] = "max_steps" if code == 1 else "idle_passes"
        obs = fast.observation(self.settings.obs_mode, self._mask)
        return obs, reward, self._done, code != 0, info

    def _python_step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """:meth:`step` on the engine's State (without numba; the compiled step's check)."""
        s = self.state
        move = MOVES[action]
        before_cards, before_score = s.pyramid_left, self._score
        illegal = None
        if action in self._ids and not self._done:
            st.apply(s, move)  # the mask is the engine's legal moves: no second check
            self._moves += 1
            if action > RECYCLE.id:  # a removal
                self._idle_passes, self._removed_in_pass = 0, True
            elif action == RECYCLE.id:  # a pass ends
                self._idle_passes = 0 if self._removed_in_pass else self._idle_passes + 1
                self._removed_in_pass = False
            self._seen |= st.face_up(s)
            self._update()
        else:
            if self.illegal_action == "raise":
                self._raise_illegal(action)
            illegal = self._illegal(action)
        self._steps += 1
        if self.render_mode == "human":
            self.render()
        terminated = self._done
        if illegal:
            reward = self.illegal_reward
        else:
            after = s.pyramid_left
            reward = step_reward(
                self.reward_kind, before_cards, after, self._won, before_score, self._score
            )
        info = self._info()
        if illegal:
            info["illegal_action"] = illegal
        truncated = False
        if not terminated:
            if self.max_idle_passes is not None and self._idle_passes >= self.max_idle_passes:
                truncated, info["truncated_by"] = True, "idle_passes"
            elif self._steps >= self.max_steps:
                truncated, info["truncated_by"] = True, "max_steps"
        return self._obs(), reward, terminated, truncated, info

    def _illegal(self, action: int) -> dict[str, Any]:
        """The info entry of an illegal action: the id and the rules' reason."""
        reason = st.why_illegal(self.state, MOVES[action]) or "the episode is over: call reset()"
        return {"action": action, "reason": reason}

    def _raise_illegal(self, action: int) -> None:
        reason = self._illegal(action)["reason"]
        raise st.IllegalMove(f"action {action}: {reason}")

    def action_masks(self) -> np.ndarray:
        """Legal actions as bool (the method sb3-contrib's MaskablePPO looks up)."""
        if self.state is None:
            mask = np.zeros(N_ACTIONS, bool)
            mask[0] = True
            return mask
        return self._mask.astype(bool)

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted; empty once the episode is over (unlike the mask)."""
        if self.state is None or self._done:
            return []
        return list(self._ids) if self._fast is None else np.flatnonzero(self._mask).tolist()

    def known_stock(self) -> int:
        """Stock cycle positions whose card the observation reveals (bit ``i``: deal card 29+i).

        Every live one with ``observe_stock="full"``; otherwise those turned face up so far.
        Agents that read the engine state use it to play fair with the observation.
        """
        if self.state is None:
            return 0
        return self.state.left if self.observe_stock == "full" else self._seen & self.state.left

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the board as text; ``"rgb_array"``: a picture; ``"human"``: a window.

        Both show exactly what the observation shows: the stock line names the cards of
        :meth:`known_stock` and writes ``??`` for the others (all of them named with
        ``observe_stock="full"``), so a video or a log never shows more than the agent sees.
        """
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return format_board(self.state, known=self.known_stock())
        from pyramid_env.env.rendering import Window, render_rgb

        frame = render_rgb(self.state, self.known_stock())
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            self._window = Window(self.metadata["render_fps"])
        self._window.show(frame)
        return None

    def close(self) -> None:
        """Close the human-mode window, if one is open."""
        if getattr(self, "_window", None) is not None:
            self._window.close()
            self._window = None

    # -- the settings, read-only: one checked value (:class:`EnvSettings`) -----------------------
    @property
    def rules(self) -> Rules:
        """The rule set in force."""
        return self.settings.rules

    @property
    def observe_stock(self) -> str:
        """``"seen"`` or ``"full"``."""
        return self.settings.observe_stock

    @property
    def reward_kind(self) -> str:
        """The ``reward`` argument: ``"cards"``, ``"win"`` or ``"score"``."""
        return self.settings.reward

    @property
    def obs_mode(self) -> str:
        """The observation form."""
        return self.settings.obs_mode

    @property
    def illegal_action(self) -> str:
        """``"penalty"`` or ``"raise"``."""
        return self.settings.illegal_action

    @property
    def illegal_reward(self) -> float:
        """The reward of an illegal action."""
        return self.settings.illegal_reward

    @property
    def terminate_on_dead(self) -> bool:
        """End the episode at 000's dead deal."""
        return self.settings.terminate_on_dead

    @property
    def max_steps(self) -> int:
        """Truncate after this many steps."""
        return self.settings.max_steps

    @property
    def max_idle_passes(self) -> int | None:
        """Truncate after this many passes without a removal (``None``: never)."""
        return self.settings.max_idle_passes

    @property
    def deals(self) -> range | list[int] | None:
        """The deal numbers ``reset`` draws from (``None``: all)."""
        return self.settings.deals

    @property
    def stops_at_dead_deal(self) -> bool:
        """See :attr:`EnvSettings.stops_at_dead_deal`."""
        return self.settings.stops_at_dead_deal

    # -- helpers -------------------------------------------------------------------------------
    def _update(self) -> None:
        """Legal moves, the end of the episode, win and score: once per position."""
        s = self.state
        ids = self._ids = st.legal_ids(s)
        mask = self._mask = np.zeros(N_ACTIONS, np.int8)
        self._won = st.is_won(s)
        self._score = score(s, self._moves)  # for the info and the "score" reward
        self._done = st.is_over(s, ids, self.stops_at_dead_deal)
        if self._done:
            mask[0] = 1  # never all false: vector autoreset steps a terminal obs once more
        else:
            mask[ids] = 1

    def _sync(self) -> None:
        """The compiled game's row into the engine's State and the episode's counters."""
        s = self.state
        fast = self._fast
        (s.pyr, s.left, s.ptr, drawn, s.recycles, self._steps, self._moves, self._idle_passes,
         removed, _, done, won, self._seen, _, _) = fast.S[0].tolist()  # fmt: skip
        s.drawn, self._removed_in_pass = drawn != 0, removed != 0
        self._done, self._won = done != 0, won != 0
        self._score = fast.score_type(fast.score[0])
        self._mask = fast.mask[0]  # updated in place: every mask given out is a copy

    def _obs(self) -> Any:
        if self._fast is not None:
            return self._fast.observation(self.settings.obs_mode, self._mask)
        return self._numpy_obs()

    def _numpy_obs(self) -> Any:
        """The observation from :mod:`pyramid_env.env.observation` (without numba; the check)."""
        mode = self.settings.obs_mode
        obs = self._encoder.encode(self.state, self._seen, mode == "counts")
        if mode == "dict":
            return obs
        if mode == "onehot":
            return ob.onehot(obs, self.settings.dtype)
        if mode == "counts":
            return ob.counts(obs, self.settings.dtype)
        if mode == "compact":
            return ob.compact(obs)
        flat = ob.flatten(obs, self.settings.dtype)
        if mode == "flat":
            return flat
        if self.obs_mode == "pettingzoo":
            return {"observation": flat, "action_mask": self._mask.copy()}
        return {"observations": flat, "action_mask": self._mask.astype(np.float32)}

    def _info(self) -> dict[str, Any]:
        s = self.state
        return {
            "deal": self._deal_number,
            "code": self._code,
            "pyramid_left": s.pyramid_left,
            "moves": self._moves,
            "pass": s.recycles + 1,
            "score": self._score,
            "won": self._won,
            "seed": self._seed,
            "action_mask": self._mask.copy(),  # fresh on every call, as Gymnasium asks
        }


_KERNEL: list[Any] = []


def _kernel() -> Any:
    """The vector env's kernel module, imported on first use (it compiles with numba)."""
    if not _KERNEL:
        from pyramid_env.env import kernel

        _KERNEL.append(kernel)
    return _KERNEL[0]


class _CompiledGame:
    """One game in the vector env's arrays, stepped by its kernel (:func:`kernel.play_one`).

    The engine's rules and the env's bookkeeping as the vector env compiles them, for one
    game: one call a step instead of the engine's Python (tests hold the two equal, step for
    step, under every rule variant); used where numba is installed.
    """

    def __init__(self, settings: EnvSettings) -> None:
        """The game's row and one-row outputs for the settings' form (reused: copies go out)."""
        K = _kernel()
        config = K.config_of(settings)
        ci, cf = K.config_arrays(config)
        width = {
            K.FLAT: ob.FLAT_SIZE, K.ONEHOT: ob.ONEHOT_SIZE, K.COUNTS: ob.COUNTS_SIZE,
            K.COMPACT: ob.COMPACT_SHAPE[0] * ob.COMPACT_SHAPE[1], K.DICT: 1,
        }[config.form]  # fmt: skip
        wide = config.scaled and config.form != K.COMPACT
        self.S = np.zeros((1, K.COLUMNS), np.int64)
        self.cards = np.zeros((1, 52), np.int64)
        self.score = np.zeros(1, np.float64)
        self.mask = np.zeros((1, N_ACTIONS), np.int8)
        self.pieces = np.empty((1, 104), np.int8)
        self.counters = np.empty((1, 5), np.int16)
        out = np.empty((1, width if wide else 1), np.float32)
        out8 = np.empty((1, 1 if wide else width), np.uint8)
        self.row = out[0] if wide else out8[0]
        self.code = np.zeros(K.CODE_LEN, np.uint8)
        self.args = (self.S, self.cards, np.zeros((1, 28), np.int64), np.zeros((1, 24), np.int64),
                     np.zeros((1, 14), np.int64), self.score, self.mask, ci, cf, self.pieces,
                     self.counters, out, out8)  # fmt: skip
        # game.score's type: an int, or a float where the scoring has a win bonus
        self.score_type = type(points(settings.rules.scoring, 0, 0, False, False, 0))

    def deal(self, cards: tuple[int, ...]) -> str:
        """Take ``cards`` for the next new deal (``play_one(-1, ...)``); returns their code."""
        self.cards[0] = cards
        _kernel().code_chars(self.cards[0], self.code)
        return self.code.tobytes().decode()

    def observation(self, mode: str, mask: np.ndarray) -> Any:
        """The observation in ``mode``, as copies of the buffers."""
        if mode == "dict":
            p = self.pieces[0]
            return {
                "pyramid": p[:28].copy(),
                "exposed": p[28:56].copy(),
                "stock": p[56:80].copy(),
                "stock_where": p[80:].copy(),
                "counters": self.counters[0].copy(),
            }
        row = self.row.copy()
        if mode == "compact":
            return row.reshape(ob.COMPACT_SHAPE)
        if mode == "pettingzoo":
            return {"observation": row, "action_mask": mask.copy()}
        if mode == "rllib":
            return {"observations": row, "action_mask": mask.astype(np.float32)}
        return row


# PyramidEnv's own arguments are the settings' (a test holds its signature to ENV_DEFAULTS).
_PARAMS = list(inspect.signature(PyramidEnv.__init__).parameters.values())[1:-1]
assert {p.name: p.default for p in _PARAMS} == ENV_DEFAULTS, "PyramidEnv and EnvSettings differ"

__all__ = ["PyramidEnv"]

"""PyramidEnv: the Gymnasium environment, a thin adapter over the engine.

Each rule of an episode is stated once and shared with the vector env
(:class:`~pyramid_env.env.vector.PyramidVectorEnv`): the score is
:func:`~pyramid_env.engine.game.points`, the reward :func:`step_reward` (both plain arithmetic,
so they take one game's numbers or arrays of many), and the episode's end the engine's
:func:`~pyramid_env.engine.state.is_over` (whose array statement is
:func:`~pyramid_env.env.batch.is_over`).
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
import math
import numbers
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import MAX_DEAL, Deal, deal, decode_code, parse_cards
from pyramid_env.engine.errors import PyramidError, RulesError, describe
from pyramid_env.engine.game import score
from pyramid_env.engine.moves import MOVES, RECYCLE
from pyramid_env.engine.notation import format_board
from pyramid_env.engine.rules import PRESETS, Rules, get_rules
from pyramid_env.env import observation as ob
from pyramid_env.env.actions import N_ACTIONS, action_id
from pyramid_env.seeds import seed_set

OBS_MODES = ("dict", "flat", "onehot", "counts", "pettingzoo", "rllib")
REWARDS = ("cards", "win", "score")
DEAL_OPTIONS = ("deal", "code", "cards")  # the keys of reset's options: one of them, or none
RULE_KNOBS = tuple(f.name for f in dataclasses.fields(Rules))
MAX_STEPS = 10**9  # the top of max_steps and max_idle_passes: counters are int64 arrays
MAX_ENVS = 1_000_000  # the most games of a vector env


# -- input checks: each normalises a value once, here at the boundary, or raises PyramidError ----
def check_int(
    name: str, value: Any, low: int, high: int | None = None, high_text: str | None = None
) -> int:
    """``value`` as a plain int in ``low..high``; numpy integers count, bools do not.

    ``high_text`` writes ``high`` in the message (``"2**64-1"`` reads better than 20 digits).

    Raises:
        PyramidError: naming ``name``, the value and the allowed range.
    """
    top = high_text or high
    allowed = f"an integer >= {low}" if high is None else f"an integer in {low}..{top}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise PyramidError(f"{name}={describe(value)}: expected {allowed}")
    value = int(value)
    if value < low or (high is not None and value > high):
        raise PyramidError(f"{name}={value} is out of range: expected {allowed}")
    return value


def check_choice(name: str, value: Any, allowed: tuple[str | None, ...]) -> Any:
    """``value`` if it is one of ``allowed`` (strings, or None).

    The type is checked first, so an array or a number is refused with a message rather than
    failing in an ambiguous comparison.
    """
    if (value is None or isinstance(value, str)) and value in allowed:
        return value
    shown = repr(value) if value is None or isinstance(value, str) else describe(value)
    raise PyramidError(f"{name}={shown} is not one of {allowed}")


def check_seed(seed: Any) -> Any:
    """A reset seed: ``None``, or an integer >= 0 (numpy integers become ints).

    What Gymnasium takes, checked here so a bad seed is our error, naming it, like every other
    input (a bool, a float, a negative number; Gymnasium's own would be ``gymnasium.error``).

    Raises:
        PyramidError: anything else.
    """
    if seed is None:
        return None
    return check_int("seed", seed, 0)


def unknown_arguments(names: Any, own: tuple[str, ...], where: str) -> None:
    """Refuse names that are neither ``own`` arguments nor rule knobs, listing both.

    Rule knobs reach ``get_rules``; a typo of an env argument would otherwise be reported as an
    unknown rule, so the check is made here, where both lists are known.
    """
    bad = [n for n in names if n not in own and n not in RULE_KNOBS]
    if not bad:
        return
    name = bad[0]
    if not isinstance(name, str):
        raise PyramidError(f"{where}: argument names are strings, got {describe(name)}")
    close = difflib.get_close_matches(name, own + RULE_KNOBS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise PyramidError(
        f"unknown argument {name!r} to {where}{hint}; env arguments: {', '.join(own)}; "
        f"rule knobs: {', '.join(RULE_KNOBS)}"
    )


def check_deals(deals: Any) -> range | list[int] | None:
    """The deal numbers ``reset`` draws from: ``None``, or a seed set checked by ``seed_set``.

    ``seed_set`` promises what ``draw_deal`` needs: a non-empty set of plain ints in
    0..2**64-1, no repeats, whose length fits an index.
    """
    return None if deals is None else seed_set(deals, field="deals")


def check_deal_option(key: Any, value: Any, where: str) -> Deal:
    """The deal that reset option ``key`` names, checked.

    ``"deal"``: a deal number (or a ``Deal``); ``"code"``: a deal code ``'P2-...'``;
    ``"cards"``: 52 cards as text or as integers 0..51. Each key takes its own kind of value
    only (a number under ``"code"`` is refused, not read as a deal number), so a typo cannot
    deal a different game than the one meant.
    """
    if key == "deal":
        if isinstance(value, Deal):
            return value
        return deal(check_int(where, value, 0, MAX_DEAL, "2**64-1"))
    if key == "code":
        if not isinstance(value, str):
            raise PyramidError(f"{where}={describe(value)}: expected a deal code 'P2-...' (str)")
        return Deal(decode_code(value))
    if isinstance(value, str):
        return Deal(parse_cards(value))
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iu":
            raise PyramidError(
                f"{where}: an array of cards must be 1-d of integers 0..51, got shape "
                f"{value.shape} of {value.dtype}"
            )
        value = value.tolist()
    if not isinstance(value, list | tuple):
        raise PyramidError(
            f"{where}={describe(value)}: expected 52 cards as text ('Ac 2c ...') or as a list "
            "of integers 0..51"
        )
    return Deal(tuple(check_int(f"{where}[{i}]", c, 0, 51) for i, c in enumerate(value)))


def check_options(options: Any, allowed: tuple[str, ...] = DEAL_OPTIONS) -> tuple[str, Any]:
    """``(key, value)`` of the one deal option in reset's ``options``; ``(None, None)`` if none.

    Raises:
        PyramidError: ``options`` not a dict, an unknown key (``{"seed": 7}`` would otherwise
            deal at random, unnoticed), or more than one deal option.
    """
    if options is None:
        return None, None
    if not isinstance(options, Mapping):
        raise PyramidError(
            f"options={describe(options)}: expected a dict with one of the keys "
            f"{', '.join(map(repr, allowed))}, or None"
        )
    unknown = [k for k in options if k not in allowed]
    if unknown:
        raise PyramidError(
            f"unknown reset option {unknown[0]!r}: the options are {', '.join(map(repr, allowed))}"
            " (one of them; leave them out to draw a deal); the seed is reset's seed= argument"
        )
    given = [k for k in allowed if k in options]
    if len(given) > 1:
        raise PyramidError(
            f"reset options {', '.join(map(repr, given))} given together: choose the deal with "
            "one of them"
        )
    return (given[0], options[given[0]]) if given else (None, None)


def config_arguments(
    config: dict[Any, Any], given: dict[str, Any], knobs: dict[str, Any]
) -> dict[str, Any]:
    """The keyword arguments of a config dict (RLlib's ``env_config``) and those beside it.

    An argument both in the dict and given beside it is refused rather than one of the two
    dropped unnoticed; an argument left at its default counts as not given.

    Raises:
        PyramidError: a key that is not a string, a dict under ``"rules"`` or a repeated
            argument.
    """
    out = dict(config)
    for key in out:
        if not isinstance(key, str):
            raise PyramidError(f"config dict key {describe(key)}: keys are argument names (str)")
    if isinstance(out.get("rules"), dict):
        raise PyramidError(
            "config dict: 'rules' in it must be a preset name, a Rules or None, not a dict"
        )
    extra = {k: v for k, v in given.items() if not _is_default(k, v)} | knobs
    for name, value in extra.items():
        if name in out:
            raise PyramidError(
                f"{name} given twice: {out[name]!r} in the config dict and {value!r} beside it"
            )
        out[name] = value
    return out


def _is_default(name: str, value: Any) -> bool:
    default = ENV_DEFAULTS[name]
    return type(value) is type(default) and value == default


def draw_deal(rng: np.random.Generator, deals: range | list[int] | None) -> int:
    """A deal number for ``reset`` without options: uniform over ``deals``, or 0..2**63-1."""
    if deals is None:
        return int(rng.integers(2**63))
    return deals[int(rng.integers(len(deals)))]


def step_reward(
    kind: str, cards_before: Any, cards_after: Any, won: Any, score_before: Any, score_after: Any
) -> Any:
    """The reward of the move just played (see :class:`PyramidEnv`'s Rewards).

    From the numbers before and after the move, in plain arithmetic, so the single env passes
    one game's numbers and the vector env arrays of all its games' to this same function.

    Args:
        kind: the env's ``reward``: ``"cards"``, ``"win"`` or ``"score"``.
        cards_before: pyramid cards left before the move.
        cards_after: pyramid cards left after it.
        won: the goal is reached after it (bool).
        score_before: the score before the move (:func:`~pyramid_env.engine.game.score`).
        score_after: the score after it.
    """
    if kind == "cards":
        return (cards_before - cards_after) / 28
    if kind == "win":
        return won * 1.0
    return (score_after - score_before) * 1.0  # a float, as the other kinds, for int scores


class PyramidEnv(gym.Env):
    """Pyramid Solitaire: clear the 28-card pyramid by removing pairs that sum to 13.

    ## Description
    One deal of Pyramid Solitaire under a rule set (a preset of ``pyramid_env.engine.rules``,
    default ``relaxed``: unlimited passes, covering pairs, waste top only). The rules engine
    decides every legal move and outcome; this class only adapts it to Gymnasium.

    ## Action Space
    ``Discrete(327)`` over board places (see ``pyramid_env.env.actions`` for the table): 0 draw,
    1 recycle, 2..31 a King at a place, 32..326 a pair of places. Always mask:
    ``action_masks()`` (bool, for sb3-contrib's MaskablePPO) and ``info["action_mask"]`` (int8,
    for ``Discrete.sample(mask)``). Once the episode is over the mask allows action 0 alone, so
    it is never all false (vector autoreset steps the terminal observation once more).

    ## Observation Space
    ``Dict`` of ``pyramid`` (28, rank or 0), ``exposed`` (28), ``stock`` (24, the fixed cycle
    order: rank if known, 14 unknown, 0 removed), ``stock_where`` (24: 0 removed, 1 stock, 2 waste,
    3 waste top, 4 drawn / face-up stock card) and ``counters`` (pass, recycles left or 255,
    stock size, waste size, pyramid left); index ranges in ``pyramid_env.env.observation``.
    ``observe_stock="seen"`` shows a stock card only once it has been face up; ``"full"`` shows
    the whole order (the solver's view). ``obs_mode``: ``"dict"``, ``"flat"`` (float32 Box of
    109), ``"onehot"`` (float32 Box of 905, the categorical pieces one-hot: the form for
    networks), ``"counts"`` (float32 Box of 922: the one-hot form, the unseen cards of each rank
    and the recycles left, what a search over the unseen cards reads), ``"pettingzoo"``
    (``{"observation", "action_mask"}``) or ``"rllib"``
    (``{"observations", "action_mask"}``).

    ## Rewards
    ``"cards"``: +1/28 per pyramid card removed (a cleared pyramid sums to 1). ``"win"``: 1 when
    the goal is reached. ``"score"``: the change in the preset's score. An illegal action is a
    no-op with reward ``illegal_reward`` (default -0.01) and ``info["illegal_action"]`` saying
    why, or raises ``IllegalMove`` with ``illegal_action="raise"``.

    ## Episode End
    Terminated when the goal is reached, when the rules end the game, or (``terminate_on_dead``,
    default) when rulebook 000's dead-deal test holds: no removal now and no stock card could
    ever help, so no action can change the outcome. Truncated after ``max_steps`` steps, or,
    where passes are unlimited, after ``max_idle_passes`` (default 2) full passes in a row
    through the stock without a removal: the position is then back where it was a pass ago, so a
    policy that plays deterministically would loop until ``max_steps`` (under a pass limit the
    limit itself ends such a loop, so the rule does not apply). ``info["truncated_by"]`` says
    which limit (``"max_steps"`` or ``"idle_passes"``) on the step that truncates.

    ## Arguments
    ``rules`` (preset name or ``Rules``; a dict here is read as a config, as RLlib passes
    ``env_config``), ``observe_stock``, ``reward``, ``max_steps`` (default 1000),
    ``max_idle_passes`` (default 2; ``None`` never truncates on idle passes), ``obs_mode``,
    ``illegal_action`` (``"penalty"`` or ``"raise"``), ``illegal_reward``, (``max_steps``,
    ``max_idle_passes`` and ``illegal_reward`` up to 10**9; the rule knobs' ranges are in
    :class:`~pyramid_env.engine.rules.Rules`: ``passes`` up to 255, which the observation holds),
    ``terminate_on_dead``, ``render_mode`` (``"ansi"``; with the ``render`` extra ``"rgb_array"``,
    a picture usable with ``RecordVideo``, and ``"human"``, a window), and rule knobs as keywords
    (``passes=1``). ``reset(options={"deal": n})`` (or ``"code"``, ``"cards"``) plays a chosen
    deal; otherwise the deal number is drawn from the env's seeded generator, uniformly from
    ``deals`` when given (a seed set of ``pyramid_env.seeds``, e.g. ``"train"``, or numbers),
    else from 0..2**63-1.

    Every input is checked where it enters (arguments, a config dict, reset's options and
    seed, step's action): a wrong type, value or name raises ``PyramidError`` naming it, the
    value and what is allowed, and leaves the env as it was; nothing falls back to a default.
    Numpy integers count as integers; bools and floats (even 3.0) do not.

    ## Version History
    * v0: initial release.
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
        **rule_knobs: Any,
    ) -> None:
        """See the class docstring's Arguments.

        Raises:
            PyramidError: an argument of the wrong type or out of range, an unknown argument
                name (listing the env's arguments and the rule knobs), or a rule knob the
                engine refuses (``RulesError``). Nothing is replaced by a default.
        """
        if isinstance(rules, dict):  # one config dict (RLlib's env_config): its keys as keywords
            given = {
                "observe_stock": observe_stock, "reward": reward, "max_steps": max_steps,
                "obs_mode": obs_mode, "illegal_action": illegal_action,
                "illegal_reward": illegal_reward, "terminate_on_dead": terminate_on_dead,
                "render_mode": render_mode, "deals": deals, "max_idle_passes": max_idle_passes,
            }  # fmt: skip
            self.__init__(**config_arguments(rules, given, rule_knobs))
            return
        unknown_arguments(rule_knobs, ENV_ARGS, "PyramidEnv")
        if rules is not None and not isinstance(rules, str | Rules):
            raise PyramidError(
                f"rules={describe(rules)}: expected a preset name ({', '.join(PRESETS)}), a "
                "Rules, a config dict or None"
            )
        try:
            self.rules = get_rules(rules, **rule_knobs)
        except PyramidError:
            raise
        except (ValueError, TypeError) as err:  # the engine's message, as a RulesError
            raise RulesError(str(err)) from err
        self.observe_stock = check_choice("observe_stock", observe_stock, ("seen", "full"))
        self.reward_kind = check_choice("reward", reward, REWARDS)
        self.obs_mode = check_choice("obs_mode", obs_mode, OBS_MODES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ("penalty", "raise"))
        render_mode = check_choice("render_mode", render_mode, (None, "ansi", "rgb_array", "human"))
        self.max_steps = check_int("max_steps", max_steps, 1, MAX_STEPS, "10**9")
        if max_idle_passes is not None:
            max_idle_passes = check_int("max_idle_passes", max_idle_passes, 1, MAX_STEPS, "10**9")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, numbers.Real):
            raise PyramidError(
                f"illegal_reward={describe(illegal_reward)}: expected a finite real number"
            )
        if not math.isfinite(illegal_reward) or abs(illegal_reward) > MAX_STEPS:
            raise PyramidError(
                f"illegal_reward={illegal_reward!r}: expected a finite number in -10**9..10**9"
            )
        if not isinstance(terminate_on_dead, bool | np.bool_):
            raise PyramidError(
                f"terminate_on_dead={describe(terminate_on_dead)}: expected True or False"
            )
        # Idle passes end a loop only where nothing else does: unlimited passes.
        self.max_idle_passes = max_idle_passes if self.rules.passes is None else None
        self.illegal_reward, self.terminate_on_dead = float(illegal_reward), bool(terminate_on_dead)
        self.render_mode = render_mode
        # Deals drawn by reset(): a fixed seed set ("train") keeps training off val and test.
        self.deals = check_deals(deals)
        if render_mode in ("rgb_array", "human"):  # fail now, with the fix, if Pillow is missing
            from pyramid_env.env import rendering  # noqa: F401
        self._window = None
        self.action_space = spaces.Discrete(N_ACTIONS)
        mask_space = spaces.Box(0, 1, (N_ACTIONS,), np.float32 if obs_mode == "rllib" else np.int8)
        self.observation_space = {
            "dict": ob.dict_space(),
            "flat": ob.flat_space(),
            "onehot": ob.onehot_space(),
            "counts": ob.counts_space(),
            "pettingzoo": spaces.Dict({"observation": ob.flat_space(), "action_mask": mask_space}),
            "rllib": spaces.Dict({"observations": ob.flat_space(), "action_mask": mask_space}),
        }[obs_mode]
        self.state: st.State | None = None
        self._seed: int | None = None  # the last seed given to reset

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
        self._deal_number, self._code = d.number, d.code  # the code is costly: once a deal
        self._encoder = ob.Encoder(s, self.observe_stock == "full")
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
        s = self.state
        if type(action) is not int or not 0 <= action < N_ACTIONS:  # the fast path: a plain id
            action = action_id(action)
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
            reason = st.why_illegal(s, move) or "the episode is over: call reset()"
            illegal = {"action": action, "reason": reason}
            if self.illegal_action == "raise":
                raise st.IllegalMove(f"action {action}: {reason}")
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

    def action_masks(self) -> np.ndarray:
        """Legal actions as bool (the method sb3-contrib's MaskablePPO looks up)."""
        if self.state is None:
            mask = np.zeros(N_ACTIONS, bool)
            mask[0] = True
            return mask
        return self._mask.astype(bool)

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted; empty once the episode is over (unlike the mask)."""
        return [] if self.state is None or self._done else list(self._ids)

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

    @property
    def stops_at_dead_deal(self) -> bool:
        """The episode ends at 000's dead deal where the rules themselves would play on.

        ``terminate_on_dead``, for rules that do not end a dead deal themselves (where they do,
        ``legal_ids`` is already empty for one). The vector env reads it too, so both envs end
        an episode on the same test: :func:`~pyramid_env.engine.state.is_over`.
        """
        return self.terminate_on_dead and not self.rules.dead_deal_ends_game

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
            mask[0] = 1  # never all false: see the class docstring
        else:
            mask[ids] = 1

    def _obs(self) -> Any:
        obs = self._encoder.encode(self.state, self._seen, self.obs_mode == "counts")
        if self.obs_mode == "dict":
            return obs
        if self.obs_mode == "onehot":
            return ob.onehot(obs)
        if self.obs_mode == "counts":
            return ob.counts(obs)
        flat = ob.flatten(obs)
        if self.obs_mode == "flat":
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


# PyramidEnv's own arguments and their defaults, from its signature (a new argument cannot be
# forgotten in the unknown-name check or the config-dict merge).
_PARAMS = list(inspect.signature(PyramidEnv.__init__).parameters.values())[1:-1]
ENV_ARGS: tuple[str, ...] = tuple(p.name for p in _PARAMS)
ENV_DEFAULTS: dict[str, Any] = {p.name: p.default for p in _PARAMS}

__all__ = ["PyramidEnv"]

"""The env's settings: every argument checked once, at the boundary, into one frozen value.

:class:`EnvSettings` is what :class:`~pyramid_env.env.pyramid_env.PyramidEnv` and
:class:`~pyramid_env.env.vector.PyramidVectorEnv` are configured by: :meth:`EnvSettings.build`
checks the arguments (and a config dict, RLlib's ``env_config``) and resolves the rules once;
both envs then read plain, typed fields, and nothing downstream checks or resolves them again.
The input checks of reset's options and seeds live here too, shared by both envs: each
normalises a value once or raises :class:`~pyramid_env.engine.errors.PyramidError` naming it,
the value and what is allowed.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from pyramid_env.engine.deal import MAX_DEAL, Deal, deal, decode_code, parse_cards
from pyramid_env.engine.errors import PyramidError, RulesError, describe
from pyramid_env.engine.rules import PRESETS, Rules, get_rules
from pyramid_env.env import observation as ob
from pyramid_env.env.actions import N_ACTIONS
from pyramid_env.seeds import seed_set

OBS_MODES = ("dict", "flat", "onehot", "counts", "compact", "pettingzoo", "rllib")
OBS_DTYPES = ("float32", "uint8")  # of the flat, one-hot and counts forms
REWARDS = ("cards", "win", "score")


def step_reward(
    kind: str, cards_before: Any, cards_after: Any, won: Any, score_before: Any, score_after: Any
) -> Any:
    """The reward of the move just played (see :class:`~pyramid_env.env.PyramidEnv`'s Rewards).

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


# Bit generators whose ``random_raw()`` is the 64-bit word ``Generator.integers`` draws from
# (MT19937's is a 32-bit word: not here). For a range of 2**63, numpy's Lemire algorithm
# computes ``(word * 2**63) >> 64`` with a rejection threshold of ``2**63 % 2**63 == 0``: it
# never draws twice, and returns ``word >> 1``.
_RAW64 = frozenset({np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64})


def draw_deal(rng: np.random.Generator, deals: range | list[int] | None) -> int:
    """A deal number for ``reset`` without options: uniform over ``deals``, or 0..2**63-1.

    Without ``deals`` the number is ``rng.integers(2**63)``, read straight off the bit
    generator where that is the same number and leaves the same state (see ``_RAW64``): an
    autoreset draws one per new game, and ``Generator.integers`` is the slow way to it. A
    test holds the two equal; every other generator takes ``integers``.
    """
    if deals is None:
        bits = rng.bit_generator
        if type(bits) in _RAW64:
            return bits.random_raw() >> 1
        return int(rng.integers(2**63))
    return deals[int(rng.integers(len(deals)))]


def raw_words(rng: np.random.Generator, deals: range | list[int] | None) -> Any:
    """``rng``'s ``random_raw`` where ``draw_deal(rng, deals)`` is ``random_raw() >> 1``, else None.

    For the vector env's autoresets, several new deals a step: it keeps the bound method per
    game and shifts the word itself, the same number with no call between.
    """
    bits = rng.bit_generator
    return bits.random_raw if deals is None and type(bits) in _RAW64 else None


# The env's own arguments and their defaults (PyramidEnv's signature, which a test holds equal).
ENV_DEFAULTS: dict[str, Any] = {
    "rules": "relaxed",
    "observe_stock": "seen",
    "reward": "cards",
    "max_steps": 1000,
    "obs_mode": "dict",
    "illegal_action": "penalty",
    "illegal_reward": -0.01,
    "terminate_on_dead": True,
    "render_mode": None,
    "deals": None,
    "max_idle_passes": 2,
    "obs_dtype": "float32",
}
ENV_ARGS: tuple[str, ...] = tuple(ENV_DEFAULTS)


@dataclass(frozen=True)
class EnvSettings:
    """An env's settings, checked: what both envs read, built once by :meth:`build`.

    Attributes:
        rules: the rule set, resolved (a :class:`~pyramid_env.engine.rules.Rules`).
        observe_stock: ``"seen"`` or ``"full"``.
        reward: ``"cards"``, ``"win"`` or ``"score"``.
        max_steps: truncate after this many steps.
        obs_mode: one of :data:`OBS_MODES`.
        illegal_action: ``"penalty"`` or ``"raise"``.
        illegal_reward: the reward of an illegal action.
        terminate_on_dead: end the episode at 000's dead deal.
        render_mode: ``None``, ``"ansi"``, ``"rgb_array"`` or ``"human"``.
        deals: the deal numbers ``reset`` draws from (``None``: all of them).
        max_idle_passes: truncate after this many passes without a removal; ``None`` for none,
            and always ``None`` under a pass limit (the limit ends such loops itself).
        obs_dtype: ``"float32"`` or ``"uint8"``, the dtype of the flat, one-hot and counts
            forms (uint8: a quarter of the bytes; the counts come undivided).
    """

    rules: Rules
    observe_stock: str = "seen"
    reward: str = "cards"
    max_steps: int = 1000
    obs_mode: str = "dict"
    illegal_action: str = "penalty"
    illegal_reward: float = -0.01
    terminate_on_dead: bool = True
    render_mode: str | None = None
    deals: range | list[int] | None = None
    max_idle_passes: int | None = 2
    obs_dtype: str = "float32"

    @classmethod
    def build(cls, rules: Any = "relaxed", **kwargs: Any) -> EnvSettings:
        """Check the env's arguments (as :class:`PyramidEnv` takes them) into one value.

        ``rules`` may be a config dict (RLlib's ``env_config``): its keys are then read as the
        keyword arguments, and one also given beside it is refused.

        Raises:
            PyramidError: an argument of the wrong type or out of range, an unknown argument
                name (listing the env's arguments and the rule knobs), or a rule knob the
                engine refuses (``RulesError``). Nothing is replaced by a default.
        """
        own = {k: kwargs.pop(k) for k in ENV_ARGS if k in kwargs}
        if isinstance(rules, dict):  # one config dict: its keys as keywords
            given = {k: own.get(k, ENV_DEFAULTS[k]) for k in ENV_ARGS if k != "rules"}
            return cls.build(**config_arguments(rules, given, kwargs))
        unknown_arguments(kwargs, ENV_ARGS, "PyramidEnv")
        if rules is not None and not isinstance(rules, str | Rules):
            raise PyramidError(
                f"rules={describe(rules)}: expected a preset name ({', '.join(PRESETS)}), a "
                "Rules, a config dict or None"
            )
        try:
            resolved = get_rules(rules, **kwargs)
        except PyramidError:
            raise
        except (ValueError, TypeError) as err:  # the engine's message, as a RulesError
            raise RulesError(str(err)) from err
        a = ENV_DEFAULTS | own
        observe_stock = check_choice("observe_stock", a["observe_stock"], ("seen", "full"))
        reward = check_choice("reward", a["reward"], REWARDS)
        obs_mode = check_choice("obs_mode", a["obs_mode"], OBS_MODES)
        obs_dtype = check_choice("obs_dtype", a["obs_dtype"], OBS_DTYPES)
        if obs_dtype != "float32" and obs_mode not in ("flat", "onehot", "counts"):
            raise PyramidError(
                f"obs_dtype={obs_dtype!r} is for the flat, onehot and counts forms; "
                f"obs_mode={obs_mode!r} has its own dtypes"
            )
        illegal_action = check_choice("illegal_action", a["illegal_action"], ("penalty", "raise"))
        render_mode = check_choice(
            "render_mode", a["render_mode"], (None, "ansi", "rgb_array", "human")
        )
        max_steps = check_int("max_steps", a["max_steps"], 1, MAX_STEPS, "10**9")
        idle = a["max_idle_passes"]
        if idle is not None:
            idle = check_int("max_idle_passes", idle, 1, MAX_STEPS, "10**9")
        illegal_reward = a["illegal_reward"]
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, numbers.Real):
            raise PyramidError(
                f"illegal_reward={describe(illegal_reward)}: expected a finite real number"
            )
        if not math.isfinite(illegal_reward) or abs(illegal_reward) > MAX_STEPS:
            raise PyramidError(
                f"illegal_reward={illegal_reward!r}: expected a finite number in -10**9..10**9"
            )
        dead = a["terminate_on_dead"]
        if not isinstance(dead, bool | np.bool_):
            raise PyramidError(f"terminate_on_dead={describe(dead)}: expected True or False")
        # Deals drawn by reset(): a fixed seed set ("train") keeps training off val and test.
        deals = check_deals(a["deals"])
        if render_mode in ("rgb_array", "human"):  # fail now, with the fix, if Pillow is missing
            from pyramid_env.env import rendering  # noqa: F401
        return cls(
            rules=resolved,
            observe_stock=observe_stock,
            reward=reward,
            max_steps=max_steps,
            obs_mode=obs_mode,
            illegal_action=illegal_action,
            illegal_reward=float(illegal_reward),
            terminate_on_dead=bool(dead),
            render_mode=render_mode,
            deals=deals,
            # Idle passes end a loop only where nothing else does: unlimited passes.
            max_idle_passes=idle if resolved.passes is None else None,
            obs_dtype=obs_dtype,
        )

    def replace(self, **changes: Any) -> EnvSettings:
        """These settings with ``changes`` (already checked values: ``max_steps=5``)."""
        return dataclasses.replace(self, **changes)

    @property
    def stops_at_dead_deal(self) -> bool:
        """The episode ends at 000's dead deal where the rules themselves would play on.

        ``terminate_on_dead``, for rules that do not end a dead deal themselves (where they do,
        ``legal_ids`` is already empty for one), so both envs end an episode on the same test:
        :func:`~pyramid_env.engine.state.is_over`.
        """
        return self.terminate_on_dead and not self.rules.dead_deal_ends_game

    def observation_space(self) -> spaces.Space:
        """One game's observation space in :attr:`obs_mode`."""
        mode = self.obs_mode
        if mode in ("pettingzoo", "rllib"):
            dtype = np.float32 if mode == "rllib" else np.int8
            mask = spaces.Box(0, 1, (N_ACTIONS,), dtype)
            name = "observation" if mode == "pettingzoo" else "observations"
            return spaces.Dict({name: ob.flat_space(), "action_mask": mask})
        if mode == "dict":
            return ob.dict_space()
        if mode == "compact":
            return ob.compact_space()
        make = {"flat": ob.flat_space, "onehot": ob.onehot_space, "counts": ob.counts_space}
        return make[mode](self.dtype)

    @property
    def dtype(self) -> type:
        """:attr:`obs_dtype` as a numpy type."""
        return np.uint8 if self.obs_dtype == "uint8" else np.float32

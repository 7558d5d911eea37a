"""PyramidEnv: the Gymnasium environment, a thin adapter over the engine."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import to_deal
from pyramid_env.engine.game import score
from pyramid_env.engine.moves import RECYCLE
from pyramid_env.engine.notation import format_board
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.env import observation as ob
from pyramid_env.env.actions import N_ACTIONS, decode
from pyramid_env.seeds import seed_set

OBS_MODES = ("dict", "flat", "onehot", "pettingzoo", "rllib")
REWARDS = ("cards", "win", "score")


def episode_over(s: st.State, ids: list[int], check_dead: bool) -> bool:
    """No legal move, or (``check_dead``) no removal and 000's dead-deal test holds."""
    # ids are sorted, removals after draw and recycle: a legal removal rules out a dead deal.
    return not ids or (check_dead and ids[-1] <= RECYCLE.id and st.hopeless(s))


def draw_deal(rng: np.random.Generator, deals: range | list[int] | None) -> int:
    """A deal number for ``reset`` without options: uniform over ``deals``, or 0..2**63-1."""
    if deals is None:
        return int(rng.integers(2**63))
    return deals[int(rng.integers(len(deals)))]


def step_reward(
    kind: str, s: st.State, moves: int, before_cards: int, before_score: float
) -> float:
    """The reward of the move just played (see the class docstring's Rewards)."""
    if kind == "cards":
        return (before_cards - s.pyramid_left) / 28
    if kind == "win":
        return float(st.is_won(s))
    return float(score(s, moves) - before_score)


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
    networks), ``"pettingzoo"`` (``{"observation", "action_mask"}``) or ``"rllib"``
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
    ``illegal_action`` (``"penalty"`` or ``"raise"``), ``illegal_reward``,
    ``terminate_on_dead``, ``render_mode`` (``"ansi"``; with the ``render`` extra ``"rgb_array"``,
    a picture usable with ``RecordVideo``, and ``"human"``, a window), and rule knobs as keywords
    (``passes=1``). ``reset(options={"deal": n})`` (or ``"code"``, ``"cards"``) plays a chosen
    deal; otherwise the deal number is drawn from the env's seeded generator, uniformly from
    ``deals`` when given (a seed set of ``pyramid_env.seeds``, e.g. ``"train"``, or numbers),
    else from 0..2**63-1.

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
        """See the class docstring's Arguments."""
        if isinstance(rules, dict):  # one config dict (RLlib's env_config): its keys as keywords
            self.__init__(**rules, **rule_knobs)
            return
        self.rules = get_rules(rules, **rule_knobs)
        for name, value, allowed in (
            ("observe_stock", observe_stock, ("seen", "full")),
            ("reward", reward, REWARDS),
            ("obs_mode", obs_mode, OBS_MODES),
            ("illegal_action", illegal_action, ("penalty", "raise")),
            ("render_mode", render_mode, (None, "ansi", "rgb_array", "human")),
        ):
            if value not in allowed:
                raise ValueError(f"{name}={value!r} is not one of {allowed}")
        self.observe_stock, self.reward_kind, self.obs_mode = observe_stock, reward, obs_mode
        if max_idle_passes is not None and (
            isinstance(max_idle_passes, bool) or not isinstance(max_idle_passes, int | np.integer)
            or max_idle_passes < 1
        ):
            raise ValueError(f"max_idle_passes={max_idle_passes!r} must be an int >= 1 or None")
        self.max_steps, self.illegal_action = max_steps, illegal_action
        # Idle passes end a loop only where nothing else does: unlimited passes.
        self.max_idle_passes = max_idle_passes if self.rules.passes is None else None
        self.illegal_reward, self.terminate_on_dead = illegal_reward, terminate_on_dead
        self.render_mode = render_mode
        # Deals drawn by reset(): a fixed seed set ("train") keeps training off val and test.
        self.deals = None if deals is None else seed_set(deals)
        # Where the rules end a dead deal themselves, legal_ids is already empty for one.
        self._check_dead = terminate_on_dead and not self.rules.dead_deal_ends_game
        if render_mode in ("rgb_array", "human"):  # fail now, with the fix, if Pillow is missing
            from pyramid_env.env import rendering  # noqa: F401
        self._window = None
        self.action_space = spaces.Discrete(N_ACTIONS)
        mask_space = spaces.Box(0, 1, (N_ACTIONS,), np.float32 if obs_mode == "rllib" else np.int8)
        self.observation_space = {
            "dict": ob.dict_space(),
            "flat": ob.flat_space(),
            "onehot": ob.onehot_space(),
            "pettingzoo": spaces.Dict({"observation": ob.flat_space(), "action_mask": mask_space}),
            "rllib": spaces.Dict({"observations": ob.flat_space(), "action_mask": mask_space}),
        }[obs_mode]
        self.state: st.State | None = None
        self._seed: int | None = None  # the last seed given to reset

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new game: ``options`` ``{"deal": n}``, ``{"code": c}`` or ``{"cards": t}``."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed = seed
        options = options or {}
        spec = next((options[k] for k in ("deal", "code", "cards") if k in options), None)
        if spec is None:
            spec = draw_deal(self.np_random, self.deals)
        d = to_deal(spec)
        self.state = s = st.State(d, self.rules)
        self._deal_number, self._code = d.number, d.code  # the code is costly: once a deal
        self._encoder = ob.Encoder(s, self.observe_stock == "full")
        self._seen = ob.face_up(s)
        self._steps = self._moves = 0
        self._idle_passes, self._removed_in_pass = 0, False
        self._update()
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play one action; an illegal one follows ``illegal_action``."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        s = self.state
        action = int(action)
        move = decode(action)  # ValueError names an out-of-range id
        before_cards = s.pyramid_left
        before_score = score(s, self._moves) if self.reward_kind == "score" else 0.0
        illegal = None
        if action in self._ids and not self._done:
            st.apply(s, move)  # the mask is the engine's legal moves: no second check
            self._moves += 1
            if action > RECYCLE.id:  # a removal
                self._idle_passes, self._removed_in_pass = 0, True
            elif action == RECYCLE.id:  # a pass ends
                self._idle_passes = 0 if self._removed_in_pass else self._idle_passes + 1
                self._removed_in_pass = False
            self._seen |= ob.face_up(s)
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
        reward = (
            self.illegal_reward
            if illegal
            else step_reward(self.reward_kind, s, self._moves, before_cards, before_score)
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

    # -- helpers -------------------------------------------------------------------------------
    def _update(self) -> None:
        """Legal moves and the end of the episode, once per position."""
        s = self.state
        ids = self._ids = st.legal_ids(s)
        mask = self._mask = np.zeros(N_ACTIONS, np.int8)
        self._done = episode_over(s, ids, self._check_dead)
        if self._done:
            mask[0] = 1  # never all false: see the class docstring
        else:
            mask[ids] = 1

    def _obs(self) -> Any:
        obs = self._encoder.encode(self.state, self._seen)
        if self.obs_mode == "dict":
            return obs
        if self.obs_mode == "onehot":
            return ob.onehot(obs)
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
            "score": score(s, self._moves),
            "won": st.is_won(s),
            "seed": self._seed,
            "action_mask": self._mask.copy(),  # fresh on every call, as Gymnasium asks
        }


__all__ = ["PyramidEnv"]

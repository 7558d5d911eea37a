"""Masked PPO over the compiled vector env: networks, sampling, GAE and the rollout loop.

The parts of ``experiments/ppo_fast.py`` (the ``train`` extra): :class:`Trainer` steps all
games of a :class:`~pyramid_env.env.PyramidVectorEnv` in one call, keeps the rollout in
preallocated tensors (observations as uint8), applies the action mask to the logits and runs
clipped PPO on it. Its networks are :mod:`pyramid_env.lab.ppo_nets`'s; :func:`export` turns
the one-hot MLP's actor into the numpy :class:`~pyramid_env.agents.MLPPolicy` the benchmark
plays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pyramid_env.agents import PolicyAgent
from pyramid_env.agents.cardnet import CardNetAgent
from pyramid_env.engine.errors import PyramidError
from pyramid_env.env import PyramidVectorEnv
from pyramid_env.env.actions import N_ACTIONS
from pyramid_env.lab.ppo_nets import (
    CARD_NETS,
    CARD_PLAYS,
    CardPolicy,
    FlatNet,
    Logits,
    build_net,
    cards,
    export,
    load_init,
)

NEG = -1e8  # an illegal action's logit: exp() of it minus the max is exactly 0 in float32
OBS_MODES = ("onehot", "flat", "counts", "compact")
PPO_KEYS = {
    "learning_rate": float,
    "anneal_lr": bool,
    "num_minibatches": int,
    "update_epochs": int,
    "gamma": float,
    "gae_lambda": float,
    "clip_coef": float,
    "ent_coef": float,
    "vf_coef": float,
    "max_grad_norm": float,
    "norm_adv": bool,
    "hidden": list,
    "embed": int,
    "arch": str,
    "temperature": float,
    "tie": float,
    "value_lr": float,
    "size": str,
    "layers": int,
    "card_net": str,
    "play": str,
}
ARCHS = ("mlp", "cards")
MLP_KEYS = {"hidden", "embed"}  # the settings of one network kind only
CARD_KEYS = {"size", "layers", "temperature", "tie", "value_lr", "card_net", "play"}


# -- config --------------------------------------------------------------------------------------
def check_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """Refuse a config this trainer cannot run, naming the field, its value and what is allowed.

    Checked once, before any env or network is built; returns ``cfg`` unchanged.
    """

    def bad(field: str, value: Any, allowed: str) -> PyramidError:
        return PyramidError(f"config {field}={value!r}: expected {allowed}")

    def integer(field: str, value: Any, low: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise bad(field, value, f"an int >= {low}")

    for key in ("rules", "observe_stock", "obs_mode", "reward", "seed", "total_timesteps"):
        if key not in cfg:
            raise PyramidError(f"config: {key!r} is missing")
    if cfg["obs_mode"] not in OBS_MODES:
        raise bad("obs_mode", cfg["obs_mode"], f"one of {OBS_MODES}")
    for key, low in (
        ("seed", 0),
        ("total_timesteps", 1),
        ("num_envs", 1),
        ("num_steps", 1),
        ("max_steps", 1),
        ("threads", 1),
    ):
        integer(key, cfg.get(key, 1), low)
    ppo = cfg.get("ppo", {})
    for key, value in ppo.items():
        kind = PPO_KEYS.get(key)
        if kind is None:
            raise bad(f"ppo.{key}", value, f"a key among {sorted(PPO_KEYS)}")
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float:
            ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
        if not ok:
            raise bad(
                f"ppo.{key}", value, f"a {kind.__name__}" + (" >= 0" if kind is float else "")
            )
    hidden = ppo.get("hidden", [64, 64])
    if not hidden or not all(
        isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in hidden
    ):
        raise bad("ppo.hidden", hidden, "a non-empty list of layer widths (ints > 0)")
    for key in ("num_minibatches", "update_epochs", "embed", "layers"):
        if key in ppo:
            integer(f"ppo.{key}", ppo[key], 1)
    arch = ppo.get("arch", "mlp")
    if arch not in ARCHS:
        raise bad("ppo.arch", arch, f"one of {ARCHS}")
    if arch == "cards" and cfg["obs_mode"] != "counts":
        raise bad("obs_mode", cfg["obs_mode"], "'counts' with ppo.arch='cards'")
    if ppo.get("size", "small") not in ("small", "base"):
        raise bad("ppo.size", ppo["size"], "'small' or 'base' (the card network's size)")
    if ppo.get("card_net", "rel") not in CARD_NETS:
        raise bad("ppo.card_net", ppo["card_net"], f"one of {CARD_NETS} (the network's inputs)")
    if ppo.get("play", "q") not in CARD_PLAYS:
        raise bad("ppo.play", ppo["play"], f"one of {CARD_PLAYS} (how the actor reads the heads)")
    if ppo.get("temperature", 1.0) <= 0:
        raise bad("ppo.temperature", ppo["temperature"], "a float > 0")
    for key in sorted(set(ppo) & (CARD_KEYS if arch == "mlp" else MLP_KEYS)):
        raise bad(f"ppo.{key}", ppo[key], f"no such setting with ppo.arch={arch!r}")
    return cfg


def make_env(cfg: dict[str, Any], num_envs: int | None = None, **extra: Any) -> PyramidVectorEnv:
    """The training games: ``num_envs`` of them, dealt from the ``train`` seed set only."""
    return PyramidVectorEnv(
        num_envs or cfg["num_envs"],
        rules=cfg["rules"],
        observe_stock=cfg["observe_stock"],
        obs_mode=cfg["obs_mode"],
        **({} if cfg["obs_mode"] == "compact" or cards(cfg) else {"obs_dtype": "uint8"}),
        reward=cfg["reward"],
        max_steps=cfg["max_steps"],
        deals="train",
        **extra,
    )


# -- the algorithm ---------------------------------------------------------------------------
def masked_sample(
    logits: torch.Tensor, mask: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Sample one legal action per row: actions, their log-probabilities, all log-probabilities.

    Gumbel-max over the legal entries only: an illegal action's score is ``-inf`` while every
    legal one is finite, so an illegal action is never the argmax. Illegal log-probabilities
    are about :data:`NEG` (probability exactly zero).
    """
    logp_all = masked_log_softmax(logits, mask)
    u = torch.rand(logits.shape).clamp_(1e-20, 1.0)
    scores = torch.where(mask, logp_all - torch.log(-torch.log(u)), -torch.inf)
    actions = scores.argmax(-1)
    return actions, logp_all.gather(1, actions[:, None]).squeeze(-1), logp_all


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities with illegal logits set to :data:`NEG` (probability exactly zero)."""
    return torch.log_softmax(torch.where(mask, logits, NEG), dim=-1)


def masked_entropy(logp_all: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The entropy of each row over its legal actions.

    ``exp`` is taken of the legal entries only: of ``NEG`` it is zero, but a slow path in CPU
    ``exp`` (underflow) made that ten times the cost of the rest.
    """
    legal = torch.where(mask, logp_all, 0.0)
    return -(torch.where(mask, legal.exp(), 0.0) * legal).sum(-1)


def gae(
    rewards: np.ndarray,
    values: np.ndarray,
    next_values: np.ndarray,
    terminated: np.ndarray,
    ended: np.ndarray,
    gamma: float,
    lam: float,
) -> np.ndarray:
    """Generalised advantage estimates over a rollout ``(T, N)``.

    ``next_values[t]`` is the value of the observation after step ``t`` (under next-step
    autoreset that is the final observation when the game ended, so a truncated game is
    bootstrapped from it); a terminated game's next value is 0, and no advantage flows back
    across a step that ended a game (``ended``: terminated or truncated).
    """
    adv = np.zeros_like(rewards, dtype=np.float32)
    last = np.zeros(rewards.shape[1], np.float32)
    for t in range(len(rewards) - 1, -1, -1):
        delta = rewards[t] + gamma * next_values[t] * (1.0 - terminated[t]) - values[t]
        last = delta + gamma * lam * (1.0 - ended[t]) * last
        adv[t] = last
    return adv


class Trainer:
    """The rollout buffers, the network, its optimiser and the env of one run."""

    def __init__(self, cfg: dict[str, Any], init: Path | None = None) -> None:
        """Build everything from ``cfg`` (checked here), seeded by ``cfg["seed"]``."""
        self.cfg = check_config(cfg)
        torch.set_num_threads(cfg.get("threads", 1))
        seed = cfg["seed"]
        torch.manual_seed(seed)
        self.rng = np.random.default_rng(seed)
        self.env = make_env(cfg)
        self.net = build_net(cfg, self.env)
        if init is not None:
            load_init(self.net, init)
        p = cfg.get("ppo", {})
        self.p = p
        self.lr = p.get("learning_rate", 2.5e-4)
        params: Any = self.net.parameters()
        if isinstance(self.net, CardPolicy):  # the fresh critic learns at its own rate
            critic = self.net.critic.parameters()
            params = [{"params": self.net.card.parameters()},
                      {"params": critic, "lr": p.get("value_lr", self.lr)}]  # fmt: skip
        self.opt = torch.optim.Adam(params, lr=self.lr, eps=1e-5)
        self.base_lrs = [g["lr"] for g in self.opt.param_groups]
        n, t = cfg["num_envs"], cfg["num_steps"]
        shape = (t, n, *self.env.single_observation_space.shape)
        self.obs = torch.zeros(shape, dtype=torch.float32 if cards(cfg) else torch.uint8)
        self.masks = torch.zeros((t, n, N_ACTIONS), dtype=torch.bool)
        self.actions = torch.zeros((t, n), dtype=torch.long)
        self.logps = torch.zeros((t, n))
        self.values = np.zeros((t + 1, n), np.float32)  # values[t + 1]: after step t
        self.rewards = np.zeros((t, n), np.float32)
        self.terminated = np.zeros((t, n), np.float32)
        self.ended = np.zeros((t, n), np.float32)
        self.valid = np.zeros((t, n), bool)  # False: an autoreset step (its action ignored)
        obs, _ = self.env.reset(seed=seed * 100_000)
        self.next_obs = torch.from_numpy(obs)
        self.next_valid = np.ones(n, bool)
        self.steps = 0
        self.episodes: list[tuple[float, float]] = []  # (won, return) of games ended
        self.returns = np.zeros(n)

    def collect(self) -> None:
        """Play ``num_steps`` steps of every game with the current policy."""
        env = self.env
        for t in range(self.cfg["num_steps"]):
            obs = self.next_obs
            mask = torch.from_numpy(env.action_masks())
            with torch.no_grad():
                logits, value = self.net(obs)
                action, logp, _ = masked_sample(logits, mask)
            self.obs[t] = obs
            self.masks[t] = mask
            self.actions[t] = action
            self.logps[t] = logp
            self.values[t] = value.numpy()
            self.valid[t] = self.next_valid
            o, r, term, trunc, info = env.step(action.numpy())
            self.next_obs = torch.from_numpy(o)
            self.rewards[t] = r
            self.terminated[t] = term
            end = term | trunc
            self.ended[t] = end
            self.next_valid = ~end
            self.returns += r
            if end.any():
                for i in np.flatnonzero(end):
                    self.episodes.append((float(info["won"][i]), float(self.returns[i])))
                self.returns[end] = 0.0
        self.steps += self.cfg["num_steps"] * self.cfg["num_envs"]
        with torch.no_grad():
            self.values[-1] = self.net(self.next_obs)[1].numpy()

    def update(self, frac_left: float) -> dict[str, float]:
        """Clipped PPO on the rollout: ``update_epochs`` passes over shuffled minibatches."""
        p = self.p
        if p.get("anneal_lr", False):
            for g, lr in zip(self.opt.param_groups, self.base_lrs, strict=True):
                g["lr"] = lr * frac_left
        adv = gae(
            self.rewards,
            self.values[:-1],
            self.values[1:],
            self.terminated,
            self.ended,
            p.get("gamma", 0.99),
            p.get("gae_lambda", 0.95),
        )
        ret = adv + self.values[:-1]
        keep = np.flatnonzero(self.valid.reshape(-1))
        b_obs = self.obs.flatten(0, 1)
        b_mask = self.masks.flatten(0, 1)
        b_act, b_logp = self.actions.reshape(-1), self.logps.reshape(-1)
        b_adv, b_ret = torch.from_numpy(adv.reshape(-1)), torch.from_numpy(ret.reshape(-1))
        clip, stats = p.get("clip_coef", 0.2), {}
        for _ in range(p.get("update_epochs", 4)):
            for mb in np.array_split(self.rng.permutation(keep), p.get("num_minibatches", 4)):
                idx = torch.from_numpy(mb)
                logits, value = self.net(b_obs[idx])
                logp_all = masked_log_softmax(logits, b_mask[idx])
                logp = logp_all.gather(1, b_act[idx, None]).squeeze(-1)
                entropy = masked_entropy(logp_all, b_mask[idx]).mean()
                a = b_adv[idx]
                if p.get("norm_adv", True):
                    a = (a - a.mean()) / (a.std() + 1e-8)
                ratio = (logp - b_logp[idx]).exp()
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - clip, 1 + clip)).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg - p.get("ent_coef", 0.01) * entropy + p.get("vf_coef", 0.5) * v_loss
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), p.get("max_grad_norm", 0.5))
                self.opt.step()
                stats = {
                    "policy_loss": pg.item(),
                    "value_loss": v_loss.item(),
                    "entropy": entropy.item(),
                    "clip_frac": ((ratio - 1).abs() > clip).float().mean().item(),
                }
        return stats

    def policy_agent(self, name: str, meta: dict[str, Any]) -> PolicyAgent:
        """The current policy as an agent: the numpy export, or the torch actor (compact)."""
        if isinstance(self.net, FlatNet):
            return PolicyAgent(export(self.net, **meta), name=name)
        if isinstance(self.net, CardPolicy):
            return CardNetAgent(self.net.export(**meta), name=name)
        return PolicyAgent(Logits(self.net).eval(), name=name, obs_mode="compact")

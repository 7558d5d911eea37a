"""Imitate the solver (behaviour cloning, optional DAgger), then fine-tune with MaskablePPO.

    python -m experiments.train_bc --config configs/bc_relaxed.toml
    python -m experiments.train_bc --demo-deals 200 --epochs 1 --dagger-rounds 0 --finetune 0

Imitation gives the policy a start PPO alone does not find (the method:
docs/experiments.md).
"""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from pyramid_env.agents import Agent, MLPPolicy, PolicyAgent, Turn, make_agent
from pyramid_env.agents.honest import all_seen
from pyramid_env.agents.phase_split import PhaseSplit
from pyramid_env.benchmark import machine
from pyramid_env.engine.moves import MOVES
from pyramid_env.env import PyramidEnv
from pyramid_env.env import observation as ob
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.config import read_config
from pyramid_env.seeds import SEED_SETS
from pyramid_env.solver import Verdict, solve

ROOT = Path(__file__).parents[1]
SOLVE_LIMIT = 5.0  # seconds per solve: a rare slow deal or position is skipped, not waited on


def load_config(argv: list[str] | None) -> tuple[dict[str, Any], argparse.Namespace]:
    """The TOML config with the command-line overrides applied."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", type=Path, default=ROOT / "configs" / "bc_relaxed.toml")
    p.add_argument("--demo-deals", type=int, help="override demos.deals")
    p.add_argument("--epochs", type=int, help="override bc.epochs")
    p.add_argument("--dagger-rounds", type=int, help="override dagger.rounds")
    p.add_argument("--dagger-deals", type=int, help="override dagger.deals")
    p.add_argument("--finetune", type=int, help="override finetune.total_timesteps")
    p.add_argument("--eval-seeds", help="override eval.seeds")
    p.add_argument("--seed", type=int, help="override seed")
    p.add_argument("--runs", type=Path, default=ROOT / "runs")
    p.add_argument("--ship", help="copy the BC policy to agents/trained/NAME.npz")
    p.add_argument("--ship-finetuned", help="copy the fine-tuned policy to agents/trained/")
    args = p.parse_args(argv)
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    for value, section, key in (
        (args.demo_deals, "demos", "deals"),
        (args.epochs, "bc", "epochs"),
        (args.dagger_rounds, "dagger", "rounds"),
        (args.dagger_deals, "dagger", "deals"),
        (args.finetune, "finetune", "total_timesteps"),
        (args.eval_seeds, "eval", "seeds"),
    ):
        if value is not None:
            cfg[section][key] = value
    if args.seed is not None:
        cfg["seed"] = args.seed
    return cfg, args


def make_env(cfg: dict[str, Any]) -> PyramidEnv:
    """The learner's view: the id's rules and stock knowledge, ``Dict`` observations.

    Samples are stored compactly (109 small integers and a packed mask each: a million of them
    fit in about 260 MB) and turned into the network's one-hot input a batch at a time.
    """
    import gymnasium as gym

    import pyramid_env  # noqa: F401  (registers the ids)

    if cfg["obs_mode"] != "onehot":
        raise ValueError("train_bc.py trains on obs_mode='onehot' (the PPO policy's input)")
    env = gym.make(cfg["env_id"], observe_stock=cfg["observe_stock"], obs_mode="dict")
    return env.unwrapped


def pack(obs: dict[str, np.ndarray]) -> np.ndarray:
    """A ``Dict`` observation as its 109 integers (the flat form's order)."""
    return np.concatenate([obs[name] for name, _, _ in ob.PIECES]).astype(np.int16)


def unpack_onehot(x: np.ndarray) -> np.ndarray:
    """Packed observations (``(B, 109)``) -> the one-hot network input (``(B, 905)``)."""
    pieces, at = {}, 0
    for name, size, _ in ob.PIECES:
        pieces[name] = x[:, at : at + size]
        at += size
    return ob.onehot(pieces)


class Data:
    """Growing arrays of (packed observation, packed mask, action)."""

    def __init__(self) -> None:
        """Empty."""
        self.obs: list[np.ndarray] = []
        self.mask: list[np.ndarray] = []
        self.action: list[int] = []

    def add(self, obs: dict[str, np.ndarray], mask: np.ndarray, action: int) -> None:
        """One sample."""
        self.obs.append(pack(obs))
        self.mask.append(np.packbits(mask))
        self.action.append(action)

    def __len__(self) -> int:
        """Samples held."""
        return len(self.action)


# -- demonstrations ----------------------------------------------------------------------------
def hidden_by_greedy(env: PyramidEnv, obs: Any, phase: str) -> tuple[Any, bool]:
    """Greedy plays until nothing is hidden (``phase="known"``; ``"all"``: nothing is played).

    Returns the observation then, and whether the game goes on.
    """
    if phase == "all":
        return obs, True
    if phase != "known":
        raise ValueError(f"demos.phase={phase!r}: 'all' or 'known'")
    greedy, rng = make_agent("greedy"), np.random.default_rng(0)
    while (legal := env.legal_actions()) and not all_seen(env.state, env.known_stock()):
        obs, _, terminated, truncated, _ = env.step(
            greedy.act(Turn(env.state, legal, env.known_stock(), obs), rng)
        )
        if terminated or truncated:
            return obs, False
    return obs, bool(legal)


def expert_demos(
    env: PyramidEnv, expert: Agent, deals: range, data: Data, phase: str = "all"
) -> None:
    """Add (observation, mask, expert action) along the expert's game on each winnable deal.

    With ``phase="known"``, from where greedy's first pass leaves it, if still winnable.
    """
    for n in tqdm(deals, desc="demos", unit="deal"):
        obs, _ = env.reset(options={"deal": n})
        obs, going = hidden_by_greedy(env, obs, phase)
        if not going:
            continue
        status = solve(env.state, check=False, time_limit=SOLVE_LIMIT).status
        if status is not Verdict.WIN:
            continue  # lost (or too slow to tell): no demonstration
        rng = np.random.default_rng(n)
        while legal := env.legal_actions():
            action = expert.act(Turn(env.state, legal, env.known_stock(), obs), rng)
            data.add(obs, env.action_masks(), action)
            obs, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break


def dagger_labels(
    env: PyramidEnv,
    policy: MLPPolicy,
    expert: Agent,
    deals: range,
    data: Data,
    max_steps: int = 400,
    phase: str = "all",
) -> None:
    """Add the learner's own states on ``deals``, labelled by the expert while winnable."""
    agent = PolicyAgent(policy)
    for n in tqdm(deals, desc="dagger", unit="deal"):
        obs, _ = env.reset(options={"deal": n})
        obs, going = hidden_by_greedy(env, obs, phase)
        if not going:
            continue
        rng = np.random.default_rng(n)
        for _ in range(max_steps):
            legal = env.legal_actions()
            if not legal:
                break
            if solve(env.state, check=False, time_limit=SOLVE_LIMIT).status is not Verdict.WIN:
                break  # lost (or too slow to tell): nothing to learn from the expert here
            turn = Turn(env.state, legal, env.known_stock(), obs)
            data.add(obs, env.action_masks(), expert.act(turn, rng))
            hot = ob.onehot(obs)
            action = agent.act(Turn(env.state, legal, env.known_stock(), hot), rng)
            obs, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break


# -- behaviour cloning -------------------------------------------------------------------------
def build_net(inputs: int, arch: list[int], outputs: int) -> nn.Sequential:
    """An MLP with tanh between layers (the shape of SB3's default policy network)."""
    layers: list[nn.Module] = []
    for a, b in zip([inputs, *arch[:-1]], arch, strict=True):
        layers += [nn.Linear(a, b), nn.Tanh()]
    layers.append(nn.Linear(arch[-1] if arch else inputs, outputs))
    return nn.Sequential(*layers)


def fit(net: nn.Sequential, data: Data, cfg: dict[str, Any], seed: int) -> list[float]:
    """Masked cross-entropy on the samples; returns the mean loss per epoch."""
    x = np.asarray(data.obs)
    m = np.unpackbits(np.asarray(data.mask), axis=1, count=len(MOVES)).astype(bool)
    y = torch.as_tensor(np.asarray(data.action, np.int64))
    opt = torch.optim.Adam(net.parameters(), lr=cfg["learning_rate"])
    rng = np.random.default_rng(seed)
    losses = []
    for _ in tqdm(range(cfg["epochs"]), desc="bc", unit="epoch"):
        order = rng.permutation(len(y))
        total = 0.0
        for i in range(0, len(y), cfg["batch_size"]):
            idx = order[i : i + cfg["batch_size"]]
            inputs = torch.as_tensor(unpack_onehot(x[idx]))
            logits = net(inputs).masked_fill(~torch.as_tensor(m[idx]), -1e9)
            loss = nn.functional.cross_entropy(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        losses.append(total / len(y))
    return losses


def export(net: nn.Sequential, meta: dict[str, Any]) -> MLPPolicy:
    """The torch MLP as a shipped :class:`MLPPolicy`."""
    layers = [
        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
        for m in net
        if isinstance(m, nn.Linear)
    ]
    return MLPPolicy(layers, "tanh", meta)


# -- main --------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> dict[str, Any]:
    cfg, args = load_config(argv)
    torch.set_num_threads(cfg.get("threads", 1))
    torch.manual_seed(cfg["seed"])
    run_name = f"{cfg['env_id']}__{cfg['exp_name']}__{cfg['seed']}__{int(time.time())}"
    run = args.runs / run_name
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(cfg, indent=2))
    start = time.time()
    env = make_env(cfg)
    train = SEED_SETS["train"]
    data = Data()
    expert = make_agent(cfg["demos"]["expert"])
    phase = cfg["demos"].get("phase", "all")
    expert_demos(env, expert, train[: cfg["demos"]["deals"]], data, phase)
    meta = {
        "algo": "BC",
        "expert": cfg["demos"]["expert"],
        "rules": env.rules.name,
        "env_id": cfg["env_id"],
        "obs_mode": cfg["obs_mode"],
        "observe_stock": cfg["observe_stock"],
        "seed": cfg["seed"],
        "run": run_name,
        "phase": phase,
    }
    net = build_net(ob.ONEHOT_SIZE, cfg["bc"]["net_arch"], len(MOVES))
    evals = []

    def round_(name: str) -> MLPPolicy:
        losses = fit(net, data, cfg["bc"], cfg["seed"])
        policy = export(net, meta | {"algo": name, "samples": len(data)})
        agent: Agent = PolicyAgent(policy, name=name)
        if phase == "known":  # measured where it plays: after greedy's first pass
            agent = PhaseSplit(make_agent("greedy"), agent, f"greedy, then {name}")
        s = evaluate(agent, env.rules, cfg["eval"]["seeds"], cfg["observe_stock"]).summary()
        evals.append(
            {
                "stage": name,
                "samples": len(data),
                "final_loss": losses[-1],
                "val_win_rate": s["win_rate"],
                "solver_normalised": s["solver_normalised"],
                "wall_s": round(time.time() - start),
            }
        )
        print(json.dumps(evals[-1]), flush=True)
        return policy

    policy = round_("BC")
    used = cfg["demos"]["deals"]
    for r in range(cfg["dagger"]["rounds"]):
        deals = train[used : used + cfg["dagger"]["deals"]]
        used += len(deals)
        dagger_labels(env, policy, expert, deals, data, phase=phase)
        policy = round_(f"BC+DAgger{r + 1}")
    policy.meta["wall_s"] = round(time.time() - start)
    policy.save(run / "bc.npz")
    metrics: dict[str, Any] = {"run": run_name, "evals": evals, "machine": machine()}
    if args.ship:
        from pyramid_env.lab.shipping import ship

        ship(run / "bc.npz", args.ship)
    steps = cfg["finetune"]["total_timesteps"]
    if steps > 0:
        from pyramid_env.lab.ppo import train  # the train extra's torch and sb3-contrib

        sets = [f"exp_name={cfg['exp_name']}_ppo"]
        sets += [f"eval.seeds={cfg['eval']['seeds']!r}"]  # the same val deals
        sets += cfg["finetune"].get("set", [])
        ppo_cfg = read_config(ROOT / cfg["finetune"]["config"], steps, cfg["seed"], sets)
        init = run / "bc.npz"
        metrics["finetune"] = train(ppo_cfg, run, init=init, ship=args.ship_finetuned)
    metrics["wall_s"] = round(time.time() - start)
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2))
    return metrics


if __name__ == "__main__":
    main()

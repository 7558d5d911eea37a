"""RLlib (new API stack) for Pyramid Solitaire: a masked PPO module, metrics, evaluation.

Needs the ``rllib`` extra; importing it imports RLlib, which is why :mod:`pyramid_env.agents`
does not. :class:`MaskedPPOTorchRLModule` is RLlib's default PPO module on the env's
``obs_mode="rllib"`` observations with illegal actions' logits masked in every forward pass
(RLlib's own masking example derives from a deprecated class and is no API);
:class:`PyramidMetricsCallback` adds ``win_rate`` and ``pyramid_left`` to RLlib's results;
:func:`load_rllib_agent` makes a checkpoint an agent ``evaluate`` scores like any other (the
training page shows all three).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from pyramid_env.agents.policy import PolicyAgent, rllib_module_logits
from pyramid_env.engine.errors import PyramidError

try:
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
        DefaultPPOTorchRLModule,
    )
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core import (
        COMPONENT_LEARNER,
        COMPONENT_LEARNER_GROUP,
        COMPONENT_RL_MODULE,
        DEFAULT_MODULE_ID,
    )
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModule
    from ray.rllib.utils.torch_utils import FLOAT_MIN
except ImportError as err:  # plain ``ray`` without RLlib's dependencies says "no module 'tree'"
    raise ImportError(
        f"pyramid_env.agents.rllib needs RLlib and torch: pip install 'pyramid-env[rllib]' ({err})"
    ) from err

META_FILE = "pyramid_env.json"
"""What ``experiments/train_rllib.py`` writes into an Algorithm checkpoint beside RLlib's files:
the rules, ``obs_mode`` and ``observe_stock`` the module was trained on, which the checkpoint
itself does not say in a readable form (they are inside the pickled config)."""


# -- the module --------------------------------------------------------------------------------
class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module with the env's action mask applied to its logits.

    The observation space must be the env's ``obs_mode="rllib"`` form, a ``Dict`` of
    ``"observations"`` (what the encoder reads) and ``"action_mask"`` (1 legal, 0 illegal). The
    networks are built for ``"observations"`` alone; the module keeps the whole ``Dict`` as its
    ``observation_space``, so a checkpoint restores it with the space the env gives.
    """

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        """Build the default PPO networks for ``observation_space["observations"]``.

        Raises:
            ValueError: the space is not a ``Dict`` with ``observations`` and ``action_mask``
                (the env was not made with ``obs_mode="rllib"``).
        """
        keys = set(getattr(observation_space, "spaces", {}))
        if not isinstance(observation_space, gym.spaces.Dict) or keys != {
            "observations",
            "action_mask",
        }:
            raise ValueError(
                f"MaskedPPOTorchRLModule needs the env's obs_mode='rllib' observations, a Dict "
                f"of 'observations' and 'action_mask'; got {observation_space}"
            )
        super().__init__(observation_space=observation_space["observations"], **kwargs)
        # The catalog has built the networks for the inner space; from here on the module
        # answers with the env's space (checkpoints store it, and RLlib checks it).
        self.observation_space = observation_space

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Inference and exploration: the default forward pass, then the mask."""
        mask, inner = _split(batch)
        return _masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """The training pass: the default one (with its embeddings for the value head), masked."""
        mask, inner = _split(batch)
        return _masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> Any:
        """Values for GAE and the loss; the value head reads ``"observations"`` only."""
        _, inner = _split(batch)
        return super().compute_values(inner, embeddings)


def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """``(action_mask, batch with OBS = the observations)``; the given batch is left as it is.

    A batch whose OBS is no longer a dict (already split) passes through with no mask.
    """
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict):
        return None, batch
    return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}


def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
    """Illegal actions' logits set to the float minimum (finite: no NaN in KL or entropy)."""
    if mask is not None:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask <= 0, FLOAT_MIN)
    return out


# -- training metrics --------------------------------------------------------------------------
class PyramidMetricsCallback(RLlibCallback):
    """Logs each finished training episode's win and pyramid cards left (means over 100).

    They appear in the results under ``env_runners`` as ``win_rate`` and ``pyramid_left``.
    The env's ``info`` says both at every step; truncated episodes count as not won.
    """

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        """Log the episode's last ``info``: ``won`` and ``pyramid_left``."""
        if metrics_logger is None:
            return
        infos = episode.get_infos()
        info = infos[-1] if infos else {}
        if "won" in info:
            metrics_logger.log_value("win_rate", float(info["won"]), reduce="mean", window=100)
            metrics_logger.log_value(
                "pyramid_left", float(info["pyramid_left"]), reduce="mean", window=100
            )


# -- evaluation --------------------------------------------------------------------------------
_RESTORED: dict[tuple[str, int], RLModule] = {}  # per process: (folder, mtime) -> module


def module_folder(checkpoint: str | Path, module_id: str = DEFAULT_MODULE_ID) -> Path:
    """The RLModule checkpoint inside ``checkpoint``.

    ``checkpoint`` may be an Algorithm checkpoint (``algo.save_to_path()``, where RLlib 2.x
    keeps the trained module at ``learner_group/learner/rl_module/<module_id>``), the run folder
    of ``experiments/train_rllib.py`` (its ``checkpoint/``), a MultiRLModule checkpoint
    (``.../rl_module``) or a single RLModule's own folder.

    Raises:
        PyramidError: no module checkpoint there (the message names the places looked at).
    """
    root = Path(checkpoint)
    in_algo = Path(COMPONENT_LEARNER_GROUP, COMPONENT_LEARNER, COMPONENT_RL_MODULE, module_id)
    places = [root / in_algo, root / "checkpoint" / in_algo, root / module_id, root]
    for place in places:
        if (place / "class_and_ctor_args.pkl").is_file() and any(
            place.glob(f"{RLModule.STATE_FILE_NAME}*")
        ):
            return place
    raise PyramidError(
        f"no RLlib RLModule checkpoint for module {module_id!r} in {str(root)!r}: looked in "
        + ", ".join(str(p) for p in places)
    )


def restore_module(checkpoint: str | Path, module_id: str = DEFAULT_MODULE_ID) -> RLModule:
    """The RLModule of ``checkpoint`` (see :func:`module_folder`), restored once per process.

    Restored modules are kept by folder and modification time, so the evaluations during a
    training run (which overwrite one checkpoint) each read the current weights.
    """
    folder = module_folder(checkpoint, module_id).resolve()
    stamp = max(p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file())
    key = (str(folder), stamp)
    if key not in _RESTORED:
        module = RLModule.from_checkpoint(folder)
        module.eval()
        _RESTORED.clear()  # one at a time: a training run's evaluations would pile up
        _RESTORED[key] = module
    return _RESTORED[key]


class RLModuleCheckpoint:
    """A policy held as an RLlib checkpoint path: logits for one observation.

    Pickles as the path (``evaluate(..., workers=2)`` sends the agent to worker processes),
    and restores the module on first use in each process. ``meta`` says what the module was
    trained on (``obs_mode``, ``observe_stock``, ...), which :class:`PolicyAgent` reads.
    """

    def __init__(
        self,
        checkpoint: str | Path,
        module_id: str = DEFAULT_MODULE_ID,
        meta: dict[str, Any] | None = None,
    ) -> None:
        """See the class docstring."""
        self.checkpoint = Path(checkpoint).resolve()
        self.module_id = module_id
        self.meta = dict(meta or {})
        self._module: RLModule | None = None

    @property
    def module(self) -> RLModule:
        """The restored module (restored now if this process has not yet)."""
        if self._module is None:
            self._module = restore_module(self.checkpoint, self.module_id)
        return self._module

    def __call__(self, obs: Any) -> np.ndarray:
        """The module's (masked) action logits for one observation as the env gives it."""
        return rllib_module_logits(self.module, obs)

    def __getstate__(self) -> dict[str, Any]:
        """The path, not the module: workers restore it themselves (see the class)."""
        return {**self.__dict__, "_module": None}

    def __repr__(self) -> str:
        """The path and module id: what identifies the policy."""
        return f"RLModuleCheckpoint({str(self.checkpoint)!r}, module_id={self.module_id!r})"


def load_rllib_agent(
    checkpoint: str | Path,
    name: str = "rllib",
    *,
    module_id: str = DEFAULT_MODULE_ID,
    observe_stock: str | None = None,
    deterministic: bool = True,
) -> PolicyAgent:
    """A trained RLlib module as an agent for :func:`pyramid_env.evaluate`.

    The module is restored here once (so a wrong path fails now, not in a worker process)
    and again in each worker process evaluation starts. It reads ``obs_mode="rllib"``
    observations; its own mask is applied and :class:`PolicyAgent` masks again.

    ``checkpoint``: an Algorithm checkpoint folder, a training run's, or a (Multi) RLModule's
    (:func:`module_folder`); ``module_id`` the module to play; ``observe_stock`` by default the
    checkpoint's ``pyramid_env.json`` (``experiments/train_rllib.py``), else ``evaluate``'s.
    Raises ``PyramidError`` when there is no module checkpoint under ``checkpoint``.
    """
    folder = module_folder(checkpoint, module_id)
    meta: dict[str, Any] = {}
    for place in [folder, *folder.parents[:4]]:  # the Algorithm checkpoint is 4 levels up
        if (place / META_FILE).is_file():
            meta = json.loads((place / META_FILE).read_text())
            break
    meta["obs_mode"] = "rllib"
    if observe_stock is not None:
        meta["observe_stock"] = observe_stock
    policy = RLModuleCheckpoint(folder, module_id, meta)
    _ = policy.module  # restore now: a bad checkpoint fails here
    return PolicyAgent(policy, name=name, deterministic=deterministic)


__all__ = [
    "META_FILE",
    "MaskedPPOTorchRLModule",
    "PyramidMetricsCallback",
    "RLModuleCheckpoint",
    "load_rllib_agent",
    "module_folder",
    "restore_module",
]

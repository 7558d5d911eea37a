"""Trained policies as agents, and the shipped (numpy) form of a trained policy.

:class:`PolicyAgent` wraps anything that gives action logits for an observation (an SB3 model,
an RLlib ``RLModule``, a torch module, any callable, an :class:`MLPPolicy`), always applies the
mask itself (an unmasked ``predict`` picks illegal actions) and samples from the evaluation's
seeded generator, so a stochastic policy gives the same episodes on every run.
:class:`MLPPolicy` is how learned agents ship: the policy network's weights as numpy arrays in
one ``.npz`` with its metadata, run without torch (a test checks it acts as the torch model).
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents.base import Turn
from pyramid_env.engine.errors import PyramidError

_ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


class MLPPolicy:
    """A multilayer perceptron held as numpy arrays: observation -> action logits.

    Args:
        layers: ``(W, b)`` per layer, ``W`` of shape ``(inputs, outputs)``; the activation
            follows every layer but the last.
        activation: ``"tanh"`` or ``"relu"``.
        meta: what the policy was trained on; ``obs_mode`` (default ``"onehot"``),
            ``observe_stock``, ``rules`` and anything else worth keeping (steps, wall time).
            ``value_head: true`` says the last output is a value head's logit (the network's
            estimate of the chance to win from the position), not an action's.
    """

    def __init__(
        self,
        layers: list[tuple[np.ndarray, np.ndarray]],
        activation: str = "tanh",
        meta: dict[str, Any] | None = None,
    ) -> None:
        """See the class docstring."""
        if activation not in _ACTIVATIONS:
            raise ValueError(f"activation {activation!r} is not one of {list(_ACTIVATIONS)}")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.activation = activation
        self.meta = dict(meta or {})

    def digest(self) -> str:
        """A short hash of the weights, activation and metadata: which network this is."""
        head = json.dumps([self.activation, self.meta], sort_keys=True, default=repr)
        h = hashlib.sha256(head.encode())
        for w, b in self.layers:
            h.update(w.tobytes())
            h.update(b.tobytes())
        return h.hexdigest()[:16]

    def forward(self, obs: np.ndarray) -> np.ndarray:
        """Every output for one observation (or a batch, leading axis): logits, then value."""
        x = np.asarray(obs, np.float32)
        act = _ACTIVATIONS[self.activation]
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = act(x)
        return x

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits for one observation (or a batch, leading axis)."""
        out = self.forward(obs)
        return out[..., :-1] if self.meta.get("value_head") else out

    def value(self, obs: np.ndarray) -> np.ndarray:
        """The value head's chance to win (a sigmoid of the last output), for a value head.

        Raises:
            PyramidError: the network has no value head.
        """
        if not self.meta.get("value_head"):
            raise PyramidError("this policy has no value head (meta value_head is not set)")
        return 1.0 / (1.0 + np.exp(-self.forward(obs)[..., -1]))

    @classmethod
    def from_sb3(cls, model: Any, **meta: Any) -> MLPPolicy:
        """The policy network of an SB3 actor-critic model (flat ``Box`` observations).

        Takes ``policy.mlp_extractor.policy_net`` followed by ``policy.action_net``; the
        features extractor must be a plain flatten (the default for ``Box`` observations).
        """
        import torch.nn as nn  # the train extra; loading a shipped file never needs it

        policy = model.policy
        if type(policy.features_extractor).__name__ != "FlattenExtractor":
            raise ValueError("only a FlattenExtractor policy (Box observations) can be exported")
        layers, activation = [], None
        for module in [*policy.mlp_extractor.policy_net, policy.action_net]:
            if isinstance(module, nn.Linear):
                w = module.weight.detach().cpu().numpy().T
                layers.append((w, module.bias.detach().cpu().numpy()))
            elif isinstance(module, nn.Tanh | nn.ReLU):
                name = "tanh" if isinstance(module, nn.Tanh) else "relu"
                if activation not in (None, name):
                    raise ValueError("mixed activations cannot be exported")
                activation = name
            else:
                raise ValueError(f"cannot export layer {module!r}")
        return cls(layers, activation or "tanh", meta)

    def save(self, path: str | Path, half: bool = False) -> None:
        """Write one ``.npz``: the weights, the activation and the metadata as JSON.

        ``half`` stores the weights as float16 (half the size; how shipped agents are kept in
        the repo, and evaluated: the shipped file is the agent). They load as float32.
        """
        dtype = np.float16 if half else np.float32
        arrays = {f"w{i}": w.astype(dtype) for i, (w, _) in enumerate(self.layers)}
        arrays |= {f"b{i}": b.astype(dtype) for i, (_, b) in enumerate(self.layers)}
        info = {"activation": self.activation, "layers": len(self.layers), "meta": self.meta}
        np.savez_compressed(path, info=np.array(json.dumps(info)), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        """Read a file written by :meth:`save`.

        Raises:
            PyramidError: the file cannot be read, or is not a policy of this form; the message
                names the file and what is wrong with it.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                info = json.loads(str(data["info"]))
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(info["layers"])]
            net = cls(layers, info["activation"], info["meta"])
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as err:
            raise PyramidError(
                f"agent file {str(path)!r} is not a policy saved by MLPPolicy.save "
                f"({type(err).__name__}: {err})"
            ) from err
        for i, ((w, b), (w_next, _)) in enumerate(zip(net.layers, net.layers[1:], strict=False)):
            if w.ndim != 2 or b.shape != (w.shape[1],) or w_next.shape[0] != w.shape[1]:
                raise PyramidError(
                    f"agent file {str(path)!r}: layer {i} has weights {w.shape} and bias "
                    f"{b.shape}, which do not chain into the next layer's {w_next.shape}"
                )
        return net


class PolicyAgent:
    """A trained policy as an agent; the mask is always applied.

    Args:
        policy: an SB3 / sb3-contrib model, an :class:`MLPPolicy`, an RLlib ``RLModule``, a
            torch module (called on a batch of one), or any callable mapping one observation,
            as the env gives it, to 327 logits (numpy, a list or a tensor).
        name: the name shown in tables.
        obs_mode: the observation form the policy was trained on (evaluation builds the env
            with it); an ``MLPPolicy`` brings its own, and its ``observe_stock``; an RLModule
            whose observation space is the ``"rllib"`` form defaults to it.
        deterministic: play the most likely legal action (default), else sample from the
            masked distribution with the evaluation's generator.
    """

    def __init__(
        self,
        policy: Any,
        name: str = "policy",
        obs_mode: str | None = None,
        deterministic: bool = True,
    ) -> None:
        """See the class docstring."""
        self.policy, self.name, self.deterministic = policy, name, deterministic
        meta = getattr(policy, "meta", None) or {}
        if obs_mode is None and _is_rllib_module(policy) and _reads_rllib_form(policy):
            obs_mode = "rllib"
        self.env_kwargs = {"obs_mode": obs_mode or meta.get("obs_mode", "onehot")}
        if "observe_stock" in meta:  # a policy trained seeing the stock order is played so
            self.env_kwargs["observe_stock"] = meta["observe_stock"]

    def logits(self, obs: Any) -> np.ndarray:
        """The policy's logits for one observation.

        From a torch policy they come as log-probabilities: equal up to a constant, so the
        same choices.
        """
        p = self.policy
        if isinstance(p, MLPPolicy):
            return p.logits(obs)
        if _is_rllib_module(p):  # before the torch check: a torch RLModule is an nn.Module
            return rllib_module_logits(p, obs)
        if _is_sb3(p) or _is_torch_module(p):
            import torch  # an SB3 model or a torch module: the train extra is there

            with torch.no_grad():
                if _is_sb3(p):
                    tensor, _ = p.policy.obs_to_tensor(obs)
                    out = p.policy.get_distribution(tensor).distribution.logits
                else:
                    out = p(_as_tensor_batch(obs, torch))
            return out.detach().cpu().numpy().reshape(-1)
        # Any other callable gets the observation as the env gives it (a dict for the dict,
        # pettingzoo and rllib forms) and may answer with numpy, a list or a torch tensor.
        out = p(obs)
        if hasattr(out, "detach"):
            out = out.detach().cpu().numpy()
        return np.asarray(out, np.float64).reshape(-1)

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The policy's choice among the legal actions."""
        logits = self.logits(turn.obs).astype(np.float64)
        masked = np.where(turn.mask, logits, -np.inf)
        if self.deterministic:
            return int(np.argmax(masked))
        p = np.exp(masked - masked.max())
        return int(rng.choice(len(p), p=p / p.sum()))


def _is_sb3(policy: Any) -> bool:
    """An SB3 / sb3-contrib model: it has a policy that gives a distribution."""
    return hasattr(policy, "policy") and hasattr(policy.policy, "get_distribution")


def _is_rllib_module(policy: Any) -> bool:
    """An RLlib ``RLModule`` (duck-typed, so ray is never imported here).

    It has ``forward_inference`` and a class of RLlib's among its bases (a user's module
    derives from one). A MultiRLModule counts too but needs per-module batches: pass
    ``multi[module_id]`` instead.
    """
    return callable(getattr(policy, "forward_inference", None)) and any(
        (c.__module__ or "").startswith("ray.rllib.") for c in type(policy).__mro__
    )


def _reads_rllib_form(module: Any) -> bool:
    """The module's observation space is the env's ``"rllib"`` form (a mask beside the obs)."""
    spaces = getattr(getattr(module, "observation_space", None), "spaces", None)
    return isinstance(spaces, dict) and set(spaces) == {"observations", "action_mask"}


def rllib_module_logits(module: Any, obs: Any) -> np.ndarray:
    """An RLlib ``RLModule``'s action logits for one observation as the env gives it.

    The observation goes in as RLlib's batch of one, ``{"obs": tensors}`` (a dict of tensors
    for dict observations), through ``forward_inference`` (deterministic, no exploration); the
    logits are its ``action_dist_inputs`` (a masking module has masked them already). The
    column names are RLlib's ``Columns.OBS`` and ``Columns.ACTION_DIST_INPUTS``, spelled out so
    that this module does not import ray.
    """
    import torch  # an RLModule was built: torch is there

    with torch.no_grad():
        out = module.forward_inference({"obs": _as_tensor_batch(obs, torch)})
    return out["action_dist_inputs"].detach().cpu().numpy().reshape(-1)


def _is_torch_module(policy: Any) -> bool:
    """A torch ``nn.Module`` (checked without importing torch when it is not loaded)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(policy, torch.nn.Module)


def _as_tensor_batch(obs: Any, torch: Any) -> Any:
    """One observation as a batch of one: a float tensor, or a dict of them (dict forms)."""
    if isinstance(obs, dict):
        return {k: _as_tensor_batch(v, torch) for k, v in obs.items()}
    return torch.as_tensor(np.asarray(obs, np.float32))[None]


__all__ = ["MLPPolicy", "PolicyAgent"]

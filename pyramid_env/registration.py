"""Gymnasium ids, registered as soon as both ``pyramid_env`` and ``gymnasium`` are imported.

``PyramidSolitaire-v0`` plays the default rules (``relaxed``), ``PyramidSolitaire-<Preset>-v0``
each preset; ``gym.make_vec`` builds ``PyramidVectorEnv`` unless ``vectorization_mode`` asks
for ``"sync"`` or ``"async"``. Entry points are strings, so registering imports nothing of the
env. Registration waits for gymnasium (a one-shot post-import hook,
:func:`register_when_gymnasium_loads`) so that importing the engine loads neither gymnasium nor
numpy; why: docs/layout.md.
"""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

from pyramid_env.engine.rules import PRESETS

ENTRY_POINT = "pyramid_env.env.pyramid_env:PyramidEnv"
VECTOR_ENTRY_POINT = "pyramid_env.env.vector:PyramidVectorEnv"


def env_id(preset: str) -> str:
    """``'two-card'`` -> ``'PyramidSolitaire-TwoCard-v0'`` (``msc`` -> ``MSC``)."""
    name = "MSC" if preset == "msc" else "".join(p.capitalize() for p in preset.split("-"))
    return f"PyramidSolitaire-{name}-v0"


ENV_IDS: dict[str, str] = {"PyramidSolitaire-v0": "relaxed"} | {env_id(p): p for p in PRESETS}


def register_envs() -> None:
    """Register every id (idempotent: ids already registered are left alone).

    Imports gymnasium, so the package calls it only once gymnasium is loaded (see the module
    docstring); calling it directly is always safe.
    """
    import gymnasium as gym  # here, not at the top: see the module docstring

    for env, preset in ENV_IDS.items():
        if env not in gym.registry:
            gym.register(
                id=env,
                entry_point=ENTRY_POINT,
                vector_entry_point=VECTOR_ENTRY_POINT,
                kwargs={"rules": preset},
            )


class _RegisterOnGymnasiumImport:
    """A ``sys.meta_path`` finder that runs :func:`register_envs` right after gymnasium loads.

    It finds nothing itself: for the module ``gymnasium`` only, it asks the other finders for the
    real spec and wraps that spec's loader in :class:`_RegisteringLoader`; every other import
    passes it by. Gymnasium is thus found, created and executed exactly as without the hook, and
    the ids are registered before ``import gymnasium`` returns, so ``gym.make`` sees them
    whichever of the two packages was imported first. The hook removes itself once gymnasium has
    loaded; if gymnasium is not installed it finds nothing and the import fails as usual.
    """

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """Gymnasium's own spec with a registering loader; ``None`` for every other module."""
        if fullname != "gymnasium":
            return None
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _RegisteringLoader(spec.loader, self)
                return spec
        return None  # not installed: the import raises ModuleNotFoundError as usual

    def remove(self) -> None:
        """Take the hook off ``sys.meta_path`` (its work is done)."""
        if self in sys.meta_path:
            sys.meta_path.remove(self)


class _RegisteringLoader:
    """Gymnasium's loader, plus :func:`register_envs` once the module has executed."""

    def __init__(self, loader: Any, hook: _RegisterOnGymnasiumImport) -> None:
        self._loader = loader
        self._hook = hook

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        """Whatever gymnasium's own loader creates."""
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        """Execute gymnasium with its own loader, then register the ids.

        The module gets its real loader back first (``__loader__`` and ``__spec__.loader``), so
        nothing that inspects gymnasium later (resources, source, pickling) sees this wrapper.
        If gymnasium fails to execute, the error propagates and the hook stays for a retry; an
        error in :func:`register_envs` propagates too rather than leave the ids silently missing.
        """
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        self._hook.remove()
        register_envs()

    def __getattr__(self, name: str) -> Any:
        """Anything else a loader offers (``get_source``, ``is_package``, ...) is the real one's."""
        return getattr(self._loader, name)


def register_when_gymnasium_loads() -> None:
    """Register the ids the moment gymnasium is imported (idempotent: one hook at most).

    Called by ``pyramid_env/__init__.py`` when gymnasium is not loaded yet; installs
    :class:`_RegisterOnGymnasiumImport` at the front of ``sys.meta_path``, ahead of the finder
    that would load gymnasium. Never imports gymnasium.
    """
    if not any(type(f).__name__ == _RegisterOnGymnasiumImport.__name__ for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnGymnasiumImport())

"""Packaging: every data file the package reads at run time is declared, so a wheel ships it."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_shipped_agents_labels_and_the_replay_page_are_package_data():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    dirs = {"pyramid_env": ROOT / "pyramid_env"} | {
        pkg: ROOT / path for pkg, path in cfg["package-dir"].items()
    }
    for pkg, folder, sub in (
        ("pyramid_env", dirs["pyramid_env"], "labels"),
        ("pyramid_env.agents", dirs["pyramid_env.agents"], "trained"),
        ("pyramid_env.replay", dirs["pyramid_env"] / "replay", "static"),
    ):
        files = sorted((folder / sub).iterdir())
        assert files, f"{folder / sub} is empty"
        assert pkg in cfg["packages"]
        for f in files:
            rel = f"{sub}/{f.name}"
            assert any(fnmatch.fnmatch(rel, g) for g in cfg["package-data"][pkg]), rel


def test_every_package_under_pyramid_env_is_listed():
    # setuptools' packages list is explicit: a new subpackage left out would not be installed
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])  # fmt: skip
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "pyramid_env").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert "pyramid_env.lab" in found and not found - listed, sorted(found - listed)

"""Packaging: every data file the package reads at run time is declared, so a wheel ships it."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_shipped_agents_and_labels_are_package_data():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    dirs = {"pyramid_env": ROOT / "pyramid_env"} | {
        pkg: ROOT / path for pkg, path in cfg["package-dir"].items()
    }
    for pkg, folder, sub in (
        ("pyramid_env", dirs["pyramid_env"], "labels"),
        ("pyramid_env.agents", dirs["pyramid_env.agents"], "trained"),
    ):
        files = sorted((folder / sub).iterdir())
        assert files, f"{folder / sub} is empty"
        assert pkg in cfg["packages"]
        for f in files:
            rel = f"{sub}/{f.name}"
            assert any(fnmatch.fnmatch(rel, g) for g in cfg["package-data"][pkg]), rel

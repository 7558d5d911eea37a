"""bench_env's yardstick: the numpy vector env it times is reachable from any clone."""

import shutil
import subprocess
from pathlib import Path

import pytest

from experiments import bench_env


def test_the_default_numpy_ref_is_the_numpy_vector_env(tmp_path):
    # A tag may not come with a clone; the default is a commit of main's history, so a fresh
    # clone still times the env the compiled one replaced (a missing ref would skip it).
    root = Path(bench_env.__file__).resolve().parents[1]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    shallow = subprocess.run(["git", "-C", str(root), "rev-parse", "--is-shallow-repository"],
                             capture_output=True, text=True).stdout.strip()  # fmt: skip
    if shallow == "true":
        pytest.skip("a shallow clone lacks the history")
    assert bench_env.extract(bench_env.NUMPY_REF, str(tmp_path))
    batch = tmp_path / "pyramid_env" / "env" / "batch.py"
    assert batch.exists() and "class Batch" in batch.read_text()
    assert not bench_env.extract("no-such-ref", str(tmp_path / "none"))

"""At run time: ``import pyramid_env.engine`` loads nothing outside the standard library (not
gymnasium, not numpy), works with neither installed, and the Gymnasium ids are registered
whichever of ``pyramid_env`` and ``gymnasium`` is imported first.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.import_rules import ROOT


def _run(code: str, *flags: str) -> str:
    done = subprocess.run(
        [sys.executable, *flags, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_the_engine_loads_nothing_outside_the_standard_library():
    out = _run(
        """
        import sys
        before = set(sys.modules)
        import pyramid_env.engine
        import pyramid_env
        new = sorted(set(sys.modules) - before)
        assert "gymnasium" not in sys.modules and "numpy" not in sys.modules, new
        top = {m.partition(".")[0] for m in new}
        assert top <= set(sys.stdlib_module_names) | {"pyramid_env"}, top
        ours = [m for m in new if m.partition(".")[0] == "pyramid_env"]
        allowed = ("pyramid_env", "pyramid_env.registration", "pyramid_env.engine")
        assert all(m in allowed or m.startswith("pyramid_env.engine.") for m in ours), ours
        assert pyramid_env.ENV_IDS["PyramidSolitaire-v0"] == "relaxed"
        print("ok")
        """
    )
    assert out.split() == ["ok"]


def test_the_engine_works_with_neither_gymnasium_nor_numpy_installed():
    # -S leaves site-packages (gymnasium, numpy) off sys.path; the repo is the working folder.
    out = _run(
        """
        import importlib.util
        if importlib.util.find_spec("gymnasium") or importlib.util.find_spec("numpy"):
            print("skip")
            raise SystemExit
        import pyramid_env
        from pyramid_env.engine import Game, legal_moves
        game = Game(0)
        assert legal_moves(game.state) is not None
        assert "PyramidSolitaire-MSC-v0" in pyramid_env.ENV_IDS
        try:
            import gymnasium  # the registration hook must not hide a missing gymnasium
        except ModuleNotFoundError as e:
            assert e.name == "gymnasium", e
        else:
            raise AssertionError("gymnasium imported")
        print("ok")
        """,
        "-S",
    )
    if out.split() == ["skip"]:
        pytest.skip("gymnasium or numpy is importable without site-packages")
    assert out.split() == ["ok"]


CHECK_REGISTERED = """
import sys
assert set(pyramid_env.ENV_IDS) <= set(gym.registry)
env = gym.make("PyramidSolitaire-v0")
env.reset(seed=0)
assert env.unwrapped.rules.name == "relaxed"
assert gym.make("PyramidSolitaire-MSC-v0").unwrapped.rules.name == "msc"
vec = gym.make_vec("PyramidSolitaire-v0", num_envs=2)
vec.reset(seed=0)
assert type(vec).__name__ == "PyramidVectorEnv", type(vec)
# the hook is gone and gymnasium keeps its own loader
assert not any(type(f).__module__ == "pyramid_env.registration" for f in sys.meta_path)
assert gym.__spec__.loader is gym.__loader__
assert type(gym.__loader__).__module__ != "pyramid_env.registration"
print("ok")
"""


@pytest.mark.parametrize(
    "imports",
    [
        "import pyramid_env\nimport gymnasium as gym",
        "import gymnasium as gym\nimport pyramid_env",
        "import pyramid_env\nfrom gymnasium.envs.registration import registry\n"
        "import gymnasium as gym",
        "import gymnasium as gym\ngym.make('pyramid_env:PyramidSolitaire-TwoCard-v0')\n"
        "import pyramid_env",
    ],
    ids=["pyramid_env-first", "gymnasium-first", "gymnasium-submodule", "colon-id"],
)
def test_ids_are_registered_whichever_is_imported_first(imports):
    assert _run(imports + "\n" + CHECK_REGISTERED).split() == ["ok"]

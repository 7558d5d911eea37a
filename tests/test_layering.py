"""Import direction on the real tree (the rules: tests/import_rules.py), and the checking
functions catching every spelling of what they must.
"""

from __future__ import annotations

import pytest

from tests.import_rules import (
    ENGINE,
    ENV_NAMES,
    FORBIDDEN_IN_ENGINE,
    PKG,
    ROOT,
    SOLVER_NAMES,
    engine_violations,
    forbidden_imports,
    import_circles,
    import_graph,
    modules_under,
    package_of,
    package_sources,
    sys_path_edits,
)

# -- the rules on the real tree ----------------------------------------------------------------


def test_no_import_circle_among_the_package_modules():
    sources = package_sources()
    assert "pyramid_env.engine.state" in sources and "pyramid_env.agents.base" in sources
    graph = import_graph(sources)
    assert "pyramid_env.engine.board_text" in graph["pyramid_env.engine.state"]  # edges are found
    circles = import_circles(graph)
    assert not circles, "modules that import one another (a circle):\n" + "\n".join(
        " <-> ".join(c) for c in circles
    )


def test_engine_imports_only_the_standard_library_and_itself():
    paths = modules_under(ENGINE)
    assert ENGINE / "__init__.py" in paths and len(paths) > 5
    bad = [
        f"{p.relative_to(ROOT)} {v}"
        for p in paths
        for v in engine_violations(p.read_text(), package_of(p))
    ]
    assert not bad, "the engine imports outside the standard library and itself:\n" + "\n".join(bad)


def test_env_and_solver_never_import_each_other():
    env = modules_under(PKG / "env")
    solver = modules_under(PKG / "solver.py", PKG / "_kernel.py", PKG / "solver")
    assert env and solver
    bad = [
        f"{p.relative_to(ROOT)} {v}"
        for paths, forbidden in ((env, SOLVER_NAMES), (solver, ENV_NAMES))
        for p in paths
        for v in forbidden_imports(p.read_text(), package_of(p), forbidden)
    ]
    assert not bad, "the env and the solver import each other:\n" + "\n".join(bad)


def test_the_package_never_imports_the_experiments():
    paths = [*modules_under(PKG), *modules_under(ROOT / "agents")]
    bad = [
        f"{p.relative_to(ROOT)} {v}"
        for p in paths
        for v in forbidden_imports(p.read_text(), package_of(p), ("experiments",))
    ]
    assert len(paths) > 50 and not bad, "the package imports experiments:\n" + "\n".join(bad)


def test_experiment_scripts_import_the_package_never_each_other_nor_edit_sys_path():
    scripts = modules_under(ROOT / "experiments")
    assert len(scripts) > 20
    bad = []
    for p in scripts:
        source = p.read_text()
        bad += [f"{p.name} {v}" for v in forbidden_imports(source, "experiments", ("experiments",))]
        bad += [f"{p.name} {v}" for v in sys_path_edits(source)]
    assert not bad, "experiment scripts that import one another or edit sys.path:\n" + "\n".join(
        bad
    )


def test_sys_path_edits_are_found_in_code_not_in_strings():
    assert sys_path_edits("import sys\nsys.path.insert(0, '.')") == ["line 2: sys.path"]
    assert sys_path_edits("from sys import path\npath.append('.')") == ["line 1: sys.path"]
    assert sys_path_edits("code = 'import sys; sys.path.insert(0, tree)'") == []


# -- the checking functions catch what they must -----------------------------------------------


def _spellings(module: str, package: str = "pyramid_env.engine") -> list[str]:
    """Ways a module of ours can be imported from ``package`` (absolute, from-, relative)."""
    head, _, tail = module.rpartition(".")
    ways = [f"import {module}", f"import {module} as m", f"from {module} import thing"]
    ways += [f"importlib.import_module({module!r})", f"__import__({module!r})"]
    if head:
        ways.append(f"from {head} import {tail}")
    if module.startswith("pyramid_env.") and package.startswith("pyramid_env."):
        up = "." * package.count(".") + "."  # from package back up to pyramid_env
        rest = module.removeprefix("pyramid_env.")
        ways += [
            f"from {up}{rest} import thing",
            f"importlib.import_module('{up}{rest}', package={package!r})",
        ]
        if "." not in rest:
            ways.append(f"from {up} import {rest}")
    return ways


@pytest.mark.parametrize("module", FORBIDDEN_IN_ENGINE)
def test_every_listed_forbidden_import_is_caught(module):
    for way in _spellings(module):
        assert engine_violations(way), way


@pytest.mark.parametrize(
    "source",
    [
        "import pyramid_env.agents",
        "from pyramid_env.agents import PolicyAgent",
        "from pyramid_env import agents",
        "from .. import agents",
        "from ..agents.base import Agent",
        "import pyramid_env._kernel",
        "from pyramid_env import _kernel",
        "from pyramid_env._kernel import solve",
        "from .. import _kernel",
        "from .._kernel import solve",
        "import pyramid_env.evaluation",
        "from pyramid_env import evaluation",
        "from pyramid_env.evaluation import evaluate",
        "from .. import evaluation",
        "from ..evaluation import evaluate",
        "from pyramid_env import evaluate",  # the package's lazy attribute loads evaluation
        "from pyramid_env import *",
        "def f():\n    from pyramid_env.evaluation import evaluate\n    return evaluate",
        "try:\n    import numba\nexcept ImportError:\n    numba = None",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import numpy as np",
        "import importlib\nimportlib.import_module('pyramid_env.agents')",
        "from importlib import import_module\nimport_module('.._kernel', __package__)",
        "import importlib\nimportlib.import_module('..evaluation', package='pyramid_env.engine')",
        "import importlib\nname = 'numpy'\nimportlib.import_module(name)",  # cannot be checked
        "from ... import anything",  # out of the top-level package
        "import pyramid_env.engineering",  # a sibling whose name merely starts like ours
        "import agents_extra",
        "from pyramid_env.solver.kernel import COVER",
    ],
)
def test_engine_checker_catches_imports_out_of_the_engine(source):
    assert engine_violations(source), source


@pytest.mark.parametrize(
    "source",
    [
        "from __future__ import annotations",
        "import math, operator, re\nfrom collections.abc import Mapping\nimport numbers",
        "import importlib\nimportlib.import_module('json')",
        "from pyramid_env.engine.rules import PRESETS",
        "from pyramid_env.engine import state as st",
        "import pyramid_env.engine.cards as cards",
        "from pyramid_env import engine",
        "from . import rules\nfrom .cards import RANK\nfrom .. import engine",
        "from pyramid_env.engine import *",
    ],
)
def test_engine_checker_allows_the_standard_library_and_the_engine(source):
    assert engine_violations(source) == [], source


@pytest.mark.parametrize(
    ("source", "package", "forbidden"),
    [
        ("from pyramid_env.solver import solve", "pyramid_env.env", SOLVER_NAMES),
        ("from pyramid_env.solver.kernel import a_star", "pyramid_env.env", SOLVER_NAMES),
        ("from pyramid_env import solver", "pyramid_env.env", SOLVER_NAMES),
        ("from pyramid_env import _kernel", "pyramid_env.env", SOLVER_NAMES),
        ("from ..solver import solve", "pyramid_env.env", SOLVER_NAMES),
        ("from .. import _kernel", "pyramid_env.env", SOLVER_NAMES),
        ("import pyramid_env.env.batch", "pyramid_env", ENV_NAMES),  # old solver.py
        ("from .env import PyramidEnv", "pyramid_env", ENV_NAMES),  # old solver.py
        ("from pyramid_env.env.observation import encode", "pyramid_env.solver", ENV_NAMES),
        ("from ..env import PyramidEnv", "pyramid_env.solver", ENV_NAMES),  # solver/kernel.py
        ("from pyramid_env import env", "pyramid_env.solver", ENV_NAMES),
    ],
)
def test_env_solver_checker_catches_both_directions(source, package, forbidden):
    assert forbidden_imports(source, package, forbidden), source


def test_env_solver_checker_matches_whole_segments():
    assert not forbidden_imports("import pyramid_env.environment", "pyramid_env", ENV_NAMES)
    assert not forbidden_imports("from pyramid_env.solvers import x", "pyramid_env", SOLVER_NAMES)
    assert not forbidden_imports("from pyramid_env.engine import state", "pyramid_env", ENV_NAMES)


STATE_BEFORE = """
from pyramid_env.engine.cards import CARD_NAMES

class State:
    def __str__(self):
        from pyramid_env.engine.notation import format_board
        return format_board(self)
"""
NOTATION_BEFORE = "from pyramid_env.engine.state import STOCK_SIZE, State, face_up\n"


def test_circle_check_catches_a_lazy_import_circle():
    # the engine's last circle (state's __str__ imported notation lazily, notation imports state)
    sources = {
        "pyramid_env.engine": ("from pyramid_env.engine.notation import format_board", True),
        "pyramid_env.engine.cards": ("", False),
        "pyramid_env.engine.state": (STATE_BEFORE, False),
        "pyramid_env.engine.notation": (NOTATION_BEFORE, False),
    }
    circle = ["pyramid_env.engine.notation", "pyramid_env.engine.state"]
    assert import_circles(import_graph(sources)) == [circle]
    # a longer one through a package's __init__, in relative spelling
    sources["pyramid_env.engine.cards"] = ("from . import Game", False)
    sources["pyramid_env.engine.notation"] = ("from .cards import CARD_NAMES", False)
    assert import_circles(import_graph(sources)) == [
        ["pyramid_env.engine", "pyramid_env.engine.cards", "pyramid_env.engine.notation"]
    ]


CHECKED_BEFORE = """
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyramid_env.engine.state import State

def why_illegal(s: State, move) -> str | None: ...
"""


@pytest.mark.parametrize(
    "guard",
    ["if TYPE_CHECKING:", "if typing.TYPE_CHECKING:", "if DEBUG:"],
)
def test_circle_check_counts_type_only_imports(guard):
    # the engine's last circle (checked named State for its annotations, state imports checked)
    sources = {
        "pyramid_env.engine.state": ("from pyramid_env.engine.checked import why_illegal", False),
        "pyramid_env.engine.checked": (CHECKED_BEFORE.replace("if TYPE_CHECKING:", guard), False),
    }
    circle = ["pyramid_env.engine.checked", "pyramid_env.engine.state"]
    assert import_circles(import_graph(sources)) == [circle]
    sources["pyramid_env.engine.checked"] = ("from typing import Protocol", False)
    assert import_circles(import_graph(sources)) == []

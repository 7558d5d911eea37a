"""Import direction, stated exactly.

- The engine (every module under ``pyramid_env/engine/``) imports the standard library
  (``sys.stdlib_module_names``) and ``pyramid_env.engine`` / ``pyramid_env.engine.*`` only. It is
  an allow-list: anything else fails, named or not (gymnasium, numpy, torch, numba, the package
  ``pyramid_env`` itself, its env, solver, kernel, evaluation, agents, the repo's ``agents`` and
  ``experiments``). Relative imports are resolved before checking, so ``from .. import _kernel``
  counts as ``pyramid_env._kernel``; ``importlib.import_module`` / ``__import__`` with a literal
  name count as imports, and with a computed name fail (they cannot be checked).
- The env and the solver never import each other, in either layout of the solver (today
  ``pyramid_env/solver.py`` + ``pyramid_env/_kernel.py``; the package ``pyramid_env/solver/``
  with ``kernel.py``).
- No import circle among the package's modules (``pyramid_env/**`` and ``agents/**``, which
  installs as ``pyramid_env.agents``): every import that can run counts, a lazy one inside a
  function too; only a ``if TYPE_CHECKING:`` block is left out, as it never runs. A module's
  parent packages are not edges (Python runs them first whatever the module imports).
- At run time, ``import pyramid_env.engine`` loads neither gymnasium nor numpy (nor anything
  outside the standard library), works with neither installed, and the Gymnasium ids are
  registered whichever of ``pyramid_env`` and ``gymnasium`` is imported first.

Names are compared by whole dotted segments (``pyramid_env.env`` matches ``pyramid_env.env`` and
``pyramid_env.env.batch``, never ``pyramid_env.environment``), not by string prefix.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PKG = ROOT / "pyramid_env"
ENGINE = PKG / "engine"
STDLIB = sys.stdlib_module_names

BEYOND = "<relative import beyond the top-level package>"
DYNAMIC = "<import of a computed name>"

# Imports an engine module must never make (the allow-list below rejects them all, and more;
# test_every_listed_forbidden_import_is_caught checks that it does, in every spelling).
FORBIDDEN_IN_ENGINE = (
    "gymnasium",
    "numpy",
    "torch",
    "numba",
    "pyramid_env",
    "pyramid_env.registration",
    "pyramid_env.env",
    "pyramid_env.env.batch",
    "pyramid_env.solver",
    "pyramid_env.solver.kernel",
    "pyramid_env._kernel",
    "pyramid_env.evaluation",
    "pyramid_env.agents",
    "agents",
    "experiments",
)

# The solver, in either layout: the old modules and the new package's.
SOLVER_NAMES = ("pyramid_env.solver", "pyramid_env._kernel")
ENV_NAMES = ("pyramid_env.env",)


# -- the checking functions --------------------------------------------------------------------


def is_within(name: str, modules: tuple[str, ...]) -> bool:
    """``name`` is one of ``modules`` or inside one (whole dotted segments, not a prefix)."""
    return any(name == m or name.startswith(m + ".") for m in modules)


def package_of(path: Path) -> str:
    """The package a module file's relative imports resolve against (its folder, dotted)."""
    return ".".join(path.parent.relative_to(ROOT).parts)


def _resolve(module: str | None, level: int, package: str) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".")
    if level - 1 >= len(parts):
        return BEYOND
    base = ".".join(parts[: len(parts) - (level - 1)])
    return f"{base}.{module}" if module else base


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _called(func: ast.expr) -> str:
    """``f(...)`` -> ``'f'``, ``a.b.f(...)`` -> ``'f'``; ``''`` for anything else."""
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def imported_names(source: str, package: str) -> list[tuple[int, str]]:
    """Every ``(line, absolute dotted name)`` the source imports, relative ones resolved.

    ``from X import y`` yields ``X.y`` (``y`` may be a submodule: ``from pyramid_env import
    _kernel`` is ``pyramid_env._kernel``); ``import_module("X")`` / ``__import__("X")`` yield
    ``X``; with a non-literal name they yield :data:`DYNAMIC`.
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, package)
            found += [
                (node.lineno, base if base == BEYOND else f"{base}.{a.name}") for a in node.names
            ]
        elif isinstance(node, ast.Call) and _called(node.func) in ("import_module", "__import__"):
            name = _literal(node.args[0]) if node.args else None
            if name is None:
                found.append((node.lineno, DYNAMIC))
                continue
            anchor = package  # import_module(".x", package) resolves against its package
            if _called(node.func) == "import_module":
                given = [k.value for k in node.keywords if k.arg == "package"] + node.args[1:2]
                anchor = (_literal(given[0]) if given else None) or package
            level = len(name) - len(name.lstrip("."))
            found.append((node.lineno, _resolve(name[level:] or None, level, anchor)))
    return found


def engine_may_import(name: str) -> bool:
    """The engine's allow-list: the standard library and the engine itself, nothing else."""
    top = name.partition(".")[0]
    return (top in STDLIB and top != "pyramid_env") or is_within(name, ("pyramid_env.engine",))


def engine_violations(source: str, package: str = "pyramid_env.engine") -> list[str]:
    """The imports in one engine module's source that the allow-list rejects."""
    return [
        f"line {n}: {name}"
        for n, name in imported_names(source, package)
        if not engine_may_import(name)
    ]


def forbidden_imports(source: str, package: str, forbidden: tuple[str, ...]) -> list[str]:
    """The imports in the source of ``forbidden`` modules (or of anything inside them)."""
    return [
        f"line {n}: {name}"
        for n, name in imported_names(source, package)
        if is_within(name, forbidden)
    ]


def modules_under(*places: Path) -> list[Path]:
    """The ``.py`` files among ``places`` (files, or folders searched recursively)."""
    found: list[Path] = []
    for place in places:
        if place.is_file():
            found.append(place)
        elif place.is_dir():
            found += sorted(place.rglob("*.py"))
    return found


def _is_type_checking(node: ast.stmt) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:`` (a block that never runs)."""
    test = node.test if isinstance(node, ast.If) else None
    return _called(test) == "TYPE_CHECKING" if isinstance(test, ast.Name | ast.Attribute) else False


def runtime_imports(source: str, package: str) -> list[str]:
    """The names :func:`imported_names` finds, without those under ``if TYPE_CHECKING:``."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(_is_type_checking(s) for s in block):
                block[:] = [s for s in block if not _is_type_checking(s)] or [ast.Pass()]
    return [name for _, name in imported_names(ast.unparse(tree), package)]


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module -> the modules among ``sources`` it imports at run time.

    Args:
        sources: dotted module name -> (its source, whether it is a package's ``__init__``).

    An imported name counts as the longest of its dotted prefixes that is one of the modules
    (``from pyramid_env.engine.state import State`` -> ``pyramid_env.engine.state``; ``from
    pyramid_env.engine import Game`` -> ``pyramid_env.engine``); names outside are dropped.
    """
    graph: dict[str, set[str]] = {}
    for module, (source, is_package) in sources.items():
        package = module if is_package else module.rpartition(".")[0]
        edges = set()
        for name in runtime_imports(source, package):
            parts = name.split(".")
            hits = [".".join(parts[:k]) for k in range(len(parts), 0, -1)]
            target = next((h for h in hits if h in sources), None)
            if target is not None and target != module:
                edges.add(target)
        graph[module] = edges
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another, round a circle (Tarjan's components).

    Each group is sorted, and so is the list; a module alone is no circle (self-imports are
    not edges in :func:`import_graph`).
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(circles)


def package_sources() -> dict[str, tuple[str, bool]]:
    """The package's modules as installed: ``pyramid_env/**``, and ``agents/**`` as its agents."""
    found: dict[str, tuple[str, bool]] = {}
    for folder, dotted in ((PKG, ("pyramid_env",)), (ROOT / "agents", ("pyramid_env", "agents"))):
        for path in sorted(folder.rglob("*.py")):
            parts = (*dotted, *path.relative_to(folder).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path.read_text(), is_package)
    return found


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


@pytest.mark.parametrize(
    "guard",
    ["if TYPE_CHECKING:", "if typing.TYPE_CHECKING:"],
)
def test_circle_check_leaves_out_type_only_imports(guard):
    notation = f"{guard}\n    from pyramid_env.engine.state import State\nx = 1\n"
    sources = {
        "pyramid_env.engine.state": ("from pyramid_env.engine.notation import x", False),
        "pyramid_env.engine.notation": (notation, False),
    }
    assert import_circles(import_graph(sources)) == []
    sources["pyramid_env.engine.notation"] = (notation.replace(guard, "if DEBUG:"), False)
    assert import_circles(import_graph(sources)) != []


# -- at run time -------------------------------------------------------------------------------


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

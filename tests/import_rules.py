"""Import direction, stated exactly: the checking functions the layering tests apply.

- The engine (every module under ``pyramid_env/engine/``) imports the standard library
  (``sys.stdlib_module_names``) and ``pyramid_env.engine`` / ``pyramid_env.engine.*`` only. It is
  an allow-list: anything else fails, named or not (gymnasium, numpy, torch, numba, the package
  ``pyramid_env`` itself, its env, solver, kernel, evaluation, agents, the repo's ``agents`` and
  ``experiments``). Relative imports are resolved before checking, so ``from .. import _kernel``
  counts as ``pyramid_env._kernel``; ``importlib.import_module`` / ``__import__`` with a literal
  name count as imports, and with a computed name fail (they cannot be checked).
- The env and the solver never import each other, in either layout of the solver (the modules
  ``pyramid_env/solver.py`` + ``pyramid_env/_kernel.py``, or the package ``pyramid_env/solver/``
  with ``kernel.py``).
- No import circle among the package's modules (``pyramid_env/**`` and ``agents/**``, which
  installs as ``pyramid_env.agents``): every import counts, a lazy one inside a function and
  one under ``if TYPE_CHECKING:`` too. The latter never runs, but a reader (and a type
  checker) still follows it, so two modules naming each other are one piece, not two layers.
  A module's parent packages are not edges (Python runs them first whatever the module
  imports).

Names are compared by whole dotted segments (``pyramid_env.env`` matches ``pyramid_env.env`` and
``pyramid_env.env.batch``, never ``pyramid_env.environment``), not by string prefix.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

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


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module -> the modules among ``sources`` it imports, for types only or at run time.

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
        for _, name in imported_names(source, package):
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


def sys_path_edits(source: str) -> list[str]:
    """Where code (not a string holding code) touches ``sys.path`` or imports it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ) or (
            isinstance(node, ast.ImportFrom)
            and node.module == "sys"
            and any(a.name == "path" for a in node.names)
        ):
            found.append(f"line {node.lineno}: sys.path")
    return found

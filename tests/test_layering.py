"""Import direction: the engine is pure rules (no gymnasium, numpy, env, solver or agents).

(Importing the package itself registers the Gymnasium ids, so it does load gymnasium; the
engine modules never import it.)
"""

import ast
from pathlib import Path

ENGINE = Path(__file__).parents[1] / "pyramid_env" / "engine"
FORBIDDEN = (
    "gymnasium",
    "numpy",
    "torch",
    "pyramid_env.env",
    "pyramid_env.solver",
    "agents",
    "experiments",
)


def test_engine_imports_only_the_standard_library_and_itself():
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"


def test_env_and_solver_never_import_each_other():
    root = Path(__file__).parents[1] / "pyramid_env"
    pairs = [(root / "env", "pyramid_env.solver"), (root / "solver.py", "pyramid_env.env")]
    for where, forbidden in pairs:
        for path in [where] if where.is_file() else where.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom):
                    assert not (node.module or "").startswith(forbidden), (path.name, node.module)
                elif isinstance(node, ast.Import):
                    assert not any(a.name.startswith(forbidden) for a in node.names), path.name

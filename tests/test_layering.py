"""Import direction: the engine is pure rules (no gymnasium, numpy, env, solver or agents)."""

import ast
import subprocess
import sys
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


def test_importing_the_engine_loads_no_heavy_module():
    code = (
        "import sys, pyramid_env.engine; "
        "print(sorted(m for m in ('numpy', 'gymnasium') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

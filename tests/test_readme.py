"""Every code block of the README and of the docs pages (``docs/*.md``) runs as written.

Python blocks are executed one by one, each in a fresh namespace and an empty working folder (a
reader copies one block at a time); a line ``expression  # -> value`` is checked: the value's
``repr`` must match (``...`` stands for any text; a remark may follow after two spaces), so
results quoted in the pages cannot go stale. Console blocks are run through the CLI and their
output compared with the page's, where ``...`` stands for any text (timings). Text blocks are not
run. The README's one bash block holds the two commands of a fresh machine, which install
packages into new venvs: ``.ci/run`` runs them as written, and a test here checks it runs exactly
them; the main job's table must be the README's.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pyramid_env.cli import main

ROOT = Path(__file__).parents[1]
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.M | re.S)  # indented in lists too
README = ROOT / "README.md"
PAGES = (README, *sorted((ROOT / "docs").glob("*.md")))  # Sphinx directives are ::: fenced


def blocks(kind: str, pages: tuple[Path, ...] = PAGES) -> list[tuple[str, str]]:
    """``(where, code)`` of every block fenced as ``kind`` in ``pages``; where: ``page.md:line``."""
    found = []
    for page in pages:
        text = page.read_text()
        name = page.relative_to(ROOT)
        found += [
            (f"{name}:{text.count(chr(10), 0, m.start()) + 1}", textwrap.dedent(m.group(3)))
            for m in FENCE.finditer(text)
            if m.group(2) == kind
        ]
    return found


def kinds_of(page: Path) -> list[str]:
    return [m.group(2) for m in FENCE.finditer(page.read_text())]


def test_every_block_says_what_it_is():
    assert len(PAGES) >= 10, "the docs pages are missing"
    for page in PAGES:
        kinds = kinds_of(page)
        assert set(kinds) <= {"python", "console", "bash", "text"}, (page, kinds)
        if page != README:
            assert "bash" not in kinds, f"{page}: the README's two commands are its only bash block"
    readme = kinds_of(README)
    assert readme.count("bash") == 1 and "python" in readme and "console" in readme
    every = [k for page in PAGES for k in kinds_of(page)]
    assert every.count("python") >= 10 and every.count("console") >= 3


def test_the_readme_is_a_front_door():
    lines = README.read_text().splitlines()
    assert len(lines) <= 200, f"README: {len(lines)} lines; the details go to docs/"
    for page in PAGES[1:]:
        assert f"(docs/{page.name})" in README.read_text(), f"README does not link {page.name}"


CHECKED = re.compile(r"^(\s*)(.+?)\s+# -> (.+)$")


def with_checks(code: str) -> tuple[str, int]:
    """``code`` with every ``expr  # -> value`` line turned into a check; and how many."""
    out, n = [], 0
    for x in code.splitlines():
        m = CHECKED.match(x)
        if m:
            indent, expr, want = m.groups()
            want = want.split("  (")[0]  # a remark may follow the value after two spaces
            x = f"{indent}__check__(({expr}), {want!r})"
            n += 1
        out.append(x)
    return "\n".join(out), n


def check(value: object, want: str) -> None:
    """``repr(value)`` matches ``want``, ``...`` matching any text."""
    pattern = re.escape(want).replace(r"\.\.\.", ".*")
    assert re.fullmatch(pattern, repr(value)), f"got {value!r}, the page says {want}"


def test_checked_lines_are_checked():
    code, n = with_checks("x = 2\nx + 1  # -> 3\n'abc'  # -> 'a...'")
    assert n == 2
    exec(code, {"__check__": check})
    with pytest.raises(AssertionError, match="the page says 4"):
        exec(with_checks("1 + 2  # -> 4")[0], {"__check__": check})


def params(kind: str) -> list:
    """The blocks of ``kind`` as test parameters, named by page and line."""
    return [pytest.param(where, code, id=where) for where, code in blocks(kind)]


@pytest.mark.parametrize(("line", "code"), params("python"))
def test_python_block_runs(line, code, tmp_path, monkeypatch):
    for module in re.findall(
        r"^(?:from|import) (sb3_contrib|stable_baselines3|torch|ray\.rllib)\b", code, re.M
    ):
        extra = "rllib" if module.startswith("ray") else "train"
        pytest.importorskip(module, reason=f"{line} needs the {extra} extra")
    monkeypatch.chdir(tmp_path)
    code, _ = with_checks(code)
    namespace = {"__name__": "__readme__", "__check__": check}
    try:
        exec(compile(code, line, "exec"), namespace)
    finally:
        ray = sys.modules.get("ray")
        if ray is not None and ray.is_initialized():  # a block started Ray: end it here
            ray.shutdown()


def expected_pattern(expected: str) -> re.Pattern:
    """A page's output as a regex: ``...`` matches anything, trailing blanks ignored."""
    lines = [re.escape(x.rstrip()).replace(r"\.\.\.", ".*") for x in expected.splitlines()]
    return re.compile("\n".join(lines) + r"\n?\Z", re.S)


@pytest.mark.parametrize(("line", "code"), params("console"))
def test_console_block_prints_what_the_page_shows(line, code, capsys):
    commands = re.split(r"^\$ ", code, flags=re.M)[1:]
    assert commands, f"{line}: a console block starts with '$ '"
    for command in commands:
        first, _, expected = command.partition("\n")
        argv = shlex.split(first)
        assert argv[0] == "pyramid-env", first
        assert main(argv[1:]) == 0
        out = capsys.readouterr().out
        out = "\n".join(x.rstrip() for x in out.splitlines())
        assert expected_pattern(expected).match(out), f"{line}:\n{out}"


def readme_commands():
    """``.ci/readme_commands.py`` as a module (CI runs it with the system Python)."""
    path = ROOT / ".ci" / "readme_commands.py"
    spec = importlib.util.spec_from_file_location("readme_commands", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ci_runs_the_readme_commands_as_written():
    (block,) = [code for _, code in blocks("bash", (README,))]
    commands = [x for x in block.splitlines() if x and not x.startswith("#")]
    assert len(commands) == 2 and "pyramid-env benchmark" in commands[0]
    assert "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "readme_commands" in ci  # .ci/run takes the commands from the README, not a copy
    assert readme_commands().two_commands(ROOT / "README.md") == commands


def test_ci_builds_the_docs_with_warnings_as_errors():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "-m sphinx -W --keep-going -b html docs docs/_build/html" in ci
    assert 'pip install --quiet -e ".[docs]"' in ci
    assert re.search(
        r'^docs = \[.*"sphinx.*"furo.*"myst-parser', (ROOT / "pyproject.toml").read_text(), re.M
    )


def table_rows(markdown: str) -> list[list[str]]:
    """The benchmark table's agent rows, without the CPU and time columns (they vary)."""
    rows = [x.split(" | ") for x in markdown.splitlines() if x.startswith("| ") and " s |" in x]
    return [r[:-2] for r in rows]


def test_the_docs_show_the_readme_table_itself():
    """docs/results.md includes the README's checked table between its markers, not a copy."""
    readme = README.read_text()
    start, end = "<!-- relaxed-table:start -->", "<!-- relaxed-table:end -->"
    table = readme[readme.index(start) : readme.index(end)]
    assert readme.index("## The benchmark") < readme.index(start)
    assert len(table_rows(table)) >= 10 and table_rows(table)[-1][0] == "| solver"
    results = (ROOT / "docs" / "results.md").read_text()
    assert f":start-after: {start}\n:end-before: {end}" in results


def test_the_main_job_runs_as_written_and_gives_the_readme_table(tmp_path):
    # A fresh copy of the repo (the files git tracks, as a clone has them) and a fresh venv: the
    # README's first command, exactly as written. The table must equal the README's.
    (command, _) = readme_commands().two_commands(ROOT / "README.md")
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    repo = tmp_path / "clone"
    for name in files:
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, repo / name)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    start = time.monotonic()
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    seconds = time.monotonic() - start
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    table = (repo / "results" / "benchmark" / "relaxed" / "benchmark.md").read_text()
    ran = table_rows(table)
    assert len(ran) >= 10 and ran[-1][0] == "| solver"
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## The benchmark") :]
    assert ran == table_rows(section)[: len(ran)], f"the README's relaxed table is stale:\n{table}"
    print(f"main job: {seconds:.0f} s, install included")

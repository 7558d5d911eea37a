"""Tables as the experiment scripts write them: Markdown for the docs and run logs, CSV files."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A header line, the ``|---|`` line, then one line per row (each cell as ``str`` gives it)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)


def write_csv(path: str | Path, rows: Sequence[dict[str, Any]]) -> None:
    """``rows`` (dicts with the same keys) to a CSV file, the first row's keys as its header."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)

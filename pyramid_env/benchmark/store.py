"""The benchmark's output folder as a store: every file written whole, every file checked when read.

The folder holds ``run.json`` (the settings), ``benchmark.csv`` (one row per agent),
``episodes.csv`` (one row per agent and deal) and ``digests.json`` (per agent, a SHA-256 of its
rows: the agents done), so a stopped run resumes (``--resume``) to the same files an
uninterrupted one writes, and rows changed or cut since make their agent play again.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
from pathlib import Path
from typing import Any

from pyramid_env.agents.catalogue import KINDS
from pyramid_env.engine.deal import MAX_DEAL
from pyramid_env.engine.errors import PyramidError, describe, shorten
from pyramid_env.engine.files import read_json, read_text, write_atomic
from pyramid_env.env.pyramid_env import MAX_STEPS
from pyramid_env.evaluation import Episode, Report

FILES = ("benchmark.md", "benchmark.csv", "episodes.csv", "benchmark.png")
RUN_FILE = "run.json"  # the settings of the run that wrote the folder, for --resume
DIGESTS = "digests.json"  # per agent, the SHA-256 of its rows: the agents done (see Store)
SUMMARY_FIELDS = (
    "agent", "kind", "rules", "observe_stock", "seeds", "deals", "wins", "win_rate", "ci_low",
    "ci_high", "solver_winnable", "solver_unknown", "solver_normalised", "norm_ci_low",
    "norm_ci_high", "cards_left", "moves", "moves_won", "truncated", "cpu_per_deal", "seconds",
)  # fmt: skip
EPISODE_FIELDS = (
    "agent", "deal", "won", "pyramid_left", "moves", "steps", "truncated", "solver_won", "cpu",
)  # fmt: skip
VIEWS = ("seen", "full", "clairvoyant")


def _cell(value: Any) -> str:
    """A value as ``csv`` writes it (None as empty): what a stored cell must equal."""
    return "" if value is None else str(value)


def _csv_text(fields: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(fields), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def _read_csv(path: Path, fields: tuple[str, ...]) -> list[dict[str, str]]:
    """The rows of one of the folder's CSV files; none if it is missing.

    A last line without its newline (a write cut short by a full disk, in an older version)
    is dropped, and so is any row of the wrong width: their agents play again.

    Raises:
        PyramidError: a file that is not this CSV (another header, not text), named.
    """
    if not path.exists():
        return []
    try:
        text = read_text(path, path.name)
    except (OSError, PyramidError) as err:
        raise PyramidError(f"--resume: {err}; remove it, or run without --resume") from err
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]  # the cut line
    reader = csv.DictReader(io.StringIO(text))
    try:
        rows = list(reader)
    except csv.Error as err:
        raise PyramidError(f"--resume: {path} is not a CSV file ({err})") from err
    if rows and tuple(reader.fieldnames or ()) != fields:
        raise PyramidError(
            f"--resume: {path} has the columns {shorten(reader.fieldnames, 200)}, not those "
            f"a benchmark writes ({', '.join(fields)}); remove it, or run without --resume"
        )
    return [r for r in rows if None not in r and None not in r.values()]


_INT_TEXT = re.compile(r"-?[0-9]{1,20}")


def _int_cell(text: str, low: int, high: int) -> int:
    if not _INT_TEXT.fullmatch(text) or not low <= int(text) <= high:
        raise ValueError(f"{shorten(text)} is not a whole number in {low}..{high:,}")
    return int(text)


def _seconds_cell(text: str, name: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} {shorten(text)} is not a number of seconds")
    return value


def _bool_cell(text: str, none: bool = False) -> bool | None:
    if none and text == "":
        return None
    if text not in ("True", "False"):
        raise ValueError(f"{shorten(text)} is not True or False")
    return text == "True"


def _episode(row: dict[str, str], deals: set[int]) -> Episode:
    """One row of episodes.csv, checked: each cell of its type, in its range, a deal of the run.

    Raises:
        ValueError: the first cell that is not.
    """
    deal = _int_cell(row["deal"], 0, MAX_DEAL)
    if deal not in deals:
        raise ValueError(f"deal {deal} is not one of the run's")
    cpu = _seconds_cell(row["cpu"], "cpu")
    return Episode(
        deal,
        bool(_bool_cell(row["won"])),
        _int_cell(row["pyramid_left"], 0, 28),
        _int_cell(row["moves"], 0, MAX_STEPS),
        _int_cell(row["steps"], 0, MAX_STEPS),
        bool(_bool_cell(row["truncated"])),
        _bool_cell(row["solver_won"], none=True),
        cpu=cpu,
    )


def _finished(
    label: str,
    row: dict[str, str],
    episodes: list[dict[str, str]],
    settings: dict[str, Any],
    deals: list[int],
    view: str | None,
    kind: str | None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An agent's stored summary and episodes, checked against each other and the run.

    Every episode must be a deal of the run, once, all of them, each cell in range; the summary
    must be what those episodes give (so a cell changed by hand, ``pyramid_left`` 99 or
    ``abc``, is caught), with the run's rules and deals, the agent's kind and stock view.

    Returns:
        The summary row and the episode rows, as a fresh run writes them.

    Raises:
        ValueError: what does not hold, for the warning.
    """
    eps = [_episode(e, set(deals)) for e in episodes]
    if [e.deal for e in eps] != deals:
        raise ValueError(f"{len(eps)} episodes of the run's {len(deals)} deals")
    seconds = _seconds_cell(row["seconds"], "seconds")
    if row["kind"] not in KINDS or (kind is not None and row["kind"] != kind):
        raise ValueError(f"kind {shorten(row['kind'])} is not {kind or 'a kind'}")
    if row["observe_stock"] not in VIEWS or (view is not None and row["observe_stock"] != view):
        raise ValueError(f"observe_stock {shorten(row['observe_stock'])} is not {view}")
    report = Report(label, settings["rules"], row["observe_stock"], settings["seeds"], eps)
    summary = {"agent": label, "kind": row["kind"]} | report.summary() | {"seconds": seconds}
    for key in SUMMARY_FIELDS:
        if key != "seconds" and _cell(summary[key]) != row[key]:
            raise ValueError(f"{key} is {shorten(row[key])}, its episodes give {summary[key]}")
    return summary, [{"agent": label} | e for e in report.rows()]


class Store:
    """The output folder: the agents' rows, kept in memory and written whole after each agent.

    ``episodes.csv``, ``benchmark.csv`` (one row per agent) and ``digests.json`` are rewritten
    in that order, each atomically (a temporary file, then a rename). ``digests.json`` holds,
    per agent, a SHA-256 of its rows in the two CSV files: an agent is done once it is listed
    there with the digest of rows that are in the files, so a row changed or cut since (by
    hand, a full disk, a stop between two writes) makes its agent play again. Rows are kept in
    table order, so a resumed run writes the same files as an uninterrupted one. (A folder of
    an older version, without digests, has its rows checked against each other alone.)
    """

    def __init__(self, out: Path) -> None:
        """An empty store of ``out``: :meth:`load` reads what a stopped run left."""
        self.out = out
        self.summaries: dict[str, dict[str, Any]] = {}
        self.episodes: dict[str, list[dict[str, Any]]] = {}

    def load(
        self,
        settings: dict[str, Any],
        deals: list[int],
        expect: dict[str, tuple[str | None, str | None]],
    ) -> list[str]:
        """Take the agents a stopped run finished, each checked; return why others play again.

        Args:
            settings: the run's settings (rules, seeds).
            deals: the run's deals, in order.
            expect: per label of this run, its stock view and kind (an earlier run's agent
                not in this run is kept as it was written, checked against its episodes).
        """
        rows = _read_csv(self.out / "benchmark.csv", SUMMARY_FIELDS)
        episodes: dict[str, list[dict[str, str]]] = {}
        for e in _read_csv(self.out / "episodes.csv", EPISODE_FIELDS):
            episodes.setdefault(e["agent"], []).append(e)
        digests, why = self._digests()
        for row in rows:
            label = row["agent"]
            if label in self.summaries:
                why.append(f"{label}: two rows in benchmark.csv")
                continue
            view, kind = expect.get(label, (None, None))
            try:
                if digests is not None and digests.get(label) != _digest(
                    row, episodes.get(label, [])
                ):
                    raise ValueError(f"not the rows {DIGESTS} lists (changed, cut or unfinished)")
                summary, eps = _finished(
                    label, row, episodes.get(label, []), settings, deals, view, kind
                )
            except (ValueError, KeyError) as err:
                why.append(f"{label}: {shorten(str(err), 200)}")
                continue
            self.summaries[label], self.episodes[label] = summary, eps
        return why

    def _digests(self) -> tuple[dict[str, str] | None, list[str]]:
        """``digests.json`` as a dict, ``None`` if absent (an older folder); and any warning.

        A damaged file lists no agent: every agent plays again (time lost, no result).
        """
        path = self.out / DIGESTS
        if not path.exists():
            return None, []
        try:
            data = read_json(path, "digests")
        except (OSError, PyramidError) as err:
            return {}, [f"every agent: {shorten(str(err), 200)}"]
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            return {}, [f"every agent: {path} is not a dict of digests"]
        return data, []

    def add(self, label: str, summary: dict[str, Any], episodes: list[dict[str, Any]]) -> None:
        """Record an agent's rows (:meth:`write` puts them in the files)."""
        self.summaries[label], self.episodes[label] = summary, episodes

    def order(self, labels: list[str]) -> list[str]:
        """Every agent held, in table order: ``labels`` (this run's), by kind.

        An agent an earlier run finished that is not among ``labels`` keeps its place: after
        the agent its row followed, or first.
        """
        order = [a for a in labels if a in self.summaries]
        before = None
        for a in self.summaries:  # in the order the files held them, then as added
            if a not in order:
                order.insert(order.index(before) + 1 if before in order else 0, a)
            before = a
        kinds = list(KINDS)
        return sorted(order, key=lambda a: kinds.index(self.summaries[a]["kind"]))

    def write(self, labels: list[str]) -> None:
        """Both CSV files, whole, in table order; episodes first (see the class docstring)."""
        order = self.order(labels)
        eps = [e for a in order for e in self.episodes[a]]
        write_atomic(self.out / "episodes.csv", _csv_text(EPISODE_FIELDS, eps))
        rows = [self.summaries[a] for a in order]
        write_atomic(self.out / "benchmark.csv", _csv_text(SUMMARY_FIELDS, rows))
        digests = {a: _digest(self.summaries[a], self.episodes[a]) for a in order}
        write_atomic(self.out / DIGESTS, json.dumps(digests, indent=1) + "\n")


def _digest(row: dict[str, Any], episodes: list[dict[str, Any]]) -> str:
    """SHA-256 of an agent's rows as the CSV files hold them (read back or about to be written)."""
    text = _csv_text(SUMMARY_FIELDS, [row]) + _csv_text(EPISODE_FIELDS, episodes)
    return hashlib.sha256(text.encode()).hexdigest()


def read_settings(out: Path) -> dict[str, Any]:
    """``run.json``: the settings of the run that wrote ``out``, checked.

    Raises:
        PyramidError: no such file, or not the settings a benchmark writes, naming it.
    """
    path = out / RUN_FILE
    try:
        earlier = read_json(path, "run settings")
    except (OSError, PyramidError) as err:
        raise PyramidError(
            f"--resume: {out} holds no benchmark to resume ({err}); run without --resume"
        ) from err
    types = {"rules": str, "seeds": str, "deals": int, "observe_stock": str}
    if (
        not isinstance(earlier, dict)
        or set(earlier) != set(types)
        or not all(type(earlier[k]) is t for k, t in types.items())
    ):
        raise PyramidError(
            f"--resume: {path} holds {describe(earlier)}, not a benchmark's settings (a dict "
            f"of {', '.join(types)}); remove the folder, or run without --resume"
        )
    return earlier


def clean(out: Path) -> None:
    """Remove what a stop can leave: temporary files of writes cut short, the write probe."""
    for stale in [*out.glob(".*.tmp"), *out.glob("*/*/.*.tmp"), out / ".write-test"]:
        stale.unlink(missing_ok=True)


def folder_name(label: str) -> str:
    """The folder of an agent's chunks and pages: its label, or a slug of it and a hash.

    A label of letters, digits, ``.``, ``_`` and ``-`` is used as it is; any other (a path) as
    those characters and 8 hex digits of its hash, so two labels never share a folder (``a/b``
    and ``a_b`` would, with ``/`` replaced).
    """
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", label):
        return label
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("._-")[-40:] or "agent"
    return f"{slug}-{hashlib.sha256(label.encode()).hexdigest()[:8]}"


def check_writable(out: Path) -> None:
    """Make the output folder and prove it takes files, before any work."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        raise PyramidError(f"--out {str(out)!r} cannot be written: {err.strerror or err}") from err

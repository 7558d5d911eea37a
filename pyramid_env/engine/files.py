"""Reading and writing the library's small JSON files: bounded reads, whole-or-nothing writes.

A save, a replay or a benchmark's bookkeeping file is a few kilobytes. Reading one checks what
a careless or hostile file could do to the reader: a path that is not a file, a device that
never ends (``/dev/zero``), megabytes of text, nesting deep enough to exhaust the stack. Writing
one goes to a temporary file in the same folder, then :func:`os.replace`, so a kill or a full
disk leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pyramid_env.engine.errors import CardError

MAX_FILE_BYTES = 64 * 2**20
"""The largest JSON file read (64 MiB): a save of a long game is a few hundred kilobytes."""


def read_text(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the file ``path`` (a ``what``, for messages), read up to ``limit`` bytes.

    Raises:
        CardError: no such file, not a regular file, larger than ``limit``, or not UTF-8 (bad
            input, which the command line answers with exit status 2). PermissionError and
            other OSErrors: as ``open``.
    """
    path = Path(path)
    if not path.exists():
        raise CardError(f"{what} file {str(path)!r} does not exist")
    if not path.is_file():  # a folder, a device, a pipe: no end is promised
        raise CardError(f"{what} file {str(path)!r} is not a regular file")
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise CardError(f"{what} file {str(path)!r} is larger than {limit:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CardError(f"{what} file {str(path)!r} is not JSON (not UTF-8 text: {err})") from None


def read_json(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> Any:
    """The JSON value in ``path``, read as :func:`read_text` reads.

    Raises:
        CardError: as :func:`read_text`; not JSON, or nested too deeply to read.
    """
    text = read_text(path, what, limit)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise CardError(f"{what} file {str(path)!r} is not JSON: {err}") from None
    except RecursionError:
        raise CardError(f"{what} file {str(path)!r} is nested too deeply to be a {what}") from None


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` whole or not at all: a temporary file, then a rename.

    The temporary file (``.NAME.tmp`` beside it) is removed if the write fails. A ``path``
    that is a device or a pipe is written into, never replaced.

    Raises:
        OSError: the folder cannot take the file; ``path`` is then as it was.
    """
    path = Path(path)
    if path.exists() and not path.is_file() and not path.is_dir():
        # A device or a pipe (``--out /dev/null``, a FIFO): a rename would put a regular file in
        # its place, so the text goes into it; "whole or not at all" has no meaning there.
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        # No fsync: what the kernel holds survives a killed process, the case this is for; a
        # benchmark writes hundreds of files, and a sync each would cost more than the work.
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


__all__ = ["MAX_FILE_BYTES", "read_json", "read_text", "write_atomic"]

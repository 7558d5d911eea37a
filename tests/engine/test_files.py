"""``write_atomic``: whole files, and devices or pipes written into, never replaced."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from pyramid_env.engine.files import write_atomic


def test_a_file_is_replaced_whole_and_no_temporary_file_is_left(tmp_path):
    path = tmp_path / "table.md"
    path.write_text("old and longer than the new text\n")
    write_atomic(path, "new\n")
    assert path.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.md"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")
def test_a_pipe_is_written_into_and_stays_a_pipe(tmp_path):
    # `--out /dev/null` once replaced the machine's /dev/null with a regular file through the
    # rename; a named pipe is the same kind of path, safe to make in a test.
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    write_atomic(fifo, "| a | table |\n")
    reader.join(timeout=10)
    assert got == ["| a | table |\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_folder_is_refused_and_left_as_it_was(tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    with pytest.raises(OSError):
        write_atomic(folder, "text")
    assert folder.is_dir() and not any(folder.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]

"""Agents read from files: a damaged or unfit ``.npz`` is skipped up front, naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_env.agents import MLPPolicy
from pyramid_env.benchmark import roster
from pyramid_env.cli import main
from pyramid_env.engine import PyramidError
from pyramid_env.engine.rules import get_rules
from tests.benchmark.conftest import no_chart, policy_file, record


def bad_files(tmp_path: Path) -> dict[str, Path]:
    good = policy_file(tmp_path / "good.npz")
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    flipped = tmp_path / "flipped.npz"
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 0xFF
    flipped.write_bytes(bytes(data))
    return {
        "empty": empty,
        "flipped": flipped,
        "wide": policy_file(tmp_path / "wide.npz", inputs=10),
        "narrow": policy_file(tmp_path / "narrow.npz", outputs=5),
        "value": policy_file(tmp_path / "value.npz", outputs=1),
        "nolayers": _no_layers(tmp_path / "nolayers.npz"),
    }


def _no_layers(path: Path) -> Path:
    MLPPolicy([], "tanh", {"obs_mode": "onehot"}).save(path)
    return path


@pytest.mark.parametrize("kind", ["empty", "flipped", "wide", "narrow", "value", "nolayers"])
def test_a_bad_npz_is_refused_before_any_agent_plays(kind, tmp_path, monkeypatch, capsys):
    no_chart(monkeypatch)
    path = str(bad_files(tmp_path)[kind])
    played = record(monkeypatch)
    out = tmp_path / "out"
    code = main(["benchmark", "--rules", "msc", "--seeds", "val[:3]", "--workers", "1",
                 "--replays", "0", "--no-progress", "--out", str(out),
                 "--agents", "greedy", path])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0 and "Traceback" not in captured.err
    assert f"warning: skipping agent {path}" in captured.err and repr(path) in captured.err
    assert played == ["greedy"]
    note = " ".join((out / "benchmark.md").read_text().split())
    assert f"skipped (unusable files): {path}" in note


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_any_corruption_of_an_npz_is_refused_or_plays_never_crashes(tmp_path, data):
    # Property: a policy file with bytes changed is either refused (PyramidError naming it) or a
    # policy that makes legal moves; never an exception of numpy or zlib.
    good = tmp_path / "good.npz"
    if not good.exists():
        policy_file(good)
    raw = bytearray(good.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(bytes(raw[:cut]) if data.draw(st.booleans()) else bytes(raw))
    made, skipped = roster.make_agents([str(bad)])
    for name, agent in made.items():
        try:
            roster.probe(agent, name, get_rules("msc"), "seen", 2000)
        except PyramidError as err:
            skipped.append((name, str(err)))
    for _, why in skipped:
        assert str(bad) in why

"""Every agent's rows go under a name of its own: a file never borrows a baseline's name, and
no two labels share a folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_env import benchmark as bench
from pyramid_env.benchmark import roster
from tests.benchmark.conftest import RUN, no_chart, policy_file, record, rows
from tests.conftest import refused


def test_a_users_greedy_npz_does_not_shadow_the_baseline(tmp_path, monkeypatch, capsys):
    no_chart(monkeypatch)
    net = str(policy_file(tmp_path / "greedy.npz"))
    out = tmp_path / "out"
    bench.run(agents=["greedy", net], out=out, replays=0, **RUN)
    labels = [r["agent"] for r in rows(out)]
    assert labels == ["greedy", net]
    table = (out / "benchmark.md").read_text()
    assert "| greedy | baseline |" in table and f"| {net} | learned |" in table
    assert {r["agent"] for r in rows(out, "episodes.csv")} == {"greedy", net}
    # The network's row is its own: a fresh run of it alone gives the same figures.
    alone = tmp_path / "alone"
    bench.run(agents=[net], out=alone, replays=0, **RUN)
    assert rows(alone)[0]["wins"] == rows(out)[1]["wins"]
    assert rows(alone)[0]["agent"] == net


def test_resume_plays_a_users_npz_named_like_a_finished_baseline(tmp_path, monkeypatch):
    no_chart(monkeypatch)
    net = str(policy_file(tmp_path / "greedy.npz"))
    out = tmp_path / "out"
    bench.run(agents=["greedy"], out=out, replays=0, **RUN)
    played = record(monkeypatch)
    bench.run(agents=["greedy", net], out=out, replays=0, resume=True, **RUN)
    assert played == [net]
    assert [r["agent"] for r in rows(out)] == ["greedy", net]


def test_an_agent_given_twice_is_refused(tmp_path):
    net = policy_file(tmp_path / "net.npz")
    for agents, message in (
        (["greedy", "greedy"], "given twice"),
        ([str(net), str(tmp_path / "." / "net.npz")], "given twice"),
    ):
        refused(bench.run, agents=agents, out=tmp_path / "out", **RUN, match=message)


def test_two_files_of_one_stem_play_under_their_paths(tmp_path, monkeypatch):
    no_chart(monkeypatch)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = str(policy_file(tmp_path / "a" / "net.npz"))
    two = str(policy_file(tmp_path / "b" / "net.npz", layers=3))
    out = tmp_path / "out"
    bench.run(agents=[one, two], out=out, replays=1, **RUN)
    assert [r["agent"] for r in rows(out)] == [one, two]
    assert bench.folder_name(one) != bench.folder_name(two)
    # Each file's pages in a folder of its own (a stem or a path with "/" replaced would share).
    for label in (one, two):
        lost = [
            e for e in rows(out, "episodes.csv")
            if e["agent"] == label and e["solver_won"] == "True" and e["won"] == "False"
        ]  # fmt: skip
        where = out / "replays" / bench.folder_name(label)
        assert sorted(p.name for p in where.glob("*.json")) == [f"deal-{lost[0]['deal']}.json"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=5, unique=True))
def test_labels_never_share_a_folder(labels):
    # Property: distinct labels (any text: paths, unicode, dots) get distinct folder names.
    names = [bench.folder_name(label) for label in labels]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", n) and n not in (".", "..") for n in names)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["greedy", "random", "hint", "solver", "bc-msc"]),
            st.tuples(
                st.sampled_from(["a", "b", "c/d"]), st.sampled_from(["greedy", "net", "x"])
            ).map(lambda t: f"{t[0]}/{t[1]}.npz"),
        ),
        min_size=1,
        max_size=6,
        unique=True,
    )
)
def test_labels_are_unique_and_a_name_is_never_borrowed(names):
    # Property: every agent gets a label of its own; a file never takes another agent's name.
    labels = roster.agent_labels(names)
    assert len(set(labels.values())) == len(names)
    known = {n for group in bench.known_agents().values() for n in group}
    for name, label in labels.items():
        if name.endswith(".npz"):
            assert label not in known and label in (name, Path(name).stem)
        else:
            assert label == name

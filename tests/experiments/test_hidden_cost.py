import json

from experiments import hidden_cost


def record_plays(tmp_path, monkeypatch) -> tuple[list[str], list[str]]:
    """The agents ``hidden_cost`` plays, in order, as it plays them; its arguments for a run."""
    played = []
    real = hidden_cost.evaluate

    def spy(name, *args, **kwargs):
        played.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(hidden_cost, "evaluate", spy)
    args = ["--rules", "one-pass", "--seeds", "val[:4]", "--workers", "1", "--out", str(tmp_path)]
    return played, args


def test_a_kept_preset_gains_the_agents_it_lacks_and_only_those(tmp_path, monkeypatch):
    played, args = record_plays(tmp_path, monkeypatch)
    hidden_cost.main([*args, "--agents", "greedy"])
    hidden_cost.main([*args, "--agents", "greedy", "random"])
    hidden_cost.main([*args, "--agents", "greedy", "--redo", "greedy"])
    assert played == ["greedy", "random", "greedy"]
    rows = json.loads((tmp_path / "one-pass.json").read_text())
    assert set(rows["agents"]) == {"greedy", "random"}
    assert set(rows["added"]) == {"random", "greedy"}  # the redone one is dated anew
    header = (tmp_path / "table.md").read_text().splitlines()[0]
    assert "| random |" in header and "| random CPU / deal |" in header
    assert "| pimc |" in header  # a default agent not played: its cells say so ("–")


def test_redo_plays_an_agent_again_even_where_agents_leaves_it_out(tmp_path, monkeypatch):
    played, args = record_plays(tmp_path, monkeypatch)
    hidden_cost.main([*args, "--agents", "greedy", "random"])
    hidden_cost.main([*args, "--agents", "greedy", "--redo", "random"])  # was: random dropped
    assert played == ["greedy", "random", "random"]
    rows = json.loads((tmp_path / "one-pass.json").read_text())
    assert set(rows["agents"]) == {"greedy", "random"}
    assert set(rows["added"]) == {"random"}

"""bench_cards times a training step phase by phase and refuses what cannot be timed."""

import json

import numpy as np
import pytest

from experiments import card_data
from pyramid_env.engine.rules import get_rules

pytest.importorskip("torch")

from experiments import bench_cards  # noqa: E402


def _data(tmp_path):
    rules = get_rules("msc")
    deals = [1_000_040, 1_000_041]
    data = card_data.replay(rules, deals, [card_data.label_game(rules, 0.2, 0, n) for n in deals])
    np.savez_compressed(tmp_path / "d.npz", rules=np.array("msc"), **data)
    return str(tmp_path / "d.npz")


def test_a_step_is_timed_in_its_phases_and_written(tmp_path):
    out = tmp_path / "bench.json"
    row = bench_cards.main(["--data", _data(tmp_path), "--arch", "tally", "--size", "small",
                            "--layers", "1", "--positions", "40", "--batch", "8", "--steps",
                            "2", "--rounds", "2", "--out", str(out)])  # fmt: skip
    plain = row["plain"]
    assert set(plain) == {*bench_cards.PHASES, "step"}
    assert all(plain[k] > 0 for k in ("forward", "backward"))
    assert plain["step"] == pytest.approx(sum(plain[k] for k in bench_cards.PHASES), abs=0.3)
    assert json.loads(out.read_text()) == row and "compiled" not in row


@pytest.mark.parametrize("flag", ["--steps", "--rounds", "--batch"])
def test_a_count_below_one_is_refused_by_name(tmp_path, flag, capsys):
    with pytest.raises(SystemExit):
        bench_cards.main(["--data", str(tmp_path / "none.npz"), flag, "0"])
    assert f"{flag} 0: at least 1" in capsys.readouterr().err


def test_a_baseline_version_of_the_network_is_timed_beside_it(tmp_path, capsys):
    import pyramid_env.agents.cardnet_torch as current

    data = _data(tmp_path)
    args = ["--data", data, "--arch", "tally", "--size", "small", "--layers", "1",
            "--positions", "40", "--batch", "8", "--steps", "1", "--rounds", "2"]  # fmt: skip
    row = bench_cards.main([*args, "--baseline", current.__file__])
    assert set(row["baseline"]) == set(row["plain"])
    assert row["plain_over_baseline"] == pytest.approx(
        row["plain"]["step"] / row["baseline"]["step"], abs=1e-3
    )
    with pytest.raises(SystemExit):
        bench_cards.main([*args, "--baseline", str(tmp_path / "gone.py")])
    assert "gone.py: no such file" in capsys.readouterr().err

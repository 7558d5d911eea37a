import csv

import pytest

from experiments import pimc_curve


def test_curve_rows_append_under_one_header_and_name_each_budget(tmp_path, monkeypatch):
    budgets, spied = [], []

    class Spy(pimc_curve.PimcAgent):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            budgets.append(self.budget)
            spied.append(self)

    monkeypatch.setattr(pimc_curve, "PimcAgent", Spy)
    args = ["--rules", "msc", "--seeds", "val[:3]", "--samples", "1", "--workers", "1",
            "--out", str(tmp_path)]  # fmt: skip
    pimc_curve.main(args)
    pimc_curve.main([*args, "--budget", "1", "5"])
    pimc_curve.main([*args, "--order", "greedy-careful", "--exact", "--extra", "2"])
    pimc_curve.main([*args, "--keep"])
    pimc_curve.main([*args, "--delay", "--screen", "700", "--live", "3"])
    with open(tmp_path / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["agent"], r["samples"], r["seeds"]) for r in rows] == [
        ("pimc", "1", "val[:3]"),
        ("pimc-budget1", "1", "val[:3]"),
        ("pimc-budget5", "1", "val[:3]"),
        ("pimc-careful-exact-extra2", "1", "val[:3]"),
        ("pimc-keep", "1", "val[:3]"),
        ("pimc-delay-screen700-live3", "1", "val[:3]"),
    ]
    assert budgets == [pimc_curve.DEFAULT_BUDGET, 1, 5, *[pimc_curve.DEFAULT_BUDGET] * 3]
    assert (spied[-3].order, spied[-3].exact, spied[-3].extra) == ("greedy-careful", True, 2)
    assert spied[-2].keep and not spied[-3].keep
    assert (spied[-1].delay, spied[-1].screen, spied[-1].live) == (True, 700, 3)
    assert spied[-2].screen is None and spied[-2].live == 0


def test_each_deal_is_written_and_pairs_deal_by_deal(tmp_path):
    from pyramid_env.benchmark.compare import compare, markdown, read_runs

    base = ["--rules", "msc", "--seeds", "val[:4]", "--samples", "1", "2", "--workers", "1",
            "--out", str(tmp_path)]  # fmt: skip
    pimc_curve.main(base)
    with open(tmp_path / "curve.csv") as f:
        curve = {r["samples"]: int(r["wins"]) for r in csv.DictReader(f)}
    with open(tmp_path / "episodes-msc.csv") as f:
        rows = list(csv.DictReader(f))
    deals = {n: sorted(r["deal"] for r in rows if r["agent"] == f"pimc-{n}") for n in ("1", "2")}
    assert len(rows) == 8 and deals["1"] == deals["2"] and len(set(deals["1"])) == 4
    for n in ("1", "2"):
        won = sum(r["won"] == "True" for r in rows if r["agent"] == f"pimc-{n}")
        assert won == curve[n]
    agents = read_runs([tmp_path / "episodes-msc.csv"])
    assert set(agents.won) == {"pimc-1", "pimc-2"} and len(agents.won["pimc-2"]) == 4
    assert "| pimc-2 | 4 | " in markdown(compare(agents, "pimc-1"))


def test_agent_seed_reaches_evaluate_and_names_the_row(tmp_path, monkeypatch):
    seeds = []
    real = pimc_curve.evaluate

    def spy(*args, **kwargs):
        seeds.append(kwargs["seed"])
        return real(*args, **kwargs)

    monkeypatch.setattr(pimc_curve, "evaluate", spy)
    args = ["--rules", "msc", "--seeds", "val[:2]", "--samples", "1", "--workers", "1",
            "--out", str(tmp_path)]  # fmt: skip
    pimc_curve.main(args)
    pimc_curve.main([*args, "--agent-seed", "3"])
    with open(tmp_path / "curve.csv") as f:
        assert [r["agent"] for r in csv.DictReader(f)] == ["pimc", "pimc-seed3"]
    assert seeds == [0, 3]
    with open(tmp_path / "episodes-msc.csv") as f:
        assert {r["agent"] for r in csv.DictReader(f)} == {"pimc-1", "pimc-seed3-1"}


def test_a_margin_without_the_draw_first_is_refused_by_name(tmp_path, capsys):
    with pytest.raises(SystemExit):
        pimc_curve.main(["--margin", "1", "--seeds", "val[:1]", "--out", str(tmp_path)])
    assert "--margin 1" in capsys.readouterr().err
    assert not (tmp_path / "curve.csv").exists()


def test_a_network_orders_the_search_by_its_policy(tmp_path, monkeypatch):
    import numpy as np

    from pyramid_env.agents import Turn
    from pyramid_env.env import PyramidEnv
    from pyramid_env.lab.shipping import SHIP_DIR

    spied = []

    class Spy(pimc_curve.PimcAgent):
        def act(self, turn, rng):
            spied.append(self)
            return super().act(turn, rng)

    monkeypatch.setattr(pimc_curve, "PimcAgent", Spy)
    net = SHIP_DIR / "cards-msc.npz"
    pimc_curve.main(["--rules", "msc", "--seeds", "val[:2]", "--samples", "1", "--workers", "1",
                     "--net-order", str(net), "--out", str(tmp_path)])  # fmt: skip
    with open(tmp_path / "curve.csv") as f:
        assert [r["agent"] for r in csv.DictReader(f)] == ["pimc-net"]
    order = spied[0].greedy
    assert isinstance(order, pimc_curve.NetOrder) and spied[0].env_kwargs["obs_mode"] == "counts"
    env = PyramidEnv("msc", obs_mode="counts")
    obs, _ = env.reset(options={"deal": 3})
    turn = Turn(env.state, sorted(env.legal_actions()), env.known_stock(), obs)
    logits = order.net.forward(obs[None])[0, 0]
    prefs = order.preferences(turn)
    assert sorted(prefs) == turn.legal and list(logits[prefs]) == sorted(logits[prefs])[::-1]
    assert order.act(turn, np.random.default_rng(0)) == prefs[0]

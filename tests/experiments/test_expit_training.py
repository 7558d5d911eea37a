"""experiments/train_expit.py end to end at a tiny budget: seeded, and its files are agents."""

import csv
import json

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("tensorboard")

from experiments import expit_errors, plot_expit, ship_agent, train_expit  # noqa: E402
from pyramid_env import evaluate  # noqa: E402
from pyramid_env.agents import (  # noqa: E402
    ExpitPolicyAgent,
    ExpitSearchAgent,
    MLPPolicy,
    make_agent,
)

TINY = [
    "--set", "rounds.count=2", "--set", "rounds.first_deals=12", "--set", "rounds.deals=8",
    "--set", "search.samples=4", "--set", "net.hidden=[32]", "--set", "eval.seeds='val[:6]'",
    "--set", "agent.samples=4", "--set", "agent.more=8", "--set", "agent.margin=0.1",
    "--set", "workers=1", "--set", "policy.delta_grid=[0.1, 1.0]",
]  # fmt: skip


def test_train_expit_tiny_run_is_reproducible_and_ships_two_agents(tmp_path):
    metrics = train_expit.main([*TINY, "--runs", str(tmp_path / "a")])
    (run,) = (tmp_path / "a").iterdir()
    names = {p.name for p in run.iterdir()}
    assert {"config.json", "eval.csv", "metrics.json", "best.npz", "best-search.npz"} <= names
    assert {"round0.npz", "round1.npz"} <= names
    assert any(name.startswith("events.out.tfevents") for name in names)  # TensorBoard
    with open(run / "eval.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["round"]) for r in rows] == [0, 1] and int(rows[1]["deals"]) == 20
    assert int(rows[1]["positions"]) > int(rows[0]["positions"]) > 0
    best = MLPPolicy.load(run / "best.npz")
    assert best.meta["value_head"] and best.meta["obs_mode"] == "counts"
    assert best.meta["rules"] == "msc" and best.meta["algo"] == "ExIt"
    agent = make_agent(str(run / "best-search.npz"))
    assert isinstance(agent, ExpitSearchAgent) and agent.samples == 4
    assert metrics["search_agent"]["samples"] == 4

    # The network alone evaluates as the run said (the file is the agent).
    assert isinstance(make_agent(str(run / "best.npz")), ExpitPolicyAgent)
    alone = evaluate(ExpitPolicyAgent(best), "msc", "val[:6]").summary()
    assert alone["win_rate"] == best.meta["val_win_rate"]

    # Seeded: a second run gives the same games and the same weights.
    train_expit.main([*TINY, "--runs", str(tmp_path / "b")])
    (again,) = (tmp_path / "b").iterdir()
    for name in ("round0.npz", "round1.npz"):
        w1, w2 = MLPPolicy.load(run / name).layers, MLPPolicy.load(again / name).layers
        assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(w1, w2, strict=True))

    # --finish: the same rounds, a new final choice; training settings must not change.
    again_metrics = train_expit.main(
        [*TINY, "--set", "policy.delta_grid=[0.3]", "--finish", str(run)]
    )
    assert [d["delta"] for d in again_metrics["policy_delta"]] == [0.3]
    rates = [[r["val_win_rate"] for r in m["rounds"]] for m in (metrics, again_metrics)]
    assert rates[0] == rates[1] and len(rates[0]) == 2
    assert MLPPolicy.load(run / "best.npz").meta["delta"] == 0.3
    with pytest.raises(SystemExit, match="rounds"):
        train_expit.main([*TINY, "--set", "rounds.count=3", "--finish", str(run)])

    out = tmp_path / "errors.jsonl"
    (errors,) = expit_errors.main([str(run / "best.npz"), "--seeds", "val[:4]", "--samples", "2",
                                   "--recheck", "3", "--out", str(out)])  # fmt: skip
    assert [json.loads(line) for line in out.read_text().splitlines()] == [errors]
    recheck = errors["recheck"]  # every hidden decision with a winnable sample, searched again
    assert recheck["samples"] == 3 and recheck["decisions"] == errors["decisions_hidden"]
    parts = recheck["large"], recheck["small"]
    assert sum(p["departures"] for p in parts) <= recheck["decisions"]
    assert all(p["found_by_search"] <= p["departures"] and p["gain"] >= 0 for p in parts)
    assert errors["decisions_hidden"] > 0 and 0 <= errors["agreement_hidden"] <= 1
    assert sum(errors["first_fatal_move"].values()) + errors["won"] <= errors["winnable"] <= 4
    assert [c["margin"] for c in errors["cue"]] == [0.05, 0.1, 0.3]
    flagged = [c["flagged"] for c in errors["cue"]]
    assert all(0 <= f <= 1 for f in flagged) and flagged == sorted(flagged, reverse=True)

    chart = plot_expit.main([str(run), "--out", str(tmp_path / "c.png"), "--references", "greedy"])
    assert chart.is_file() and chart.stat().st_size > 1000

    shipped = ship_agent.main([str(run / "best-search.npz"), "tiny-search", "--dest",
                               str(tmp_path / "ship")])  # fmt: skip
    assert MLPPolicy.load(shipped).meta["kind"] == "expit-search"


def test_rank_relabelling_is_a_symmetry_of_the_game(monkeypatch):
    """The augmentation's relabelled observation is exactly the observation of the deal with
    its cards relabelled, along a game: same legal moves, same solver verdict."""
    from pyramid_env import deal
    from pyramid_env.engine.rules import get_rules
    from pyramid_env.env import PyramidEnv
    from pyramid_env.env import observation as ob
    from pyramid_env.solver import solve

    rules = get_rules("msc")
    rng = np.random.default_rng(0)
    for n in range(8):
        (m,) = train_expit.rank_maps(1, np.random.default_rng(n))
        assert sorted(m[1:13]) == list(range(1, 13)) and m[13] == 13
        assert all(m[r] + m[13 - r] == 13 for r in range(1, 13))
        cards = [(c // 13) * 13 + m[c % 13 + 1] - 1 for c in deal(n).cards]
        one, two = PyramidEnv(rules, obs_mode="dict"), PyramidEnv(rules, obs_mode="dict")
        one.reset(options={"deal": n})
        two.reset(options={"cards": cards})
        assert solve(one.state).status == solve(two.state).status
        monkeypatch.setattr(train_expit, "rank_maps", lambda k, r, m=m: m[None])
        for _ in range(50):
            obs = ob.Encoder(one.state, False).encode(one.state, one.known_stock(), True)
            packed = np.concatenate([*(obs[k] for k, _, _ in ob.PIECES), obs["unseen"]])
            relabelled = train_expit.counts_input(packed[None].astype(np.int16), rng)[0]
            other = ob.Encoder(two.state, False).encode(two.state, two.known_stock(), True)
            assert np.array_equal(relabelled, ob.counts(other))
            legal = one.legal_actions()
            assert legal == two.legal_actions()
            if not legal:
                break
            action = legal[rng.integers(len(legal))]
            one.step(action)
            two.step(action)
        monkeypatch.undo()


def test_expit_errors_cue_counts_what_a_margin_flags_and_catches():
    gaps = [0.0, 0.02, 0.07, 0.2, 0.5]
    departs = [("blunder", 0.5), ("blunder", 0.02), ("marginal", 0.07)]
    assert expit_errors._cue(0.05, gaps, departs) == {
        "margin": 0.05,
        "flagged": 0.6,
        "caught": {"blunder": 0.5, "marginal": 1.0},
    }
    assert expit_errors._cue(0.3, gaps, departs)["caught"] == {"blunder": 0.5, "marginal": 0.0}
    assert expit_errors._cue(0.1, gaps, [])["caught"] == {}


def test_expit_errors_recheck_splits_the_gain_and_scores_the_cue():
    # (the network's gap, the gain with many orders, whether the training search departed)
    checks = [(0.0, 0.0, False, "PAIR->PAIR"), (0.2, 0.0, False, "DRAW->DRAW"),
              (0.3, 0.02, True, "PAIR->DRAW"), (0.01, 0.05, False, "PAIR->DRAW"),
              (0.5, 0.5, True, "DRAW->PAIR"), (0.0, 1.0, True, "PAIR->DRAW")]  # fmt: skip
    got = expit_errors._recheck(checks, [0.1, 0.4])
    assert got["large"] == {"departures": 2, "gain": 1.5, "found_by_search": 2, "certain": 1,
                            "kinds": {"DRAW->PAIR": 1, "PAIR->DRAW": 1}}  # fmt: skip
    assert got["small"] == {"departures": 2, "gain": 0.07, "found_by_search": 1, "certain": 0,
                            "kinds": {"PAIR->DRAW": 2}}  # fmt: skip
    assert got["cue"][0] == {"margin": 0.1, "flagged": 0.5, "small_caught": 1,
                             "small_gain_caught": 0.02, "gain_caught": 0.52}  # fmt: skip
    assert got["cue"][1]["flagged"] == 0.167 and got["cue"][1]["small_caught"] == 0
    # Small departures' gaps 0.3 and 0.01 against the others' 0.0 and 0.2: 3 of 4 pairs.
    assert got["cue_auc_small"] == 0.75
    assert expit_errors.auc([1.0], [1.0]) == 0.5 and expit_errors.auc([], [0.0]) is None

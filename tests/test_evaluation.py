"""Evaluation: reproducible, parallel equals serial, honest intervals, labels that hold."""

import os

import numpy as np
import pytest

from pyramid_env import PRESETS, evaluate
from pyramid_env.env import PyramidEnv, PyramidVectorEnv
from pyramid_env.evaluation import Report, wilson
from pyramid_env.seeds import LABELLED, SEED_SETS, labels, seed_set
from pyramid_env.solver import Verdict, solve


def test_same_agent_and_seeds_give_the_same_numbers_serial_or_parallel():
    serial = evaluate("random", rules="msc", seeds="val[:24]", seed=5)
    again = evaluate("random", rules="msc", seeds="val[:24]", seed=5)
    parallel = evaluate("random", rules="msc", seeds="val[:24]", seed=5, workers=2)
    assert serial == again == parallel
    timing = {"seconds": 0, "cpu_per_deal": 0}  # measurements of the machine, not results
    assert serial.summary() | timing == parallel.summary() | timing
    other = evaluate("random", rules="msc", seeds="val[:24]", seed=6)
    assert other.episodes != serial.episodes  # the seed does reach the agent


def test_a_shipped_network_plays_the_same_on_any_number_of_workers():
    # Workers run BLAS on fewer threads than the parent: the episodes must not change. The
    # parent gets back its default, a thread per core (tests/conftest.py caps it at one).
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=os.cpu_count() or 1):
        one = evaluate("bc-relaxed", seeds="val[:24]")
    assert one == evaluate("bc-relaxed", seeds="val[:24]", workers=2)


def test_summary_counts_and_intervals():
    report = evaluate("greedy", seeds="test[:50]")
    s = report.summary()
    eps = report.episodes
    assert s["deals"] == 50 and s["wins"] == sum(e.won for e in eps)
    assert s["solver_winnable"] == sum(bool(e.solver_won) for e in eps)
    assert s["ci_low"] < s["win_rate"] < s["ci_high"]
    won_winnable = sum(e.won for e in eps if e.solver_won)
    assert s["solver_normalised"] == pytest.approx(won_winnable / s["solver_winnable"])
    assert s["cards_left"] == pytest.approx(np.mean([e.pyramid_left for e in eps]))
    assert isinstance(report, Report) and len(report.rows()) == 50


def test_wilson_interval_matches_known_values():
    # Reference values from the closed form (Wilson 1927); e.g. 81/263 -> [0.2553, 0.3662].
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_an_illegal_action_from_an_agent_is_named():
    class Stubborn:
        name = "stubborn"

        def act(self, turn, rng):
            return 1  # recycle, with cards still in the stock

    with pytest.raises(ValueError, match="agent 'stubborn' chose illegal action 1 on deal 0"):
        evaluate(Stubborn(), seeds=[0])


def test_seed_sets_are_disjoint_and_parse():
    names = list(SEED_SETS)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            sa, sb = SEED_SETS[a], SEED_SETS[b]
            assert sa.stop <= sb.start or sb.stop <= sa.start, (a, b)
    assert seed_set("test[:1000]") == range(0, 1000)
    assert seed_set("val[10:12]") == range(2010, 2012)
    assert seed_set("5-7") == range(5, 8)
    assert seed_set("3,5,8") == [3, 5, 8]
    with pytest.raises(ValueError, match="unknown seed set 'tset'"):
        seed_set("tset")
    with pytest.raises(ValueError, match="bad seed spec 'x-y'"):
        seed_set("x-y")


def test_train_deals_keep_the_env_off_val_and_test():
    env = PyramidEnv(deals="train")
    seen = {env.reset(seed=s)[1]["deal"] for s in range(50)}
    assert all(n in SEED_SETS["train"] for n in seen) and len(seen) == 50
    vec = PyramidVectorEnv(4, deals="val[:3]")
    _, info = vec.reset(seed=0)
    assert set(info["deal"]) <= set(seed_set("val[:3]"))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_shipped_labels_cover_val_and_test_and_agree_with_the_solver(preset):
    table = labels(preset)
    expected = {n for name in LABELLED for n in SEED_SETS[name]}
    assert set(table) == expected
    assert all(lab.won is not None for lab in table.values())
    rng = np.random.default_rng(0)
    for n in rng.choice(sorted(expected), 6, replace=False).tolist():
        sol = solve(n, preset)
        assert (sol.status is Verdict.WIN) == table[n].won, (preset, n)
        assert sol.steps == table[n].steps, (preset, n)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_shipped_shortest_lengths_agree_with_the_solver(preset):
    table = labels(preset)
    with_shortest = sorted(n for n, lab in table.items() if lab.shortest is not None)
    assert len(with_shortest) == sum(bool(lab.won) for lab in table.values())
    for n in with_shortest[:: len(with_shortest) // 3][:3]:
        sol = solve(n, preset, shortest=True)  # the compiled A* where numba is installed
        assert sol.steps == table[n].shortest <= table[n].steps, n

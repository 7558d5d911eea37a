"""experiments/phase_split.py: the split agents are the agents they are made of."""

import csv

import numpy as np
import pytest

from experiments import phase_split
from pyramid_env import evaluate
from pyramid_env.agents import CarefulAgent, GreedyAgent, PimcAgent, ScoutAgent, Turn
from pyramid_env.agents.honest import determinize, unseen
from pyramid_env.benchmark.compare import read_runs
from pyramid_env.engine.rules import get_rules
from pyramid_env.env import PyramidEnv


def test_greedy_then_greedy_is_greedy_and_the_table_is_written(tmp_path):
    rows = phase_split.main(
        ["--rules", "msc", "--seeds", "val[:4]", "--workers", "1", "--out", str(tmp_path)]
    )
    assert [r["agent"] for r in rows] == [a.name for a in phase_split.agents(4)]
    greedy = evaluate(GreedyAgent(), "msc", "val[:4]").summary()
    assert rows[0]["wins"] == greedy["wins"]
    careful = evaluate(CarefulAgent(), "msc", "val[:4]").summary()
    assert rows[4]["agent"] == "greedy-careful" and rows[4]["wins"] == careful["wins"]
    with open(tmp_path / "phase_split.csv") as f:
        assert len(list(csv.DictReader(f))) == 7
    # The games deal by deal, in a benchmark's columns, so `pyramid-env compare` reads them.
    runs = read_runs([tmp_path / "episodes-msc.csv"])
    assert sorted(runs.won) == sorted(r["agent"] for r in rows)
    for r in rows:
        assert sum(runs.won[r["agent"]].values()) == r["wins"]
    assert sum(v is True for v in runs.solver_won.values()) == rows[0]["solver_wins"]


def test_an_agent_named_plays_the_known_phase_with_its_own_observation(tmp_path):
    rows = phase_split.main(
        ["--rules", "msc", "--seeds", "val[:3]", "--workers", "1", "--out", str(tmp_path),
         "--then", "greedy", "bc-msc"]
    )  # fmt: skip
    by_name = {r["agent"]: r for r in rows}
    assert by_name["greedy, then greedy"]["wins"] == by_name["greedy"]["wins"]
    assert by_name["greedy, then bc-msc"]["solver_wins"] == by_name["greedy"]["solver_wins"]


def test_the_solver_plays_only_once_nothing_is_hidden():
    """Before the stock is all seen the split agent moves as its first-phase agent does,
    whatever order the unseen cards are in; after, as the solver's line (scout's)."""
    rules = get_rules("msc")
    env = PyramidEnv(rules, obs_mode="dict")
    env.reset(options={"deal": 3})
    split = phase_split.PhaseSplit(GreedyAgent(), "solver", "split")
    scout = ScoutAgent()
    rng = np.random.default_rng(0)
    hidden = known = 0
    while legal := env.legal_actions():
        s, seen = env.state, env.known_stock()
        turn = Turn(s, legal, seen)
        action = split.act(turn, rng)
        if seen & s.left != s.left:
            hidden += 1
            assert action == GreedyAgent().act(turn, rng)
            places, cards = unseen(s, seen)
            other = determinize(s, places, cards, rng)  # the unseen cards in another order
            assert split.act(Turn(other, legal, seen), rng) == action
        else:
            known += 1
            assert action == scout.act(turn, rng)
        env.step(action)
    assert hidden and known
    assert isinstance(phase_split.agents(4)[3].hidden, PimcAgent)


def test_a_network_taken_apart_plays_the_hidden_phase_with_its_own_observation(tmp_path):
    """``--split``: the network's first pass needs its observation form (``counts``) too."""
    rows = phase_split.main(
        ["--rules", "msc", "--seeds", "val[:3]", "--workers", "1", "--out", str(tmp_path),
         "--split", "cards-msc", "--known", "greedy", "--known-ways", "policy:0.0",
         "q:0.1", "--first-ways", "policy:0.0"]
    )  # fmt: skip
    by_name = {r["agent"]: r for r in rows}
    alone = evaluate("cards-msc", "msc", "val[:3]").summary()
    assert by_name["cards-msc"]["wins"] == alone["wins"]
    # read the way it is shipped (its policy) it is itself
    assert by_name["cards-msc, then itself as policy:0.0"]["wins"] == alone["wins"]
    assert len(rows) == 7 + 4 + 1 + 2 + 2 and len(by_name) == len(rows)
    # read as shipped in the first pass too: itself, and its own first pass before the solver
    assert by_name["cards-msc as policy:0.0, then itself"]["wins"] == alone["wins"]
    then_solver = by_name["cards-msc, then solver"]["wins"]
    assert by_name["cards-msc as policy:0.0, then solver"]["wins"] == then_solver
    assert "cards-msc, then greedy" in by_name and "cards-msc, then itself as q:0.1" in by_name
    careful = by_name["greedy-careful"]
    for name in ("cards-msc, then solver", "greedy-careful, then cards-msc",
                 "cards-msc, then greedy-careful"):  # fmt: skip
        assert by_name[name]["solver_wins"] == careful["solver_wins"]


def test_two_agents_asking_for_different_observations_are_refused():
    class Flat(GreedyAgent):
        env_kwargs = {"obs_mode": "flat"}

    class Counts(GreedyAgent):
        env_kwargs = {"obs_mode": "counts"}

    with pytest.raises(ValueError, match="obs_mode"):
        phase_split.PhaseSplit(Flat(), Counts(), "both")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--known-ways", "q:0.1"], "--split"),
        (["--split", "cards-msc", "--known-ways", "greedy:1"], "play one of"),
        (["--split", "cards-msc", "--known-ways", "sample:0"], "temperature"),
        (["--first-ways", "q:0.1"], "--split"),
        (["--split", "cards-msc", "--first-ways", "greedy:1"], "--first-ways"),
    ],
)
def test_the_phase_options_need_a_network_taken_apart_and_a_way_of_playing(args, message, capsys):
    with pytest.raises(SystemExit):
        phase_split.main(["--rules", "msc", *args])
    assert message in capsys.readouterr().err

"""experiments/fatal_moves.py: every winnable deal an agent loses has one first fatal move."""

import csv

from experiments import fatal_moves
from pyramid_env import evaluate
from pyramid_env.agents import make_agent
from pyramid_env.engine.notation import parse_move
from pyramid_env.engine.rules import get_rules
from pyramid_env.lab.fatal import first_fatal, spoils
from pyramid_env.seeds import labels
from pyramid_env.solver import Verdict, solve
from tests.conftest import fixture_board


def test_each_lost_winnable_deal_is_counted_once(tmp_path):
    rows = fatal_moves.main(["--rules", "msc", "--agents", "greedy", "greedy-careful",
                             "--seeds", "val[:30]", "--out", str(tmp_path)])  # fmt: skip
    for row in rows:
        episodes = evaluate(row["agent"], "msc", "val[:30]").episodes
        lost = sum(e.solver_won and not e.won for e in episodes)
        assert row["lost_winnable"] == lost > 0
        assert row["by_draw"] + row["by_pyramid"] + row["by_stock"] == lost
    greedy, careful = rows
    # the careful agent's tests see losses on the pyramid: it makes fewer such fatal moves
    assert careful["hidden_pyramid"] + careful["known_pyramid"] < greedy["hidden_pyramid"]
    with open(tmp_path / "fatal_moves.csv") as f:
        assert [r["agent"] for r in csv.DictReader(f)] == ["greedy", "greedy-careful"]


def test_a_position_lost_on_the_pyramid_is_told_from_one_lost_by_the_order():
    s = fixture_board("msc_aces_queens.txt", "msc")
    after = s.child(parse_move(s, "Ah+Qd"))
    assert solve(after, check=False).status is Verdict.LOSS
    assert spoils(after) == "pyramid"  # lost whatever the stock order
    # Deal 2000: greedy spends the Queen (above); greedy-careful keeps it, and loses the deal
    # later, once the stock is known, through the order of the stock alone.
    msc = get_rules("msc")
    assert first_fatal(make_agent("greedy"), msc, 2000)["spoils"] == "pyramid"
    late = first_fatal(make_agent("greedy-careful"), msc, 2000)
    assert late == {"phase": "known", "kind": "stock", "spoils": "order"}
    assert labels("msc")[2002].won  # a winnable deal greedy-careful wins: no fatal move
    assert first_fatal(make_agent("greedy-careful"), msc, 2002) is None

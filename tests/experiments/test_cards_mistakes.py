"""cards_mistakes finds the network's first losing move, checked against the solver."""

import numpy as np
import pytest

from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.rules import get_rules
from pyramid_env.engine.state import State
from pyramid_env.solver import Verdict, solve

torch = pytest.importorskip("torch")

from experiments import cards_mistakes  # noqa: E402
from pyramid_env.agents.cardnet_torch import build, export  # noqa: E402


def test_the_first_losing_move_is_the_first_after_which_the_solver_says_lost(tmp_path):
    torch.manual_seed(0)
    net = export(build("cards", "small"), {"play": "policy"})  # untrained: it loses early
    net.save(tmp_path / "net.npz")
    rules = get_rules("msc")
    out = cards_mistakes.main([str(tmp_path / "net.npz"), "--seeds", "val[:6]",
                               "--out", str(tmp_path / "m.json")])  # fmt: skip
    assert out["lost"] == len(out["mistakes"]) > 0 and out["winnable"] >= out["lost"]
    for m in out["mistakes"]:
        if m["kind"] == "ran out":
            continue
        env = cards_mistakes.PyramidEnv(rules, obs_mode="counts", max_idle_passes=None)
        obs, _ = env.reset(options={"deal": m["deal"]})
        s = State(m["deal"], rules)
        for step in range(m["step"] + 1):  # replay: every earlier move kept it winnable
            legal = sorted(env.legal_actions())
            scores = net.act_logits(obs[None])[0]
            action = legal[int(scores[legal].argmax())]
            after = solve(s.child(MOVES[action]), check=False).status is Verdict.WIN
            assert after == (step < m["step"])
            if not after:  # the policy's chances there: of its move, and of the winning ones
                p = np.exp(scores[legal] - scores[legal].max())
                p /= p.sum()
                won = [solve(s.child(MOVES[a]), check=False).status is Verdict.WIN for a in legal]
                assert m["policy_move"] == pytest.approx(p[legal.index(action)], abs=1e-4)
                assert m["policy_winning"] == pytest.approx(p[won].sum(), abs=1e-4)
            s = s.child(MOVES[action])
            obs = env.step(action)[0]
        assert 1 <= m["winning"] < m["legal"]


def test_a_sampling_network_loses_there_the_deals_the_benchmark_says_it_loses(tmp_path):
    from pyramid_env.agents import CardNet, CardNetAgent, make_agent
    from pyramid_env.evaluation import evaluate

    shipped = make_agent("cards-msc").net
    net = CardNet(shipped.w, shipped.meta | {"play": "sample", "tie": 1.0})
    net.save(tmp_path / "net.npz")
    out = cards_mistakes.main([str(tmp_path / "net.npz"), "--seeds", "val[:8]",
                               "--out", str(tmp_path / "m.json")])  # fmt: skip
    report = evaluate(CardNetAgent(net), "msc", "val[:8]")
    lost = {e.deal for e in report.episodes if e.solver_won and not e.won}
    assert {m["deal"] for m in out["mistakes"]} == lost and lost


def test_a_verdict_the_budget_cannot_reach_is_counted_undecided_not_lost(tmp_path, monkeypatch):
    torch.manual_seed(0)
    export(build("cards", "small"), {"play": "policy"}).save(tmp_path / "net.npz")
    argv = [str(tmp_path / "net.npz"), "--seeds", "val[:6]", "--out", str(tmp_path / "m.json")]
    full = cards_mistakes.main(argv)
    monkeypatch.setattr(cards_mistakes, "BUDGET", 300)  # too few positions for one start
    short = cards_mistakes.main(argv)
    for out in (full, short):  # every deal is counted once: winnable, unwinnable or undecided
        assert out["deals"] == 6 == out["winnable"] + out["unwinnable"] + len(out["undecided"])
    assert full["undecided"] == [] and short["undecided"]
    assert full["winnable"] == short["winnable"] + len(short["undecided"])
    losses = {m["deal"]: m for m in full["mistakes"]}
    assert [m for m in short["mistakes"] if m["deal"] not in short["undecided"]]
    for m in short["mistakes"]:  # the same losing moves where the verdicts are known
        assert m == losses[m["deal"]]


def test_a_losing_move_of_unknown_verdict_leaves_the_loss_undecided(tmp_path, monkeypatch):
    torch.manual_seed(0)
    net = export(build("cards", "small"), {"play": "policy"})
    argv = [str(tmp_path / "net.npz"), "--seeds", "val[:6]", "--out", str(tmp_path / "m.json")]
    net.save(tmp_path / "net.npz")
    full = cards_mistakes.main(argv)
    hidden = set()  # the position after each first losing move
    for m in full["mistakes"]:
        env = cards_mistakes.PyramidEnv(get_rules("msc"), obs_mode="counts")
        obs, _ = env.reset(options={"deal": m["deal"]})
        for _ in range(m["step"] + 1):
            legal = sorted(env.legal_actions())
            obs = env.step(legal[int(net.act_logits(obs[None])[0][legal].argmax())])[0]
        hidden.add(env.state)
    real = cards_mistakes._verdict
    monkeypatch.setattr(cards_mistakes, "_verdict", lambda s: None if s in hidden else real(s))
    out = cards_mistakes.main(argv)
    assert out["lost"] == full["lost"] > 0
    first = {m["deal"]: m["step"] for m in full["mistakes"]}
    for m in out["mistakes"]:  # the loss is found a move later, and dated from the hidden one
        assert m["kind"] == "undecided" and m["since"] == first[m["deal"]] < m["step"]

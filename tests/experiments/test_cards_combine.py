"""cards_combine: several card networks as one, and the policy within a margin of Q's best."""

import numpy as np
import pytest

from experiments.cards_combine import Ensemble, heldout, with_pair_bias
from pyramid_env.agents import Turn, make_agent
from pyramid_env.agents.cardnet import PAIR_IDS, CardNet, CardNetAgent
from pyramid_env.engine.rules import get_rules
from pyramid_env.env import PyramidEnv


def _positions(n: int = 40) -> tuple[np.ndarray, list[Turn]]:
    """``counts`` observations and turns along a game the shipped network plays."""
    env = PyramidEnv("msc", obs_mode="counts", max_idle_passes=None)
    obs, _ = env.reset(options={"deal": 7})
    agent, rng, turns = make_agent("cards-msc"), np.random.default_rng(0), []
    for _ in range(n):
        turn = Turn(env.state, sorted(env.legal_actions()), env.known_stock(), obs)
        turns.append(turn)
        obs, _, done, cut, _ = env.step(agent.act(turn, rng))
        if done or cut:
            break
    return np.stack([t.obs for t in turns]), turns


def test_an_ensemble_plays_the_mean_of_its_networks_logits():
    net = make_agent("cards-msc").net
    other = CardNet({k: v * 0.5 for k, v in net.w.items()}, net.meta)
    x, _ = _positions()
    both = Ensemble([net, other], "q", 0.1).forward(x)
    np.testing.assert_allclose(both, (net.forward(x) + other.forward(x)) / 2, rtol=1e-5, atol=1e-5)
    assert not np.allclose(both, net.forward(x))
    with pytest.raises(NotImplementedError, match="ensemble"):
        Ensemble([net, other], "q", 0.1).save("x.npz")


def test_a_way_of_playing_is_refused_by_name():
    from experiments import cards_combine

    for way in ("q", "filter:0.1", "sample:0"):
        with pytest.raises(SystemExit):
            cards_combine.main(["--nets", "n.npz", "--seeds", "val[:1]", "--ways", way])


def test_one_network_sampled_through_ways_plays_as_its_own_sampling_agent():
    from experiments import cards_combine
    from pyramid_env.evaluation import evaluate

    net = make_agent("cards-msc").net
    from pyramid_env.lab.shipping import SHIP_DIR

    rows = cards_combine.play([SHIP_DIR / "cards-msc.npz"], "val[:3]", "msc", [],
                              ["sample:1.0"], 1)  # fmt: skip
    own = CardNetAgent(CardNet(net.w, net.meta | {"play": "sample", "tie": 1.0}))
    assert rows[0]["wins"] == evaluate(own, "msc", "val[:3]").summary()["wins"]


def test_an_ensemble_agent_plays_the_legal_move_of_highest_mean_score():
    net = make_agent("cards-msc").net
    other = CardNet({k: v * 0.5 for k, v in net.w.items()}, net.meta)
    agent = CardNetAgent(Ensemble([net, other], "q", 0.1), name="ensemble")
    _, turns = _positions()
    for t in turns:
        mean = (net.forward(t.obs[None]) + other.forward(t.obs[None])) / 2
        q = 1 / (1 + np.exp(-mean[0, 1]))
        pol = mean[0, 0] - mean[0, 0].max()
        legal = np.asarray(t.legal)
        assert agent.act(t, np.random.default_rng(0)) == legal[np.argmax((q + 0.1 * pol)[legal])]


def test_heldout_scores_each_way_by_the_solvers_labels(tmp_path):
    pytest.importorskip("torch")
    from experiments import card_data
    from pyramid_env.agents.cardnet_torch import counts_from_packed

    rules = get_rules("msc")
    deals = [1_000_040, 1_000_041, 1_000_042]
    games = [card_data.label_game(rules, 0.3, 0, n) for n in deals]
    data = card_data.replay(rules, deals, games)
    np.savez_compressed(tmp_path / "h.npz", rules=np.array("msc"), **data)
    path = "agents/trained/cards-msc.npz"
    rows = {r["way"]: r for r in heldout(tmp_path / "h.npz", [path], [0.05])}
    net = CardNet.load(path)
    legal = np.unpackbits(data["legal"], axis=1)[:, :327].astype(bool)
    wins = np.unpackbits(data["wins"], axis=1)[:, :327].astype(bool)
    hard = wins.sum(1) < legal.sum(1)
    assert hard.any()  # a random move at 30% of the turns meets losing moves
    right = []
    for i in np.flatnonzero(hard):  # the policy's legal favourite, one position at a time
        pol = net.forward(counts_from_packed(data["obs"][i : i + 1]))[0, 0]
        right.append(wins[i, np.flatnonzero(legal[i])[np.argmax(pol[legal[i]])]])
    assert rows["policy"]["right"] == pytest.approx(np.mean(right))
    played = []  # the Q way of playing (Q + 0.1 log policy), by the agent's own scores
    by_q = CardNet(net.w, net.meta | {"play": "q", "tie": 0.1})
    for i in np.flatnonzero(hard):
        scores = by_q.act_logits(counts_from_packed(data["obs"][i : i + 1]))[0]
        played.append(wins[i, np.flatnonzero(legal[i])[np.argmax(scores[legal[i]])]])
    assert rows["Q + 0.1 log policy"]["right"] == pytest.approx(np.mean(played))
    filtered = CardNetAgent(CardNet(net.w, net.meta | {"play": "filter", "tie": 0.05}))
    # The filter's row is the filter way of playing as the agent plays it (no state, no rng:
    # it reads the observation and the legal moves alone).
    chose = [
        wins[i, filtered.act(Turn(None, list(np.flatnonzero(legal[i])), 0,
                                  counts_from_packed(data["obs"][i : i + 1])[0]), None)]
        for i in np.flatnonzero(hard)
    ]  # fmt: skip
    assert rows["policy within 0.05 of the best Q"]["right"] == pytest.approx(np.mean(chose))
    assert rows["policy"]["hard"] == hard.sum()
    teacher = data["teacher"].astype(np.int64)[hard]  # the teacher's own move, for scale
    assert rows["teacher"]["right"] == pytest.approx(
        wins[hard][np.arange(len(teacher)), teacher].mean()
    )
    assert set(rows) == {"teacher", "Q", "policy", "Q + 0.01 log policy", "Q + 0.1 log policy",
                         "Q + 1.0 log policy", "policy within 0.05 of the best Q"}  # fmt: skip
    for r in rows.values():  # an empty split is None, not NaN
        assert all(r[k] is None or 0.0 <= r[k] <= 1.0 for k in ("right_seen", "right_hidden"))


def test_a_sampled_filter_draws_only_moves_q_keeps():
    from experiments import cards_combine

    net = make_agent("cards-msc").net
    x, turns = _positions()
    legal = np.stack([t.mask for t in turns])
    kept = np.isfinite(cards_combine.filter_scores(net.forward(x), legal, 0.05)) & legal
    assert (kept.sum(1) < legal.sum(1)).any()  # the veto bites somewhere along the game
    agent = CardNetAgent(cards_combine.SampledFilter(net, 0.05))
    rng = np.random.default_rng(0)
    for i, turn in enumerate(turns):
        drawn = {agent.act(turn, rng) for _ in range(20)}
        assert drawn <= set(np.flatnonzero(kept[i]))
    loose = cards_combine.SampledFilter(net, 1.0)  # Q keeps every move: the policy itself
    np.testing.assert_array_equal(loose.act_logits(x, legal)[legal], net.forward(x)[:, 0][legal])
    with pytest.raises(SystemExit):
        cards_combine.main(["--nets", "n.npz", "--seeds", "val[:1]", "--sample-filter"])


def test_mistakes_count_the_wrong_choices_by_kind_and_what_wins_there():
    from experiments.cards_combine import mistakes, move_kind
    from pyramid_env.engine.moves import MOVES, MoveKind

    draw = next(m.id for m in MOVES if m.kind is MoveKind.DRAW)
    pyr_pyr = next(m.id for m in MOVES if m.kind is MoveKind.PAIR and max(m.a, m.b) < 28)
    pyr_stock = next(m.id for m in MOVES if m.kind is MoveKind.PAIR and min(m.a, m.b) < 28
                     and max(m.a, m.b) >= 28)  # fmt: skip
    assert move_kind(pyr_pyr) == "PAIR pyramid-pyramid"
    assert move_kind(pyr_stock) == "PAIR pyramid-stock" and move_kind(draw) == "DRAW"
    wins = np.zeros((5, 327), bool)
    wins[:, draw] = True  # the draw wins everywhere; a pair of two pyramid cards at 3 and 4
    wins[3:, pyr_pyr] = True
    choice = np.array([pyr_stock, pyr_stock, pyr_pyr, pyr_stock, pyr_stock])
    where = np.array([True, True, True, True, False])  # position 4 is not counted
    expected = {"PAIR pyramid-stock, not DRAW": 2, "PAIR pyramid-pyramid, not DRAW": 1,
                "PAIR pyramid-stock, not DRAW / PAIR pyramid-pyramid": 1}  # fmt: skip
    assert mistakes(choice, wins, where) == expected
    choice[0] = draw  # a right choice is no mistake
    expected["PAIR pyramid-stock, not DRAW"] = 1
    assert mistakes(choice, wins, where) == expected


def test_heldout_scores_several_networks_as_one_too(tmp_path):
    pytest.importorskip("torch")
    from experiments import card_data
    from pyramid_env.agents.cardnet_torch import counts_from_packed

    rules = get_rules("msc")
    deals = [1_000_050, 1_000_051]
    data = card_data.replay(rules, deals, [card_data.label_game(rules, 0.3, 0, n) for n in deals])
    np.savez_compressed(tmp_path / "h.npz", rules=np.array("msc"), **data)
    net = CardNet.load("agents/trained/cards-msc.npz")
    rng = np.random.default_rng(0)  # another network: the same one with its weights jolted
    other = CardNet({k: v + rng.normal(0, v.std() + 1e-3, v.shape).astype(v.dtype)
                     for k, v in net.w.items()}, net.meta)  # fmt: skip
    other.save(tmp_path / "other.npz")
    paths = ["agents/trained/cards-msc.npz", tmp_path / "other.npz"]
    rows = [r for r in heldout(tmp_path / "h.npz", paths, [0.05]) if r["way"] == "policy"]
    assert [r["net"] for r in rows] == [str(p) for p in paths] + ["ensemble"]
    legal = np.unpackbits(data["legal"], axis=1)[:, :327].astype(bool)
    wins = np.unpackbits(data["wins"], axis=1)[:, :327].astype(bool)
    x = counts_from_packed(data["obs"])
    mean = Ensemble([net, other], "policy", 0.0).forward(x)
    choice = np.where(legal, mean[:, 0], -np.inf).argmax(1)
    hard = wins.sum(1) < legal.sum(1)
    assert rows[-1]["right"] == pytest.approx(wins[hard, choice[hard]].mean())
    assert rows[-1]["teacher"] == pytest.approx((choice == data["teacher"]).mean())
    alone = np.where(legal, net.forward(x)[:, 0], -np.inf).argmax(1)
    assert (choice != alone).any()  # the mean is not the first network's choice alone


def test_a_pair_bias_moves_only_the_pair_moves_policy_logits_and_plays_as_a_network():
    """``--pair-bias B``: the policy logit of every pair move is ``B`` higher, nothing else moves;
    a large one plays a pair wherever one is legal, a very negative one never where another
    move is legal."""
    net = make_agent("cards-msc").net
    x, turns = _positions()
    pairs = np.zeros(327, bool)
    pairs[PAIR_IDS] = True
    moved = with_pair_bias(net, -2.5).forward(x) - net.forward(x)
    assert np.allclose(moved[:, 0, pairs], -2.5, atol=1e-3) and np.allclose(moved[:, 0, ~pairs], 0)
    assert np.allclose(moved[:, 1], 0)  # Q untouched
    assert "heads.bias" in net.w and not np.allclose(with_pair_bias(net, 1).w["heads.bias"],
                                                     net.w["heads.bias"])  # fmt: skip
    for b, want in ((50.0, True), (-50.0, False)):
        agent = CardNetAgent(with_pair_bias(net, b))
        agent.net.meta |= {"play": "policy", "tie": 0.0}
        for turn in turns:
            has = any(pairs[a] for a in turn.legal)
            other = any(not pairs[a] for a in turn.legal)
            if has and other:
                assert pairs[agent.act(turn, np.random.default_rng(0))] == want

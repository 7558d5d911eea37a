"""card_data's labels are the solver's, and train_cards trains, evaluates and ships a network."""

import json
from pathlib import Path

import numpy as np
import pytest

from experiments import card_data
from pyramid_env.engine.moves import MOVES, MoveKind
from pyramid_env.engine.rules import get_rules
from pyramid_env.engine.state import State
from pyramid_env.solver import Verdict, solve

torch = pytest.importorskip("torch")

from experiments import plot_cards, train_cards  # noqa: E402
from pyramid_env.agents import CardNet, make_agent  # noqa: E402


def test_labels_are_the_solvers_verdicts_and_the_teacher_wins():
    rules = get_rules("msc")
    deals = [1_000_000 + i for i in range(4)]
    games = [card_data.label_game(rules, 0.2, 0, n) for n in deals]
    checked = 0
    for n, game in zip(deals, games, strict=True):
        s = State(n, rules)
        labelled = dict(zip(game["steps"], range(len(game["steps"])), strict=True))
        for step, action in enumerate(game["actions"]):
            if step in labelled and checked < 60:
                i = labelled[step]
                for a in game["legal"][i]:  # every label, checked by a fresh solve
                    after = solve(s.child(MOVES[a]), check=False).status is Verdict.WIN
                    assert after == (a in game["wins"][i]), (n, step, a)
                assert game["teacher"][i] in game["wins"][i]
                checked += 1
            s = s.child(MOVES[action])
    assert checked == 60


def test_replay_gives_the_envs_observations_and_masks():
    rules = get_rules("msc")
    deals = [1_000_010, 1_000_011]
    games = [card_data.label_game(rules, 0.1, 0, n) for n in deals]
    data = card_data.replay(rules, deals, games)
    n = sum(len(g["steps"]) for g in games)
    assert data["obs"].shape == (n, 122) and data["legal"].shape == (n, 41)
    legal = np.unpackbits(data["legal"], axis=1)[:, :327].astype(bool)
    wins = np.unpackbits(data["wins"], axis=1)[:, :327].astype(bool)
    assert (wins <= legal).all() and wins.any(axis=1).all()
    assert legal[np.arange(n), data["teacher"]].all()


def test_train_cards_tiny_run_writes_a_curve_and_a_playable_network(tmp_path, monkeypatch):
    monkeypatch.setattr(train_cards, "bf16_fast", lambda: False)  # the default follows the CPU
    rules = get_rules("msc")
    deals = [1_000_020 + i for i in range(6)]
    data = card_data.replay(rules, deals, [card_data.label_game(rules, 0.1, 0, n) for n in deals])
    np.savez_compressed(tmp_path / "d.npz", rules=np.array("msc"), **data)
    args = ["--data", str(tmp_path / "d.npz"), "--heldout", str(tmp_path / "d.npz"),
            "--arch", "cards", "flat", "--size", "small", "--steps", "20", "--batch", "32",
            "--eval-seeds", "val[:2]", "--workers", "1", "--threads", "1",
            "--out", str(tmp_path / "run")]  # fmt: skip
    results = train_cards.main(args)
    assert [r["arch"] for r in results] == ["cards", "flat"]
    for r in results:
        assert r["positions"] == len(data["teacher"]) and len(r["val"]) == len(train_cards.PLAYS)
        assert 0.0 <= r["heldout"]["q_loss"] and r["best_play"]["play"] in ("q", "policy", "both")
        assert r["bf16"] is False
    lines = (tmp_path / "run" / "curve.jsonl").read_text().splitlines()
    assert [json.loads(x)["arch"] for x in lines] == ["cards", "flat"]
    path = tmp_path / "run" / "cards_{}_s0".format(len(data["teacher"])) / "net.npz"
    agent = make_agent(str(path))  # the file is an agent, as the benchmark takes it
    assert isinstance(agent.net, CardNet) and agent.net.meta["play"] in ("q", "policy", "both")
    again = train_cards.main(args)  # finished runs are kept, not trained again
    assert [r["train_seconds"] for r in again] == [r["train_seconds"] for r in results]
    plot_cards.main([str(tmp_path / "run"), "--out", str(tmp_path / "c.png")])
    assert (tmp_path / "c.png").stat().st_size > 0


def test_train_cards_plays_only_the_ways_asked_for(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(train_cards, "bf16_fast", lambda: False)
    rules = get_rules("msc")
    deals = [1_000_020 + i for i in range(6)]
    data = card_data.replay(rules, deals, [card_data.label_game(rules, 0.1, 0, n) for n in deals])
    np.savez_compressed(tmp_path / "d.npz", rules=np.array("msc"), **data)
    args = ["--data", str(tmp_path / "d.npz"), "--arch", "cards", "--size", "small", "--steps",
            "5", "--batch", "16", "--eval-seeds", "val[:2]", "--workers", "1", "--threads", "1",
            "--out", str(tmp_path / "run"), "--plays", "sample:1.0"]  # fmt: skip
    (r,) = train_cards.main(args)
    assert [(v["play"], v["tie"]) for v in r["val"]] == [("sample", 1.0)]
    assert r["best_play"] == {"play": "sample", "tie": 1.0}
    (r,) = train_cards.main(args[:-1] + ["policy:0.0", "sample:1.0"])  # kept; the new way added
    assert [(v["play"], v["tie"]) for v in r["val"]] == [("sample", 1.0), ("policy", 0.0)]
    with pytest.raises(SystemExit):
        train_cards.main(args[:-1] + ["sample:2"])  # only the ways train_cards knows
    np.savez_compressed(
        tmp_path / "e.npz", rules=np.array("msc"), **{k: v[:0] for k, v in data.items()}
    )
    capsys.readouterr()
    with pytest.raises(SystemExit):
        train_cards.main(["--data", str(tmp_path / "e.npz"), "--out", str(tmp_path / "e")])
    assert "e.npz: no positions to train on" in capsys.readouterr().err


def test_network_behaviour_plays_the_networks_moves_and_labels_like_the_teacher(tmp_path):
    """DAgger's data: the network's own games, each legal move labelled by the solver."""
    net = train_cards.export(train_cards.build("cards", "small"), {"play": "policy"})
    net.save(tmp_path / "net.npz")
    rules = get_rules("msc")
    n = 1_000_030
    game = card_data.label_game(rules, 0.0, 0, n, str(tmp_path / "net.npz"))
    env_obs = []  # the network's move at each turn, from the observation a player sees
    env = card_data.PyramidEnv(rules, obs_mode="counts", max_idle_passes=None)
    obs, _ = env.reset(options={"deal": n})
    s = State(n, rules)
    labelled = dict(zip(game["steps"], range(len(game["steps"])), strict=True))
    for step, action in enumerate(game["actions"]):
        legal = sorted(env.legal_actions())
        scores = net.act_logits(obs[None])[0]
        assert action == legal[int(np.argmax(scores[legal]))]  # eps 0: always its own move
        if step in labelled:
            i = labelled[step]
            for a in game["legal"][i]:
                after = solve(s.child(MOVES[a]), check=False).status is Verdict.WIN
                assert after == (a in game["wins"][i])
            env_obs.append(obs)
        obs = env.step(action)[0]
        s = s.child(MOVES[action])
    assert len(env_obs) == len(game["steps"]) > 0


def test_training_goes_on_from_a_network_and_reads_several_files(tmp_path):
    rules = get_rules("msc")
    for name, deals in (("a", [1_000_040, 1_000_041]), ("b", [1_000_042])):
        games = [card_data.label_game(rules, 0.1, 0, n) for n in deals]
        data = card_data.replay(rules, deals, games)
        np.savez_compressed(tmp_path / f"{name}.npz", rules=np.array("msc"), **data)
    both = train_cards.load_data([tmp_path / "a.npz", tmp_path / "b.npz"], None)
    alone = [train_cards.load_data(tmp_path / f"{x}.npz", None) for x in "ab"]
    assert len(both["teacher"]) == sum(len(d["teacher"]) for d in alone)
    assert (both["obs"][: len(alone[0]["obs"])] == alone[0]["obs"]).all()
    head = train_cards.load_data([Path(f"{tmp_path / 'a.npz'}:5"), tmp_path / "b.npz"], None)
    assert len(head["teacher"]) == 5 + len(alone[1]["teacher"])
    assert (head["obs"][5:] == alone[1]["obs"]).all()
    with pytest.raises(SystemExit, match="holds"):
        train_cards.load_data([Path(f"{tmp_path / 'a.npz'}:99999")], None)
    start = train_cards.export(train_cards.build("cards", "small"), {})
    start.save(tmp_path / "start.npz")
    args = ["--data", str(tmp_path / "a.npz"), str(tmp_path / "b.npz"), "--init",
            str(tmp_path / "start.npz"), "--size", "small", "--steps", "0", "--batch", "8",
            "--eval-seeds", "val[:1]", "--workers", "1", "--threads", "1",
            "--out", str(tmp_path / "run")]  # fmt: skip
    (r,) = train_cards.main(args)
    assert r["positions"] == len(both["teacher"]) and r["init"].endswith("start.npz")
    trained = CardNet.load(tmp_path / "run" / f"cards_{r['positions']}_s0" / "net.npz")
    for k, v in start.w.items():  # zero steps: the starting weights, as stored (float16)
        assert np.array_equal(trained.w[k], v.astype(np.float16).astype(np.float32)), k
    deeper = train_cards.main(args[:-1] + [str(tmp_path / "deep"), "--layers", "3"])[0]
    assert deeper["layers"] == 3
    grown = CardNet.load(tmp_path / "deep" / f"cards_{r['positions']}_s0" / "net.npz")
    assert grown.meta["layers"] == 3 and "blocks.2.qkv.weight" in grown.w
    for k, v in start.w.items():  # the start's own weights, under blocks that add nothing
        assert np.array_equal(grown.w[k], v.astype(np.float16).astype(np.float32)), k
    assert not grown.w["blocks.2.out.weight"].any() and not grown.w["blocks.2.ff2.weight"].any()
    with pytest.raises(SystemExit):
        train_cards.main(args + ["--layers", "0"])
    with pytest.raises(SystemExit, match="--layers 1 with --init .*the network has 2"):
        train_cards.main(args[:-1] + [str(tmp_path / "shallow"), "--layers", "1"])


def test_losses_weigh_positions_and_at_weight_one_are_the_plain_means():
    g = torch.Generator().manual_seed(0)
    out = torch.randn(5, 2, 327, generator=g)
    legal = torch.rand(5, 327, generator=g) < 0.05
    legal[:, 0] = True
    wins = (torch.rand(5, 327, generator=g) < 0.5).float() * legal
    teacher = torch.zeros(5, dtype=torch.long)
    q, p = train_cards.losses(out, legal, wins, teacher, torch.ones(5))
    bce = torch.nn.functional.binary_cross_entropy_with_logits(out[:, 1], wins, reduction="none")
    assert torch.allclose(q, bce[legal].mean())
    pol = out[:, 0].masked_fill(~legal, -1e9)
    assert torch.allclose(p, torch.nn.functional.cross_entropy(pol, teacher))
    heavy = torch.tensor([1e6, 1.0, 1.0, 1.0, 1.0])  # position 0 alone, nearly
    q0, p0 = train_cards.losses(out, legal, wins, teacher, heavy)
    assert torch.allclose(q0, bce[0][legal[0]].mean(), atol=1e-4)
    assert torch.allclose(p0, torch.nn.functional.cross_entropy(pol[:1], teacher[:1]), atol=1e-4)


def test_only_hard_keeps_the_positions_where_a_legal_move_loses_and_cuts_every_array_alike():
    legal = np.zeros((5, 327), bool)
    legal[:, [0, 40]] = True
    wins = legal.copy()
    wins[[1, 4], 40] = False  # there the pair loses
    data = {"legal": np.packbits(legal, axis=1), "wins": np.packbits(wins, axis=1),
            "teacher": np.arange(5, dtype=np.int16), "deal": np.arange(10, 15)}  # fmt: skip
    kept = card_data.only_hard(data)
    assert kept["teacher"].tolist() == [1, 4] and kept["deal"].tolist() == [11, 14]
    assert (kept["legal"] == data["legal"][[1, 4]]).all()
    assert (kept["wins"] == data["wins"][[1, 4]]).all()


def test_hard_share_draws_that_share_of_each_batch_from_the_positions_where_a_move_loses():
    legal = np.zeros((1000, 327), bool)
    legal[:, :2] = True
    wins = legal.astype(np.float16)
    hard = np.zeros(1000, bool)
    hard[[3, 500, 998]] = True
    wins[hard, 1] = 0.0  # there the second legal move loses
    data = {"legal": legal, "wins": wins, "teacher": np.zeros(1000, np.int16)}
    assert (train_cards.hard_positions(data) == hard).all()
    draw = train_cards.batches(data, 64, 0.25, np.random.default_rng(0))
    for _ in range(20):
        idx = next(draw)
        assert len(idx) == 64 and set(idx[:16]) <= {3, 500, 998}
    uniform = next(train_cards.batches(data, 64, 0.0, np.random.default_rng(1)))
    assert (uniform == np.random.default_rng(1).integers(0, 1000, 64)).all()  # as before
    for bad in (1.0, -0.1):
        with pytest.raises(SystemExit, match=f"--hard-share {bad}: in"):
            next(train_cards.batches(data, 64, bad, np.random.default_rng(0)))
    easy = data | {"wins": legal.astype(np.float16)}
    with pytest.raises(SystemExit, match="0 here"):
        next(train_cards.batches(easy, 64, 0.5, np.random.default_rng(0)))


def test_safe_share_draws_the_positions_where_the_teacher_removes_with_the_draw_open():
    draw_id = next(a for a, m in enumerate(MOVES) if m.kind is MoveKind.DRAW)
    pair_id = next(a for a, m in enumerate(MOVES) if m.kind is MoveKind.PAIR)
    legal = np.zeros((1000, 327), bool)
    legal[:, [draw_id, pair_id]] = True
    legal[:500, draw_id] = False  # no draw open: no choice between a pair and the draw
    teacher = np.full(1000, pair_id, np.int16)
    teacher[[600, 601]] = draw_id  # the teacher draws: not a safe pair
    wins = legal.astype(np.float16)
    wins[[700, 701], pair_id] = 0.0  # the pair loses: a hard position, not a safe one
    data = {"legal": legal, "wins": wins, "teacher": teacher}
    safe = train_cards.safe_choices(data)
    assert safe.sum() == 500 - 4 and not safe[:500].any() and not safe[[600, 601, 700, 701]].any()
    draw = train_cards.batches(data, 64, 0.25, np.random.default_rng(0), safe_share=0.5)
    for _ in range(20):
        idx = next(draw)
        assert len(idx) == 64 and set(idx[:16]) <= {700, 701} and safe[idx[16:48]].all()
    hard_only = next(train_cards.batches(data, 64, 0.25, np.random.default_rng(3)))
    rng = np.random.default_rng(3)  # a hard share alone draws as it did before
    assert (hard_only == np.concatenate([rng.choice([700, 701], 16),
                                         rng.integers(0, 1000, 48)])).all()  # fmt: skip
    with pytest.raises(SystemExit, match="--safe-share 1.0: in"):
        next(train_cards.batches(data, 64, 0.0, np.random.default_rng(0), safe_share=1.0))
    with pytest.raises(SystemExit, match="at most 1 in all"):
        next(train_cards.batches(data, 64, 0.5, np.random.default_rng(0), safe_share=0.6))


def test_honest_teacher_searches_what_a_player_knows_and_its_move_is_played(monkeypatch):
    rules = get_rules("msc")
    n = 1_000_024  # winnable
    calls = []

    def spy(s, known, prefs, samples, budget, rng):  # the last preference: never greedy's own
        calls.append((s.fields(), known, prefs[-1]))
        return _Found(prefs[-1])

    monkeypatch.setattr(card_data, "search", spy)
    game = card_data.label_game(rules, 0.0, 0, n, samples=4)
    env = card_data.PyramidEnv(rules, obs_mode="counts", max_idle_passes=None)
    env.reset(options={"deal": n})
    labelled = dict(zip(game["steps"], range(len(game["steps"])), strict=True))
    searched = 0
    for step, action in enumerate(game["actions"]):
        s, known = env.state, env.known_stock()
        hidden = known & s.left != s.left
        if step in labelled and hidden and len(game["legal"][labelled[step]]) > 1:
            fields, seen, choice = calls[searched]
            assert fields == s.fields() and seen == known  # a player's view, not the deal
            assert game["teacher"][labelled[step]] == choice == action  # labelled and played
            searched += 1
        env.step(action)
    assert searched == len(calls) > 3


def test_scouting_teacher_draws_until_all_is_seen_then_keeps_the_deal_winnable(capsys):
    rules = get_rules("msc")
    deals = [1_000_030, 1_000_031]  # winnable once scouted
    scouted = after = 0
    for n in deals:
        game = card_data.label_game(rules, 0.0, 0, n, scout=True)
        env = card_data.PyramidEnv(rules, obs_mode="counts", max_idle_passes=None)
        env.reset(options={"deal": n})
        labelled = dict(zip(game["steps"], range(len(game["steps"])), strict=True))
        for step, action in enumerate(game["actions"]):
            s, known = env.state, env.known_stock()
            i = labelled[step]  # every position of a game the teacher goes on to win
            assert game["teacher"][i] == action  # eps 0: the teacher's move is played
            if known & s.left != s.left:  # a card unseen: a King, else draw or recycle
                move = MOVES[action]
                assert move.kind.name in ("KING", "DRAW", "RECYCLE"), (n, step, move)
                scouted += 1
            else:  # all seen: a move that keeps the deal winnable
                assert action in game["wins"][i]
                after += 1
            env.step(action)
        assert env.state.pyr == 0  # won
    assert scouted > 40 and after > 40
    with pytest.raises(ValueError, match="one honest teacher"):
        card_data.label_game(rules, 0.0, 0, deals[0], samples=4, scout=True)
    with pytest.raises(SystemExit):
        card_data.main(["--pimc", "4", "--scout", "--out", "x.npz"])
    assert "--pimc 4 and --scout: one honest teacher" in capsys.readouterr().err


class _Found:
    def __init__(self, action: int) -> None:
        self.action = action


def test_soft_labels_leave_the_game_alone_and_count_the_orders_a_player_cannot_tell_apart(
    monkeypatch, tmp_path
):
    rules = get_rules("msc")
    deals = [1_000_059]  # a short game with positions where the orders disagree
    hard = [card_data.label_game(rules, 0.1, 0, n) for n in deals]
    soft = [card_data.label_game(rules, 0.1, 0, n, worlds=4) for n in deals]
    mixed = 0
    for h, s in zip(hard, soft, strict=True):
        assert {k: s[k] for k in h} == h  # the same game, the same verdicts
        for legal, wins, row in zip(s["legal"], s["wins"], s["soft"], strict=True):
            for a, v in zip(legal, row, strict=True):
                # The true order is one of at most 4 counted: a share of at least 1/4 if the
                # move keeps it winnable, at most 3/4 if not.
                assert 64 <= v <= 255 if a in wins else 0 <= v <= 191
            mixed += any(0 < v < 255 for v in row)
    assert mixed > 0  # some position where the orders disagree
    # Every world the true order: the shares are the verdicts.
    monkeypatch.setattr(card_data, "determinize", lambda s, places, cards, rng: s.copy())
    game = card_data.label_game(rules, 0.1, 0, deals[0], worlds=3)
    for legal, wins, row in zip(game["legal"], game["wins"], game["soft"], strict=True):
        assert row == [255 * (a in wins) for a in legal]
    data = card_data.replay(rules, deals, soft)
    np.savez_compressed(tmp_path / "s.npz", rules=np.array("msc"), **data)
    d = train_cards.load_data(tmp_path / "s.npz", None, "soft")
    assert (d["wins"][~d["legal"]] == 0).all() and ((d["wins"] > 0) & (d["wins"] < 1)).any()
    v = train_cards.load_data(tmp_path / "s.npz", None)
    assert set(np.unique(v["wins"])) <= {0.0, 1.0} and "soft" not in v
    # a position is hard (--hard-weight) by its verdicts, not by a share below one
    assert (d["verdict"] == v["wins"]).all()
    lost = v["wins"].sum(1) < v["legal"].sum(1)
    assert (train_cards.position_weights(d, 4.0).numpy() == np.where(lost, 4.0, 1.0)).all()
    two = {"legal": np.ones((2, 2), bool), "verdict": np.array([[1, 1], [1, 0]], np.float16),
           "wins": np.array([[1, 0.5], [1, 0]], np.float16)}  # fmt: skip
    assert train_cards.position_weights(two, 4.0).tolist() == [1.0, 4.0]  # a share < 1: not hard
    plain = card_data.replay(rules, deals, hard)
    np.savez_compressed(tmp_path / "h.npz", rules=np.array("msc"), **plain)
    with pytest.raises(SystemExit, match="soft"):
        train_cards.load_data(tmp_path / "h.npz", None, "soft")


def test_rollout_labels_are_greedy_carefuls_own_outcome_after_each_move(tmp_path):
    rules = get_rules("msc")
    deals = [1_000_059, 1_000_003]
    plain = [card_data.label_game(rules, 0.1, 0, n) for n in deals]
    rolled = [card_data.label_game(rules, 0.1, 0, n, rollout=True) for n in deals]
    careful = make_agent("greedy-careful")
    differ = 0
    for n, p, r in zip(deals, plain, rolled, strict=True):
        assert {k: r[k] for k in p} == p  # the same game, the same verdicts
        s = State(n, rules)
        labelled = dict(zip(r["steps"], range(len(r["steps"])), strict=True))
        for step, action in enumerate(r["actions"]):
            if step in labelled:
                i = labelled[step]
                assert set(r["rollout"][i]) <= set(r["wins"][i])  # lost for all: lost for it
                for a in r["legal"][i]:  # played out afresh, without the shared outcomes
                    t = s.child(MOVES[a])
                    for _ in range(card_data.MAX_STEPS):
                        legal = card_data.legal_ids(t)
                        if not legal or card_data.is_won(t):
                            break
                        t = t.child(MOVES[careful.act(card_data.Turn(t, legal, t.left), None)])
                    assert (a in r["rollout"][i]) == card_data.is_won(t)
                differ += set(r["rollout"][i]) != set(r["wins"][i])
            s = s.child(MOVES[action])
    assert differ > 0  # somewhere the honest player loses after a move the solver would win
    data = card_data.replay(rules, deals, rolled)
    np.savez_compressed(tmp_path / "r.npz", rules=np.array("msc"), **data)
    d = train_cards.load_data(tmp_path / "r.npz", None, "rollout")
    v = train_cards.load_data(tmp_path / "r.npz", None)
    assert (d["verdict"] == v["wins"]).all() and (d["wins"] <= v["wins"]).all()
    assert (d["wins"] < v["wins"]).any()
    np.savez_compressed(tmp_path / "p.npz", rules=np.array("msc"),
                        **card_data.replay(rules, deals, plain))  # fmt: skip
    with pytest.raises(SystemExit, match="rollout"):
        train_cards.load_data(tmp_path / "p.npz", None, "rollout")


def test_moving_average_and_checkpoints_leave_training_alone_and_are_played(tmp_path, capsys):
    """``--ema``/``--checkpoints``: saved networks are the average; training runs as without."""
    from experiments import cards_steps

    rules = get_rules("msc")
    deals = [1_000_050]
    data = card_data.replay(rules, deals, [card_data.label_game(rules, 0.1, 0, n) for n in deals])
    data_path = _saved(tmp_path, data)
    data = train_cards.load_data(data_path, None)

    def run(ema: float, every: int) -> tuple[dict, list]:
        torch.manual_seed(0)
        net, seen = train_cards.build("cards", "small"), []

        def keep(step: int, now: torch.nn.Module) -> None:
            seen.append((step, {k: v.clone() for k, v in now.state_dict().items()}))

        train_cards.fit(net, data, 7, 8, 1e-3, 0, ema=ema, every=every, checkpoint=keep)
        return net.state_dict(), seen

    plain, _ = run(0.0, 0)
    averaged, seen = run(0.5, 3)
    again, _ = run(0.5, 0)
    assert [s for s, _ in seen] == [3, 6, 7]  # every 3 steps and the last
    for k in plain:  # checkpoints do not disturb training; the run ends with the average
        assert torch.equal(averaged[k], again[k]), k
        assert torch.equal(seen[-1][1][k], averaged[k]), k
    moved = [k for k in plain if plain[k].is_floating_point()]
    assert any(not torch.equal(averaged[k], plain[k]) for k in moved)

    args = ["--data", str(tmp_path / "d.npz"), "--size", "small", "--steps", "4", "--batch", "8",
            "--ema", "0.9", "--checkpoints", "2", "--eval-seeds", "val[:1]", "--workers", "1",
            "--threads", "1", "--out", str(tmp_path / "run")]  # fmt: skip
    (r,) = train_cards.main(args)
    folder = tmp_path / "run" / f"cards_{r['positions']}_s0"
    assert sorted(p.name for p in (folder / "steps").iterdir()) == [
        "step_000002.npz", "step_000004.npz"]  # fmt: skip
    argv = [str(folder), "--seeds", "val[:1]", "--plays", "q:0.1", "policy:0"]
    rows = cards_steps.main(argv + ["--out", str(tmp_path / "s.png"), "--heldout", str(data_path)])
    held = [json.loads(x) for x in (folder / "heldout.jsonl").read_text().splitlines()]
    assert [x["step"] for x in held] == [2, 4] and all(x["policy_loss"] > 0 for x in held)
    assert [(x["step"], x["play"]) for x in rows] == [
        (2, "policy"), (2, "q"), (4, "policy"), (4, "q")]  # fmt: skip
    assert all(x["deals"] == 1 for x in rows) and (tmp_path / "s.png").stat().st_size > 0
    assert cards_steps.main(argv) == rows  # rows already played are read, not played again
    for bad_play in ("greedy", "q:", "q:abc"):  # a weight that is not a number, named too
        with pytest.raises(SystemExit, match="PLAY:WEIGHT"):
            cards_steps.parse_play(bad_play)
    assert cards_steps.parse_play("q:0.1") == ("q", 0.1)
    for flag, value in (("--ema", "1.0"), ("--ema", "-0.1"), ("--checkpoints", "-5")):
        bad = args[:2] + [flag, value, "--out", str(tmp_path / "bad")]
        with pytest.raises(SystemExit):
            train_cards.main(bad)
        assert f"{flag} {float(value) if flag == '--ema' else value}" in capsys.readouterr().err


def _saved(tmp_path: Path, data: dict) -> Path:
    np.savez_compressed(tmp_path / "d.npz", rules=np.array("msc"), **data)
    return tmp_path / "d.npz"


def test_pass_counts_are_the_fewest_recycles_that_still_win_and_discount_the_q_target(tmp_path):
    """``--passes``: where every card is seen, each winning move's fewest further recycles."""
    rules = get_rules("relaxed")
    deals = [5001, 5003]
    plain = [card_data.label_game(rules, 0.1, 0, n, scout=True) for n in deals]
    counted = [
        card_data.label_game(rules, 0.1, 0, n, scout=True, passes=card_data.PASS_CAP) for n in deals
    ]
    told = 0
    for n, p, c in zip(deals, plain, counted, strict=True):
        assert {k: c[k] for k in p} == p  # the same game, the same verdicts
        s = State(n, rules)
        labelled = dict(zip(c["steps"], range(len(c["steps"])), strict=True))
        for step, action in enumerate(c["actions"]):
            if step in labelled and len(set(c["passes"][labelled[step]])) > 1:
                i = labelled[step]
                told += 1
                for a, k in zip(c["wins"][i], c["passes"][i], strict=True):
                    t = s.child(MOVES[a])
                    turn = MOVES[a].kind is card_data.MoveKind.RECYCLE  # spends one itself
                    if turn and k == card_data.PASS_CAP:
                        continue  # capped with the recycle counted: nothing exact to check
                    m = k - turn  # recycles still needed from the child
                    wins = {}
                    for more in (m - 1, m):  # one fewer loses; that many wins (unless capped)
                        if more < 0 or (more == m and m == card_data.PASS_CAP):
                            continue
                        cut = t.copy()
                        cut.rules = get_rules("relaxed", passes=t.recycles + more + 1)
                        cut.knobs = cut.rules.knobs
                        wins[more] = solve(cut, check=False).status is Verdict.WIN
                    assert wins == {x: x == m for x in wins}, (n, step, a, k, wins)
            s = s.child(MOVES[action])
    assert told > 0  # somewhere the winning moves need different numbers of passes
    data = card_data.replay(rules, deals, counted)
    np.savez_compressed(tmp_path / "c.npz", rules=np.array("relaxed"), **data)
    d = train_cards.load_data(tmp_path / "c.npz", None, "passes", 0.5)
    v = train_cards.load_data(tmp_path / "c.npz", None)
    assert (d["verdict"] == v["wins"]).all()
    assert ((d["wins"] > 0) == (v["wins"] > 0)).all()  # lost stays lost, won stays above 0
    best = np.where(d["legal"], d["wins"], 0).max(1)
    assert (best == 1).all()  # the move needing the fewest passes keeps the verdict's 1
    assert np.isin(d["wins"][d["wins"] > 0], [1.0, 0.5, 0.25]).all() and (d["wins"] == 0.5).any()
    with pytest.raises(ValueError, match="gamma 0"):
        train_cards.load_data(tmp_path / "c.npz", None, "passes", 0.0)

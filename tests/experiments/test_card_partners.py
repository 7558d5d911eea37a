"""The plan targets (``card_data --line``) and the auxiliary partner head that learns them."""

import numpy as np
import pytest

from experiments import card_data
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.rules import get_rules
from pyramid_env.engine.state import State
from pyramid_env.lab.card_data import line_partners, load_data
from pyramid_env.solver import winning_line

torch = pytest.importorskip("torch")

from experiments import partner_probe, train_cards  # noqa: E402
from pyramid_env.agents.cardnet import CardNet  # noqa: E402
from pyramid_env.agents.cardnet_torch import build, counts_from_packed, tokens  # noqa: E402
from pyramid_env.lab.partner import PartnerHead, partner_right  # noqa: E402


def check_plan(rules, deal, path, plan):
    """Every row is the rest of the line's pairs, read against the engine's own cards."""
    ranks = np.array([RANK[c] for c in State(deal, rules).deal.cards])
    assert plan.shape == (len(path), 52)
    s = State(deal, rules)
    for t, a in enumerate(path):
        row = plan[t]
        there = np.concatenate([(s.pyr >> np.arange(28)) & 1, (s.left >> np.arange(24)) & 1])
        assert ((row == -1) == (there == 0)).all()  # gone cards, and only they, are left out
        assert (row[:28][there[:28] == 1] > 0).all()  # a won line clears the whole pyramid
        for i in np.flatnonzero(row > 0):
            j = row[i] - 1  # the partner's card index
            assert row[j] == i + 1  # pairs are mutual
            assert (i == j and ranks[i] == 13) or ranks[i] + ranks[j] == 13
        s = s.child(card_data.MOVES[a])


def test_line_partners_pair_the_cards_the_line_removes_together():
    """Along a solver's winning line, each row names the partner each card is removed with."""
    rules = get_rules("msc")
    deal = next(n for n in range(1_000_020, 1_000_040) if winning_line(State(n, rules)))
    path = winning_line(State(deal, rules))
    plan = line_partners(rules, deal, path)
    check_plan(rules, deal, path, plan)
    last = card_data.MOVES[path[-1]]
    assert (plan[-1] > 0).sum() == (1 if last.kind is card_data.MoveKind.KING else 2)
    with pytest.raises(ValueError, match="does not win"):
        line_partners(rules, deal, path[:-1])


def test_the_line_is_the_game_to_its_last_winnable_position_then_the_solvers():
    """``label_game(line=True)``: a won path that follows the game while it stays winnable, so
    every labelled position's plan is a winning line from it; the game itself is unchanged."""
    rules = get_rules("msc")
    for deal in range(1_000_020, 1_000_026):
        game = card_data.label_game(rules, 0.3, 0, deal, line=True)
        plain = card_data.label_game(rules, 0.3, 0, deal)
        assert game["actions"] == plain["actions"] and game["steps"] == plain["steps"]
        if not game["steps"]:
            assert game["path"] is None
            continue
        path = game["path"]
        last = game["steps"][-1]
        assert path[:last] == game["actions"][:last]
        check_plan(rules, deal, path, line_partners(rules, deal, path))
    data = card_data.replay(rules, [deal], [game])
    assert data["partner"].shape == (len(data["teacher"]), 52)


def test_partner_head_learns_the_plan_and_leaves_out_the_cards_gone(tmp_path, monkeypatch):
    """The head's loss counts only the cards still there, never names a gone card, and its
    gradient reaches the network; ``train_cards --partner`` trains it and reports it held out."""
    rules = get_rules("msc")
    deals = [1_000_020 + i for i in range(4)]
    games = [card_data.label_game(rules, 0.1, 0, n, line=True) for n in deals]
    data = card_data.replay(rules, deals, games)
    np.savez_compressed(tmp_path / "d.npz", rules=np.array("msc"), **data)
    d = load_data([tmp_path / "d.npz"], None)
    net = build("tally", "small", 2)
    head = PartnerHead(net.meta["d"])
    seen = {}
    net.ln.register_forward_hook(lambda m, i, o: seen.update(h=o))
    x = torch.as_tensor(d["obs"][:64])
    net(tokens(x), torch.as_tensor(d["legal"][:64]))
    target = torch.as_tensor(d["partner"][:64].astype(np.int64))
    loss, right = head(seen["h"], target)
    assert torch.isfinite(loss) and 0 <= float(right) <= 1
    loss.backward()
    assert net.blocks[0].qkv.weight.grad.abs().sum() > 0
    gone = torch.full_like(target, -1)
    assert float(head(seen["h"], gone)[0].detach()) == 0.0  # nothing to learn: no loss, no NaN
    monkeypatch.setattr(train_cards, "bf16_fast", lambda: False)
    args = ["--data", str(tmp_path / "d.npz"), "--heldout", str(tmp_path / "d.npz"),
            "--arch", "tally", "--size", "small", "--steps", "500", "--batch", "32",
            "--partner", "1", "--plays", "policy:0.0", "--eval-seeds", "val[:1]",
            "--workers", "1", "--threads", "1", "--out", str(tmp_path / "run")]  # fmt: skip
    (r,) = train_cards.main(args)
    assert r["partner"] == 1.0 and r["final"]["partner_loss"] > 0
    # 500 steps on these few positions: the head names most partners of what it trained on
    assert r["heldout"]["partner_right"] > 0.5 and r["final"]["partner_right"] > 0.5
    assert partner_right(net, head, d) < 0.5  # the untrained network and head do not
    # the probe reads the shipped network as it plays: its beta-0 row is the numpy policy's
    run = tmp_path / "run" / f"tally_{len(d['teacher'])}_s0"
    probe = partner_probe.main(["--run", str(run), "--heldout", str(tmp_path / "d.npz")])
    logits = CardNet.load(run / "net.npz").forward(counts_from_packed(d["obs"]))[:, 0]
    pick = np.where(d["legal"], logits, -np.inf).argmax(1)
    ok = d["wins"][np.arange(len(pick)), pick].astype(bool)
    hard = (d["legal"] & d["wins"].astype(bool)).sum(1) < d["legal"].sum(1)
    assert probe["rows"][0] == {"read": "plan", "beta": 0.0, "hard_right": ok[hard].mean(),
                                "all_right": ok.mean()}  # fmt: skip
    np.savez_compressed(tmp_path / "bare.npz", rules=np.array("msc"),
                        **{k: v for k, v in data.items() if k != "partner"})  # fmt: skip
    with pytest.raises(SystemExit):
        train_cards.main([*args[:1], str(tmp_path / "bare.npz"), *args[2:]])

"""The card network: numpy and torch twins agree, the shipped file round-trips, play is legal."""

from typing import Any

import numpy as np
import pytest

from pyramid_env.agents import Turn, make_agent
from pyramid_env.agents.cardnet import (
    CardNet,
    CardNetAgent,
    covering_partners,
    cycle_order,
    parse_counts,
    relations,
    tallies,
)
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.errors import PyramidError
from pyramid_env.engine.layout import BELOW_MASK, COVER_MASK, COVERED_BY
from pyramid_env.engine.moves import DRAW, MOVES, MoveKind
from pyramid_env.env import PyramidEnv
from pyramid_env.evaluation import evaluate

torch = pytest.importorskip("torch")

from pyramid_env.agents.cardnet_metrics import held_out  # noqa: E402
from pyramid_env.agents.cardnet_torch import (  # noqa: E402
    INPUTS,
    build,
    counts_from_packed,
    export,
    relabel,
    tokens,
    with_inputs,
    with_probe,
)

GROWN_INPUTS = tuple(f"{k}.weight" for k in INPUTS)  # the embeddings that start at zero


def _positions(rules: str, n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Counts observations and their packed forms along random games."""
    env = PyramidEnv(rules, obs_mode="dict")
    rng = np.random.default_rng(0)
    packed = []
    deal = 0
    while len(packed) < n:
        env.reset(options={"deal": deal})
        deal += 1
        while legal := env.legal_actions():
            obs = env._encoder.encode(env.state, env.known_stock(), True)
            packed.append(np.concatenate([obs[k] for k in (
                "pyramid", "exposed", "stock", "stock_where", "counters", "unseen")]))  # fmt: skip
            _, _, term, trunc, _ = env.step(int(rng.choice(legal)))
            if term or trunc:
                break
    packed = np.array(packed[:n], np.int16)
    return counts_from_packed(packed), packed


@pytest.mark.parametrize("arch", ["cards", "rel", "probe", "order", "tally", "cover", "flat"])
def test_numpy_twin_gives_the_torch_outputs(arch):
    counts, packed = _positions("msc")
    torch.manual_seed(1)
    net = build(arch, "small").eval()
    with torch.no_grad():
        for name, p in net.named_parameters():
            # trained, not the zeros at start (the order embedding's row 0 stays zero)
            if name.endswith("rel") or "probe_out" in name or name in GROWN_INPUTS:
                p.normal_(0.0, 2.0 if name.endswith("rel") else 0.5)
        if arch == "order":
            net.order.weight[0] = 0.0
        inp = torch.as_tensor(counts) if arch == "flat" else tokens(torch.as_tensor(packed))
        expected = net(inp).numpy()
    got = export(net, {}).forward(counts)
    assert got.shape == (len(counts), 2, 327)
    np.testing.assert_allclose(got, expected, atol=1e-4)


@pytest.mark.parametrize("arch", ["rel", "tally"])
def test_scoring_only_the_legal_moves_gives_their_scores_and_gradients(arch):
    """Training passes ``legal`` so that only legal pair moves are scored: it must be exact."""
    _, packed = _positions("msc")
    legal = torch.as_tensor(_legal(packed))
    assert legal[:, 32:].sum() > 5  # pair moves to score
    torch.manual_seed(2)
    net = build(arch, "small", layers=3)
    with torch.no_grad():
        for name, p in net.named_parameters():
            if name.endswith("rel") or name in GROWN_INPUTS:
                p.normal_(0.0, 1.0)
    x = tokens(torch.as_tensor(packed))
    grads = []
    for given in (None, legal):
        net.zero_grad()
        out = net(x, given)
        picked = out.masked_select(legal[:, None].expand(-1, 2, -1))
        (picked * torch.linspace(-1, 1, len(picked))).sum().backward()
        grads.append({k: p.grad.clone() for k, p in net.named_parameters() if p.grad is not None})
        if given is None:
            full = picked.detach()
    np.testing.assert_allclose(picked.detach().numpy(), full.numpy(), atol=1e-5)
    assert grads[0].keys() == grads[1].keys()
    for k in grads[0]:
        np.testing.assert_allclose(grads[1][k].numpy(), grads[0][k].numpy(), atol=1e-4, err_msg=k)


def _random_games(env: PyramidEnv, deals: range, seed: int, moves: int = 10**6) -> Any:
    """Walk random games on ``deals``, yielding the deal at each position the env stands at."""
    rng = np.random.default_rng(seed)
    for deal in deals:
        env.reset(options={"deal": deal})
        for _ in range(moves):
            yield deal
            legal = env.legal_actions()
            if not legal:
                break
            _, _, term, trunc, _ = env.step(int(rng.choice(legal)))
            if term or trunc:
                break


def test_cycle_order_counts_the_draws_until_a_stock_card_and_the_cards_on_a_waste_card():
    env = PyramidEnv("msc", obs_mode="dict")
    checked = 0
    for deal in _random_games(env, range(6), seed=3, moves=60):
        s = env.state
        where = env._encoder.encode(s, env.known_stock())["stock_where"]
        order = cycle_order(where[None])[0]
        live = [i for i in range(24) if s.left >> i & 1]
        assert (order[[i for i in range(24) if i not in live]] == 0).all()
        waste = [i for i in live if i < s.ptr]  # bottom first: the top is the last
        for k, i in enumerate(reversed(waste)):
            assert order[i] == 25 + k
        ahead = [i for i in live if i >= s.ptr]
        assert sorted(order[ahead]) == list(range(1, len(ahead) + 1))
        # a card k + 1 in the stock is played after k draws bring up the cards before it
        for i in ahead:
            t = s
            for _ in range(order[i] - 1):
                t = t.child(DRAW)
            assert i in t.tops(), (deal, i, order[i])
            checked += 1
    assert checked > 200


@pytest.mark.parametrize(("name", "seed"), [("order", 4), ("tally", 6), ("cover", 8)])
def test_an_added_input_starts_as_nothing_and_learns(name, seed):
    counts, packed = _positions("msc")
    torch.manual_seed(seed)
    net = build("rel", "small")
    x = tokens(torch.as_tensor(packed))
    with torch.no_grad():
        for param_name, p in net.named_parameters():
            if param_name.endswith(".rel"):
                p.normal_(0.0, 2.0)
        before = net(x).numpy()
    grown = with_inputs(net, name)
    assert grown.meta[name] and grown.meta["rel"]
    assert not any(grown.meta.get(other) for other in INPUTS if other != name)
    out = grown(x)
    np.testing.assert_allclose(out.detach().numpy(), before, atol=1e-6)
    out.square().mean().backward()
    grad = getattr(grown, name).weight.grad
    assert grad.abs().sum() > 0
    if name == "order":  # row 0: no card, no gradient
        assert grad[0].abs().sum() == 0
    with pytest.raises(ValueError, match=f"has the '{name}' input already"):
        with_inputs(grown, name)


def test_tallies_count_each_cards_partners_and_rivals_as_the_engine_deals_them():
    env = PyramidEnv("two-pass", obs_mode="dict")  # unseen cards for a while, then none
    checked = 0
    for deal in _random_games(env, range(5), seed=5):
        s, seen = env.state, env.known_stock()
        live = [s.pyr >> i & 1 for i in range(28)] + [s.left >> i & 1 for i in range(24)]
        rank = [RANK[c] for c in s.deal.cards]
        known = [live[i] and (i < 28 or seen >> (i - 28) & 1) for i in range(52)]
        obs = env._encoder.encode(s, seen, True)
        tok = np.concatenate([obs["pyramid"], obs["stock"]])[None]
        got = tallies(tok, obs["unseen"][None])[0]
        for i in range(52):
            if not known[i] or rank[i] == 13:
                assert (got[i] == 0).all()
                continue
            r = rank[i]

            def cover(j: int, i: int = i) -> bool:
                return i < 28 and j < 28 and bool(BELOW_MASK[i] >> j & 1 | BELOW_MASK[j] >> i & 1)

            partners = [j for j in range(52) if known[j] and rank[j] == 13 - r]
            twins = [j for j in range(52) if known[j] and rank[j] == r and j != i]
            unseen = [j for j in range(28, 52) if live[j] and not known[j]]
            want = [
                sum(j < 28 and not cover(j) for j in partners),
                sum(j < 28 and cover(j) for j in partners),
                sum(j >= 28 for j in partners),
                sum(rank[j] == 13 - r for j in unseen),
                sum(j < 28 for j in twins),
                sum(j >= 28 for j in twins),
            ]
            assert list(got[i]) == [min(c, 4) for c in want], (deal, i)
            checked += 1
    assert checked > 500


def test_covering_partners_are_the_pairs_the_covering_pair_rule_lets_meet():
    env = PyramidEnv("relaxed", obs_mode="dict")  # a card may pair with its last coverer
    checked = met = 0
    for _ in _random_games(env, range(8), seed=7):
        s, seen = env.state, env.known_stock()
        obs = env._encoder.encode(s, seen, True)
        got = covering_partners(np.concatenate([obs["pyramid"], obs["stock"]])[None])[0]
        rank = [RANK[c] for c in s.deal.cards]
        live = [i for i in range(28) if s.pyr >> i & 1]
        near = {i: [j for j in live if rank[i] + rank[j] == 13
                    and (j in COVERED_BY[i] or i in COVERED_BY[j])] for i in live}  # fmt: skip
        assert all(got[i] == min(len(near[i]), 4) for i in live)
        assert not got[[i for i in range(28) if i not in live]].any() and not got[28:].any()
        checked += len(live)
        pairs = {frozenset(MOVES[a].places) for a in env.legal_actions()
                 if MOVES[a].kind is MoveKind.PAIR}  # fmt: skip
        for i in live:  # where the partner on top is the last thing covering i: a legal pair
            for j in near[i]:
                if (
                    j in COVERED_BY[i]
                    and s.pyr & COVER_MASK[i] == 1 << j
                    and not s.pyr & COVER_MASK[j]
                ):
                    assert frozenset((i, j)) in pairs
                    met += 1
    assert checked > 1000 and met > 0


def _legal(packed: np.ndarray) -> np.ndarray:
    """The legal moves of packed positions, read back from the env (as card_data stores them)."""
    env = PyramidEnv("msc", obs_mode="dict")
    legal = np.zeros((len(packed), 327), bool)
    rng, deal, i = np.random.default_rng(0), 0, 0
    while i < len(packed):  # the same games as _positions plays
        env.reset(options={"deal": deal})
        deal += 1
        while i < len(packed) and (ids := env.legal_actions()):
            legal[i, ids] = True
            i += 1
            _, _, term, trunc, _ = env.step(int(rng.choice(ids)))
            if term or trunc:
                break
    return legal


def test_the_move_probe_starts_as_nothing_and_reads_only_what_legal_moves_need():
    counts, packed = _positions("msc")
    legal = torch.as_tensor(_legal(packed))
    assert legal[:, 32:].any(), "the positions should have some legal pair"
    torch.manual_seed(3)
    net = build("rel", "small").eval()
    with torch.no_grad():
        for name, p in net.named_parameters():
            if name.endswith(".rel"):
                p.normal_(0.0, 2.0)
        before = net(tokens(torch.as_tensor(packed))).numpy()
    probed = with_probe(net).eval()
    assert probed.meta["probe"] and probed.heads.probe == net.meta["heads"]
    x = tokens(torch.as_tensor(packed))
    np.testing.assert_allclose(probed(x).detach().numpy(), before, atol=1e-6)
    out = probed(x, legal)
    out[:, :, 32:][legal[:, None, 32:].expand(-1, 2, -1)].sum().backward()
    assert probed.heads.probe_out.weight.grad.abs().sum() > 0  # it learns from the legal pairs
    with torch.no_grad():
        probed.heads.probe_out.weight.normal_(0.0, 0.5)
        probed.heads.probe_rel.normal_(0.0, 2.0)
        full, part = probed(x).numpy(), probed(x, legal).numpy()
    mask = legal[:, None].expand(-1, 2, -1).numpy()
    np.testing.assert_allclose(part[mask], full[mask], atol=1e-5)  # legal moves: the same
    assert np.abs(full - before)[mask[:, :, :]].max() > 1e-3  # the probe now adds something
    with pytest.raises(ValueError, match="no probe yet"):
        with_probe(probed)
    with pytest.raises(ValueError, match="needs rel=True"):
        build("cards", "small").__class__(rel=False, probe=True)


def test_relations_name_the_cover_relation_and_the_pairing_rule():
    rank = np.zeros((1, 52), np.int64)
    rank[0, 0], rank[0, 1], rank[0, 21], rank[0, 28] = 6, 7, 6, 14  # slot 1 covers slot 0
    rel = relations(rank)[0]
    token = {"glob": 0, "top": 1, "row1": 2, "bottom": 22, "stock0": 29, "stock1": 30}
    geo, kind = np.divmod(rel, 4)
    assert geo[token["row1"], token["top"]] == 2 and geo[token["top"], token["row1"]] == 3
    assert kind[token["row1"], token["top"]] == 1  # 7 + 6: partners
    assert kind[token["bottom"], token["top"]] == 0 and geo[token["bottom"], token["top"]] == 2
    assert kind[token["stock0"], token["top"]] == 3  # the stock card is not known
    assert geo[token["bottom"], 24] == 4  # bottom row, first and third cards: they can meet
    assert geo[token["stock0"], token["stock1"]] == 7 and geo[token["stock1"], token["stock0"]] == 8
    assert (geo[0] == 0).all() and (geo[:, 0] == 0).all() and (np.diag(geo)[1:] == 1).all()


def test_relations_do_not_change_under_a_game_keeping_relabelling():
    _, packed = _positions("msc", 20)
    out = relabel(packed, np.random.default_rng(5))
    ranks = [np.concatenate([x[:, 0:28], x[:, 56:80]], 1).astype(np.int64) for x in (packed, out)]
    np.testing.assert_array_equal(relations(ranks[0]), relations(ranks[1]))


def test_counts_from_packed_is_the_envs_counts_observation():
    env = PyramidEnv("msc", obs_mode="counts")
    obs, _ = env.reset(options={"deal": 7})
    raw = env._encoder.encode(env.state, env.known_stock(), True)
    packed = np.concatenate([raw[k] for k in (
        "pyramid", "exposed", "stock", "stock_where", "counters", "unseen")])[None]  # fmt: skip
    np.testing.assert_array_equal(counts_from_packed(packed.astype(np.int16))[0], obs)
    parsed = parse_counts(obs[None])
    np.testing.assert_array_equal(parsed["prank"][0], raw["pyramid"])
    np.testing.assert_array_equal(parsed["srank"][0], raw["stock"])
    np.testing.assert_array_equal(parsed["where"][0], raw["stock_where"])


def test_relabelling_keeps_partners_and_counts():
    _, packed = _positions("relaxed", 20)
    out = relabel(packed, np.random.default_rng(3))
    for before, after in zip(packed, out, strict=True):
        pyr_b, pyr_a = before[:28].astype(int), after[:28].astype(int)
        # Two slots pair (sum 13) before exactly when they pair after; Kings stay Kings.
        assert ((pyr_b[:, None] + pyr_b[None] == 13) == (pyr_a[:, None] + pyr_a[None] == 13)).all()
        assert ((pyr_b == 13) == (pyr_a == 13)).all() and ((pyr_b == 0) == (pyr_a == 0)).all()
        assert before[109:].sum() == after[109:].sum()


def test_save_load_round_trip_and_a_damaged_file_is_named(tmp_path):
    torch.manual_seed(0)
    net = export(build("cards", "small"), {"rules": "msc"})
    net.save(tmp_path / "n.npz")
    back = CardNet.load(tmp_path / "n.npz")
    counts, _ = _positions("msc", 8)
    np.testing.assert_allclose(back.forward(counts), net.forward(counts), atol=0.05)
    assert back.meta["rules"] == "msc" and back.meta["arch"] == "cards"
    (tmp_path / "bad.npz").write_bytes(b"not a zip file")
    (tmp_path / "empty.npz").write_bytes(b"")
    data = bytearray((tmp_path / "n.npz").read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte changed inside the compressed weights
    (tmp_path / "flipped.npz").write_bytes(bytes(data))
    weights = {k: v[..., :3] if k == "rank.weight" else v for k, v in net.w.items()}
    CardNet(weights, net.meta).save(tmp_path / "shape.npz")  # well-formed, wrong shapes
    for name in ("bad", "empty", "flipped", "shape"):
        with pytest.raises(PyramidError, match=f"{name}.npz"):
            make_agent(str(tmp_path / f"{name}.npz"))


@pytest.mark.parametrize("play", ["q", "policy", "both", "filter", "sample"])
def test_agent_plays_legal_moves_from_the_observation_alone(play):
    torch.manual_seed(0)
    net = export(build("cards", "small"), {"play": play})
    summary = evaluate(CardNetAgent(net), "msc", "val[:3]").summary()
    assert summary["deals"] == 3 and summary["truncated"] == 0
    # It reads the counts observation only: a player's view, where no unseen card appears.
    assert CardNetAgent(net).env_kwargs == {"obs_mode": "counts"}


def test_sample_play_draws_from_the_policy_at_its_temperature_with_the_rng_given():
    shipped = make_agent("cards-msc").net
    env = PyramidEnv("msc", obs_mode="counts")
    obs, _ = env.reset(options={"deal": 3})
    legal = sorted(env.legal_actions())
    while len(legal) < 3:  # a position with a choice
        obs, *_ = env.step(legal[0])
        legal = sorted(env.legal_actions())
    turn = Turn(env.state, legal, env.known_stock(), obs)
    logits = shipped.forward(obs[None])[0, 0, legal]
    for temp in (1.0, 3.0):
        agent = CardNetAgent(CardNet(shipped.w, shipped.meta | {"play": "sample", "tie": temp}))
        rng = np.random.default_rng(0)
        drawn = np.array([agent.act(turn, rng) for _ in range(3000)])
        want = np.exp((logits - logits.max()) / temp)
        got = np.array([(drawn == a).mean() for a in legal])
        np.testing.assert_allclose(got, want / want.sum(), atol=0.03)
        again = [agent.act(turn, np.random.default_rng(0)) for _ in range(5)]
        assert len(set(again)) == 1  # the same rng, the same move
    cold = CardNet(shipped.w, shipped.meta | {"play": "sample", "tie": 0.0})
    with pytest.raises(ValueError, match="meta\\['tie'\\] = 0.0: sample's temperature"):
        CardNetAgent(cold).act(turn, np.random.default_rng(0))
    # Over games: the same seed gives the same episodes, another seed other games.
    agent = CardNetAgent(CardNet(shipped.w, shipped.meta | {"play": "sample", "tie": 1.0}))
    runs = [evaluate(agent, "msc", "val[:4]", seed=k).episodes for k in (0, 0, 1)]
    one, two, other = ([(e.moves, e.won) for e in run] for run in runs)
    assert one == two and one != other


def test_both_play_scores_log_policy_plus_weighted_log_q():
    torch.manual_seed(1)
    net = export(build("cards", "small"), {"play": "both", "tie": 3.0})
    obs = PyramidEnv("msc", obs_mode="counts").reset(seed=5)[0][None]
    out = torch.as_tensor(net.forward(obs))
    want = torch.log_softmax(out[:, 0], -1) + 3.0 * torch.nn.functional.logsigmoid(out[:, 1])
    got = torch.as_tensor(net.act_logits(obs))
    # The same scores up to one constant per position (the policy's normaliser).
    assert torch.allclose(got - got[:, :1], want - want[:, :1], atol=1e-4)


def test_filter_play_is_the_policy_among_moves_q_rates_near_the_best_legal_one():
    shipped = make_agent("cards-msc").net
    env = PyramidEnv("msc", obs_mode="counts", max_idle_passes=None)
    obs, _ = env.reset(options={"deal": 7})
    agents = {m: CardNetAgent(CardNet(shipped.w, shipped.meta | {"play": "filter", "tie": m}))
              for m in (0.0, 0.3, 2.0)}  # fmt: skip
    rng, vetoed = np.random.default_rng(0), 0
    for _ in range(60):
        legal = np.asarray(sorted(env.legal_actions()))
        out = shipped.forward(obs[None])[0]
        q = 1 / (1 + np.exp(-out[1, legal]))
        turn = Turn(env.state, list(legal), env.known_stock(), obs)
        moves = {m: a.act(turn, rng) for m, a in agents.items()}
        # A margin past every chance is the policy alone; none is Q alone (no exact ties here).
        assert moves[2.0] == legal[np.argmax(out[0, legal])]
        assert moves[0.0] == legal[np.argmax(q)]
        # In between: the policy's favourite among the moves within 0.3 of the best legal Q,
        # whatever the Q of the illegal moves (the best is taken over legal moves only).
        near = legal[q >= q.max() - 0.3]
        assert moves[0.3] == near[np.argmax(out[0, near])]
        vetoed += moves[0.3] != moves[2.0]
        obs, _, done, cut, _ = env.step(moves[2.0])
        if done or cut:
            break
    with pytest.raises(ValueError, match="pass legal"):
        agents[0.3].net.act_logits(obs[None])
    with pytest.raises(ValueError, match="'nope'.*one of"):
        CardNet(shipped.w, shipped.meta | {"play": "nope"}).act_logits(obs[None])


def test_held_out_says_whether_q_flags_the_losing_moves_not_only_its_favourite():
    _, packed = _positions("relaxed", 8)
    legal = np.zeros((8, 327), bool)
    legal[:, [0, 5, 9]] = True  # a draw and two other moves everywhere
    wins = legal.copy()
    wins[:4, 9] = False  # four positions where move 9 loses
    teacher = np.zeros(8, np.int64)
    data = {"obs": packed, "legal": legal, "wins": wins, "teacher": teacher}

    class Fixed(torch.nn.Module):  # Q logits +5 on the draw; the losing move's given
        def __init__(self, losing: float) -> None:
            super().__init__()
            self.meta, self.losing = {"arch": "rel"}, losing

        def forward(self, x: object, legal: object = None) -> torch.Tensor:
            out = torch.zeros(8, 2, 327)  # one batch: the eight positions
            out[:, 1, 0], out[:, 1, 5], out[:, 1, 9] = 5.0, 2.0, self.losing
            return out

    with torch.no_grad():
        blind, knowing = held_out(Fixed(3.0), data), held_out(Fixed(-3.0), data)
    # Q's favourite (the draw) wins at every position where a move loses, either way ...
    assert blind["hard_share"] == 0.5 and blind["hard_q_right"] == knowing["hard_q_right"] == 1.0
    # ... but only one of the two rates the losing moves below an even chance.
    assert blind["losing_q_low"] == 0.0 and knowing["losing_q_low"] == 1.0


def test_views_average_the_network_over_relabellings_of_the_observation():
    from pyramid_env.agents.cardnet import relabel_counts
    from pyramid_env.env.observation import rank_maps

    _, packed = _positions("msc", 12)
    # The numpy relabelling of a parsed observation is the torch trainer's of a packed one.
    maps = rank_maps(len(packed), np.random.default_rng(4))
    ours = parse_counts(counts_from_packed(packed))
    theirs = parse_counts(counts_from_packed(relabel(packed, np.random.default_rng(4))))
    for i, m in enumerate(maps):
        one = relabel_counts({k: v[i : i + 1] for k, v in ours.items()}, m)
        for k in ("prank", "srank", "where", "exposed", "glob"):
            np.testing.assert_allclose(one[k][0], theirs[k][i], err_msg=k)
    torch.manual_seed(2)
    net = export(build("cards", "small"), {})
    obs = counts_from_packed(packed)
    viewed = CardNet(net.w, net.meta | {"views": 4})
    views = rank_maps(3, np.random.default_rng(0))
    want = np.mean([net.forward(obs)] + [net._cards(relabel_counts(ours, m)) for m in views], 0)
    np.testing.assert_allclose(viewed.forward(obs), want, rtol=1e-5, atol=1e-5)
    assert not np.allclose(viewed.forward(obs), net.forward(obs))  # an untrained net differs

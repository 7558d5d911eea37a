"""The fast PPO trainer: masked sampling, GAE, determinism, and its policy played by evaluate."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from experiments import ppo_fast as script  # noqa: E402
from pyramid_env import evaluate  # noqa: E402
from pyramid_env.agents import MLPPolicy, PolicyAgent  # noqa: E402
from pyramid_env.env import PyramidEnv  # noqa: E402
from pyramid_env.lab import ppo_fast  # noqa: E402
from pyramid_env.lab.config import read_config  # noqa: E402
from tests.conftest import refused  # noqa: E402

CONFIG = script.ROOT / "configs" / "ppo_fast_relaxed.toml"
SHIPPED = script.ROOT / "agents" / "trained"
TINY = [
    "num_envs=8",
    "num_steps=16",
    "ppo.hidden=[16]",
    "ppo.num_minibatches=2",
    "ppo.update_epochs=2",
    "eval.every=128",
    "eval.seeds='val[:3]'",
]


def tiny(*sets: str, steps: int = 256, seed: int = 0) -> dict:
    return read_config(CONFIG, steps, seed, [*TINY, *sets])


def test_masked_sampling_never_picks_an_illegal_action():
    torch.manual_seed(0)
    gen = np.random.default_rng(0)
    mask = torch.from_numpy(gen.random((512, 327)) < 0.03)
    mask[:, 5] = True
    logits = torch.where(mask, 0.0, 50.0)  # the illegal actions are the policy's favourites
    for _ in range(20):
        actions, logp, logp_all = ppo_fast.masked_sample(logits, mask)
        assert mask[torch.arange(512), actions].all()
        assert torch.allclose(logp, logp_all.gather(1, actions[:, None]).squeeze(1))
    # ... and it samples: with two legal actions of equal logits, both come up.
    two = torch.zeros(1000, 327, dtype=torch.bool)
    two[:, [3, 7]] = True
    actions, logp, _ = ppo_fast.masked_sample(torch.zeros(1000, 327), two)
    assert set(actions.tolist()) == {3, 7} and 400 < (actions == 3).sum() < 600
    assert torch.allclose(logp, torch.full((1000,), np.log(0.5)))


def test_the_policy_plays_legal_moves_in_the_env():
    cfg = tiny()
    env = ppo_fast.make_env(cfg, 16, illegal_action="raise")  # an illegal action raises
    net = ppo_fast.build_net(cfg, env)
    obs, _ = env.reset(seed=3)
    ends = 0
    for _ in range(300):
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(obs))
        actions, _, _ = ppo_fast.masked_sample(logits, torch.from_numpy(env.action_masks()))
        obs, _, term, trunc, _ = env.step(actions.numpy())
        ends += int((term | trunc).sum())
    assert ends > 16  # games ended and were dealt again


def test_gae_against_a_hand_computed_case():
    rewards = np.array([[1, 1], [2, 0], [3, 2]], np.float32)
    values = np.array([[0.5, 0.5], [0.4, 0.7], [0.3, 0.6]], np.float32)
    next_values = np.array([[0.4, 0.7], [0.3, 0.6], [0.2, 0.9]], np.float32)
    terminated = np.array([[0, 1], [0, 0], [0, 0]], np.float32)  # game 1 won at step 0,
    ended = np.array([[0, 1], [0, 0], [0, 1]], np.float32)  # cut by max_steps at step 2
    adv = ppo_fast.gae(rewards, values, next_values, terminated, ended, 0.9, 0.8)
    # game 0: deltas 0.86, 1.87, 2.88 chained by gamma * lambda = 0.72
    assert adv[:, 0] == pytest.approx(
        [0.86 + 0.72 * (1.87 + 0.72 * 2.88), 1.87 + 0.72 * 2.88, 2.88]
    )
    # game 1: the win's next value is not used; the cut game bootstraps from 0.9
    assert adv[:, 1] == pytest.approx([1 - 0.5, 0.9 * 0.6 - 0.7 + 0.72 * 2.21, 2 + 0.81 - 0.6])


def test_a_tiny_run_is_deterministic_for_a_seed():
    def weights(seed):
        tr = ppo_fast.Trainer(tiny(seed=seed))
        for _ in range(2):
            tr.collect()
            tr.update(1.0)
        return [p.detach().clone() for p in tr.net.parameters()]

    a, b, c = weights(0), weights(0), weights(1)
    assert all(torch.equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(torch.equal(x, y) for x, y in zip(a, c, strict=True))


def test_a_run_writes_its_folder_and_its_policy_plays_through_evaluate(tmp_path):
    metrics = script.main(
        [
            "--config",
            str(CONFIG),
            "--total-timesteps",
            "256",
            "--seed",
            "0",
            "--runs",
            str(tmp_path),
            *[f"--set={s}" for s in TINY],
        ]
    )
    (run,) = tmp_path.iterdir()
    names = {p.name for p in run.iterdir()}
    assert {"config.json", "eval.csv", "metrics.json", "best.npz", "best.pt", "last.pt"} <= names
    assert any((run / "tb").iterdir())
    assert metrics["timesteps"] == 256 and [r["timesteps"] for r in metrics["evals"]] == [
        0,
        128,
        256,
    ]
    assert json.loads((run / "metrics.json").read_text())["steps_per_s"] > 0
    summary = script.main(["--summary", str(run), str(run), "--out", str(tmp_path / "s.json")])
    wins = [r["win_rate"] for r in metrics["evals"]]
    assert [c["mean"] for c in summary["curve"]] == pytest.approx(wins)
    assert json.loads((tmp_path / "s.json").read_text())["curve"][-1]["runs"] == [wins[-1]] * 2
    policy = MLPPolicy.load(run / "best.npz")
    assert policy.meta["obs_mode"] == "onehot" and policy.meta["rules"] == "relaxed"
    # the numpy policy gives the torch actor's logits on the env's own float32 observation
    net = ppo_fast.build_net(tiny(), ppo_fast.make_env(tiny(), 1))
    net.load_state_dict(torch.load(run / "best.pt", weights_only=True))
    obs, _ = PyramidEnv(obs_mode="onehot").reset(options={"deal": 7})
    uint8, _ = PyramidEnv(obs_mode="onehot", obs_dtype="uint8").reset(options={"deal": 7})
    with torch.no_grad():
        torch_logits = net(torch.from_numpy(uint8)[None])[0][0].numpy()
    assert np.allclose(policy.logits(obs), torch_logits, atol=1e-5)
    report = evaluate(PolicyAgent(policy, name="fast"), "relaxed", "val[:3]")
    assert report.summary()["deals"] == 3
    best = max(r["win_rate"] for r in metrics["evals"])
    assert policy.meta["val_win_rate"] == best == metrics["best_val_win_rate"]
    # and a run can start from it
    again = ppo_fast.Trainer(tiny())
    ppo_fast.load_init(again.net, run / "best.npz")
    assert np.allclose(ppo_fast.export(again.net).logits(obs), policy.logits(obs), atol=1e-6)
    wider = ppo_fast.Trainer(tiny("ppo.hidden=[32]"))
    for path in (run / "best.npz", run / "best.pt"):
        refused(
            ppo_fast.load_init, wider.net, path, match="init=.* (do not fit the actor|does not fit)"
        )


def test_the_compact_network_trains_and_plays(tmp_path):
    cfg = tiny("obs_mode=compact", "ppo.embed=4", steps=128)
    tr = ppo_fast.Trainer(cfg)
    tr.collect()
    stats = tr.update(1.0)
    assert np.isfinite(list(stats.values())).all()
    agent = tr.policy_agent("compact", {})
    assert evaluate(agent, "relaxed", "val[:2]").summary()["deals"] == 2
    refused(ppo_fast.export, tr.net, match="CompactNet cannot be exported")


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("obs_mode", "dict", "obs_mode='dict': expected one of"),
        ("num_envs", 0, "num_envs=0: expected an int >= 1"),
        ("ppo.hidden", [], r"ppo.hidden=\[\]: expected a non-empty list"),
        ("ppo.learning_rate", "fast", "ppo.learning_rate='fast': expected a float"),
        ("ppo.lr", 0.1, "ppo.lr=0.1: expected a key among"),
        ("ppo.arch", "lstm", "ppo.arch='lstm': expected one of"),
        ("ppo.temperature", 0, "ppo.temperature=0: expected a float > 0"),
        ("ppo.size", "huge", "ppo.size='huge': expected 'small' or 'base'"),
        ("ppo.layers", 0, "ppo.layers=0: expected an int >= 1"),
        ("ppo.tie", -0.1, "ppo.tie=-0.1: expected a float >= 0"),
        ("ppo.tie", 0.1, "ppo.tie=0.1: expected no such setting with ppo.arch='mlp'"),
        ("ppo.card_net", "lstm", "ppo.card_net='lstm': expected one of"),
        ("ppo.play", "argmax", "ppo.play='argmax': expected one of"),
    ],
)
def test_a_bad_config_is_refused_naming_the_field(key, value, said):
    cfg = tiny(f"{key}={value!r}")
    refused(ppo_fast.check_config, cfg, match=said)


CARDS = ["rules='msc'", "obs_mode='counts'", "reward='win'", "ppo.arch='cards'"]


def card_tiny(*sets: str, steps: int = 128) -> dict:
    """The tiny config for the card network: the MLP's settings taken out."""
    cfg = tiny(*CARDS, *sets, steps=steps)
    for key in ppo_fast.MLP_KEYS:
        cfg["ppo"].pop(key, None)
    return cfg


def card_sets(path) -> list[str]:
    """The config settings a card network file needs: its inputs and its way of playing."""
    from pyramid_env.agents.cardnet import CardNet
    from pyramid_env.agents.cardnet_torch import SIZES

    meta = CardNet.load(path).meta
    net = "cover" if meta.get("cover") else "tally" if meta.get("tally") else "rel"
    (size,) = [name for name, dims in SIZES.items() if dims["d"] == meta["d"]]
    return [f"ppo.card_net={net!r}", f"ppo.size={size!r}", f"ppo.layers={meta['layers']}",
            f"ppo.play={meta['play']!r}", f"ppo.tie={meta['tie']}"]  # fmt: skip


def q_network(tmp_path):
    """A fresh relation network saved to play by Q with a tie-break: the earlier shipped form."""
    from pyramid_env.agents.cardnet_torch import build, export

    torch.manual_seed(0)
    path = tmp_path / "rel-q.npz"
    export(build("rel", "small"), {"play": "q", "tie": 0.1, "obs_mode": "counts"}).save(path)
    return path


@pytest.mark.parametrize("which", ["cards-msc", "cards-relaxed", "rel-q"])
def test_the_card_network_fine_tunes_from_a_shipped_one_and_plays_as_it_does(tmp_path, which):
    # start from a card network file (each shipped one, with its own inputs and way of playing,
    # and one played by Q): the trainer's greedy move is the file's agent's, position by
    # position, and the export after an update plays the same way through evaluate
    from pyramid_env.agents.cardnet import CardNet

    shipped = q_network(tmp_path) if which == "rel-q" else SHIPPED / f"{which}.npz"
    # at the logits' own scale, as configs/ppo_cards_msc.toml trains: at the default 0.05 the
    # six-block cards-relaxed is so sure on these msc positions that no gradient is left
    cfg = card_tiny(*card_sets(shipped), "ppo.temperature=1.0")
    tr = ppo_fast.Trainer(cfg, init=shipped)
    net = CardNet.load(shipped)
    obs, mask = tr.next_obs, torch.from_numpy(tr.env.action_masks())
    with torch.no_grad():
        logits, values = tr.net(obs)
    ours = torch.where(mask, logits, -torch.inf).argmax(-1).numpy()
    theirs = np.where(mask.numpy(), net.act_logits(obs.numpy()), -np.inf).argmax(-1)
    assert (ours == theirs).all() and values.shape == (8,)
    before = {k: v.clone() for k, v in tr.net.card.state_dict().items()}
    tr.collect()
    assert np.isfinite(list(tr.update(1.0).values())).all()
    assert any(not torch.equal(before[k], v) for k, v in tr.net.card.state_dict().items())
    agent = tr.policy_agent("ppo-cards", {"rules": "msc"})
    assert {k: agent.net.meta[k] for k in ("play", "tie")} == {
        k: net.meta[k] for k in ("play", "tie")
    }
    assert evaluate(agent, "msc", "val[:2]").summary()["deals"] == 2


def test_a_card_network_that_does_not_fit_the_config_is_refused_naming_the_setting(tmp_path):
    from pyramid_env.agents.cardnet import CardNet

    msc = SHIPPED / "cards-msc.npz"
    sets, n = card_sets(msc), CardNet.load(msc).meta["layers"]
    # another width or depth: the weights would not fit, and the settings to change are named
    base = ppo_fast.Trainer(card_tiny(*sets, "ppo.size='base'"))
    said = f"width 48 and {n} blocks; the config's ppo.size and ppo.layers build width 64 and {n}"
    refused(ppo_fast.load_init, base.net, msc, match=said)
    deep = ppo_fast.Trainer(card_tiny(*sets, f"ppo.layers={n + 1}"))
    refused(ppo_fast.load_init, deep.net, msc, match=f"{n} blocks; .* build width 48 and {n + 1}")
    # other inputs, another way of playing, another tie-break: named, never silently replaced
    rel = ppo_fast.Trainer(card_tiny(*sets, "ppo.card_net='rel'"))
    refused(ppo_fast.load_init, rel.net, msc, match=r"with \['rel', 'tally'\].*ppo.card_net")
    q = ppo_fast.Trainer(card_tiny(*sets, "ppo.play='q'"))
    refused(ppo_fast.load_init, q.net, msc, match="plays 'policy'; the config's ppo.play='q'")
    rel_q = q_network(tmp_path)
    tie = ppo_fast.Trainer(card_tiny(*card_sets(rel_q), "ppo.tie=0.5"))
    refused(ppo_fast.load_init, tie.net, rel_q, match="with tie=0.1; the config's ppo.tie=0.5")
    # the card network needs the counts observation, and has no MLP widths
    cfg = card_tiny()
    refused(ppo_fast.check_config, cfg | {"obs_mode": "onehot"}, match="obs_mode='onehot'")
    wide = cfg | {"ppo": cfg["ppo"] | {"hidden": [16]}}
    refused(ppo_fast.check_config, wide, match=r"ppo.hidden=\[16\]: expected no such setting")


def test_a_card_network_run_writes_a_card_network_that_plays(tmp_path):
    from pyramid_env.agents.cardnet import CardNet, CardNetAgent

    shipped = SHIPPED / "cards-msc.npz"
    sets = ["eval.every=64", "num_envs=4", "exp_name='cards'"]
    cfg = card_tiny(*card_sets(shipped), *sets, steps=64)
    metrics = script.train(cfg, tmp_path, init=shipped)
    (run,) = tmp_path.iterdir()
    net = CardNet.load(run / "best.npz")
    assert net.meta["val_win_rate"] == metrics["best_val_win_rate"]
    assert net.meta["play"] == CardNet.load(shipped).meta["play"] and net.meta["tally"]
    assert evaluate(CardNetAgent(net), "msc", "val[:2]").summary()["deals"] == 2
    # its training curves, from the TensorBoard log, one point per update
    curves = script.curves(run)
    assert set(curves) <= set(script.CURVES) and [t for t, _ in curves["losses/entropy"]] == [64]

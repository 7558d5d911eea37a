"""train_chain: a card network's whole recipe from one config, resumed where it stopped."""

import json

import pytest

pytest.importorskip("torch")

from experiments import train_chain  # noqa: E402
from pyramid_env.agents import CardNet  # noqa: E402
from pyramid_env.lab.config import read_config  # noqa: E402

CONFIG = """
name = "tiny"
seed = 3
[[stage]]
name = "data"
command = "card_data"
args = ["--rules", "msc", "--deals", "600", "--workers", "1", "--out", "{data}/d.npz"]
[[stage]]
name = "first"
command = "train_cards"
args = ["--data", "{data}/d.npz", "--arch", "rel", "--size", "small", "--steps", "500",
        "--batch", "16", "--eval-seeds", "val[:2]", "--plays", "policy:0.0", "--workers", "1",
        "--threads", "1", "--no-bf16", "--seeds", "{seed}", "--out", "{run}/first"]
[[stage]]
name = "second"
command = "train_cards"
args = ["--data", "{data}/d.npz", "--arch", "tally", "--size", "small", "--steps", "500",
        "--batch", "16", "--eval-seeds", "val[:2]", "--plays", "sample:1.0", "--workers", "1",
        "--threads", "1", "--no-bf16", "--init", "{run}/first.npz", "--seeds", "{seed}",
        "--out", "{run}/second"]
"""


def test_a_chain_runs_its_stages_in_order_scaled_and_goes_on_where_it_stopped(tmp_path):
    (tmp_path / "c.toml").write_text(CONFIG)
    argv = ["--config", str(tmp_path / "c.toml"), "--runs", str(tmp_path / "runs"),
            "--set", f"data='{tmp_path / 'data'}'", "--set", "scale=0.01"]  # fmt: skip
    net = train_chain.main(argv)
    run = tmp_path / "runs" / "tiny-s3"
    assert net == run / "second.npz" and (run / "first.npz").exists()
    second = CardNet.load(net)
    assert second.meta["seed"] == 3 and second.meta.get("tally") and second.meta["steps"] == 5
    assert second.meta["play"] == "sample"  # the one way of playing the stage tried
    assert second.meta["train"] == {  # how it was trained, for the recipe test below
        "batch": 16, "lr": 1e-3, "hard_weight": 1.0, "hard_share": 0.0, "safe_share": 0.0,
        "q_target": "verdict", "gamma": 0.5, "ema": 0.0, "phase": "all", "partner": 0.0,
        "bf16": False, "data": ["d.npz"], "init": "first.npz"}  # fmt: skip
    (result,) = [json.loads(x) for x in (run / "second" / "curve.jsonl").read_text().splitlines()]
    assert result["init"] == str(run / "first.npz") and 0 < result["deals"] <= 6
    data = tmp_path / "data" / "scale-0.01" / "d.npz"  # a smoke run's data apart from the real
    made = data.stat().st_mtime_ns
    assert train_chain.main(argv) == net  # again: the data kept, the runs kept
    assert data.stat().st_mtime_ns == made
    again = [json.loads(x) for x in (run / "second" / "curve.jsonl").read_text().splitlines()]
    assert again[0]["train_seconds"] == result["train_seconds"]
    stages = [json.loads(x)["stage"] for x in (run / "stages.jsonl").read_text().splitlines()]
    assert stages == ["data", "first", "second"] * 2
    # a data file made by another command is never trained on as this stage's
    (tmp_path / "c.toml").write_text(CONFIG.replace('"--deals", "600"', '"--deals", "700"'))
    with pytest.raises(SystemExit, match=r"stage data: .*d.npz was made by another command: "
                       r"deals 6 \(the file\) against 7; delete it"):  # fmt: skip
        train_chain.main(argv)
    assert data.stat().st_mtime_ns == made


@pytest.mark.parametrize(
    ("stage", "message"),
    [
        ({"name": "a", "command": "rm", "args": []}, "stage 0 command = 'rm'"),
        ({"name": "", "command": "card_data", "args": []}, "stage 0 name = ''"),
        ({"name": "a", "command": "card_data", "args": [1]}, "stage a args = [1]"),
        ({"name": "a", "command": "card_data", "args": ["{sed}"]}, "stage a args: KeyError"),
        ({"name": "a", "command": "card_data", "arg": []}, "stage 0 arg: not a key of a stage"),
    ],
)
def test_a_bad_stage_is_named_with_what_is_allowed(tmp_path, stage, message):
    with pytest.raises(SystemExit, match=message.replace("[", r"\[").replace("]", r"\]")):
        train_chain.stages({"stage": [stage]}, 0, tmp_path)


def test_a_data_file_from_before_recipes_were_recorded_is_kept_with_a_warning(tmp_path, capsys):
    import numpy as np

    old = tmp_path / "old.npz"
    np.savez_compressed(old, rules=np.array("msc"), teacher=np.zeros(3, np.int16))
    train_chain.check_kept("data", ["--rules", "msc", "--out", str(old)], old)
    assert "old.npz: made before data files recorded their command" in capsys.readouterr().err


def test_a_scale_shrinks_the_evaluation_deals_too(tmp_path):
    # a smoke run's untrained networks play a hundredth of the games, not all 500
    stage = {"name": "net", "command": "train_cards",
             "args": ["--steps", "8000", "--eval-seeds", "val[:500]", "--seeds", "1"]}  # fmt: skip
    ((_, _, argv),) = train_chain.stages({"stage": [stage], "scale": 0.01}, 0, tmp_path)
    assert argv == ["--steps", "80", "--eval-seeds", "val[:5]", "--seeds", "1"]
    ((_, _, argv),) = train_chain.stages({"stage": [stage], "scale": 0.001}, 0, tmp_path)
    assert argv[1:4] == ["8", "--eval-seeds", "val[:1]"]  # at least one deal
    ((_, _, argv),) = train_chain.stages({"stage": [stage]}, 0, tmp_path)
    assert argv == stage["args"]  # the recipe as written
    whole = {**stage, "args": ["--eval-seeds", "val"]}
    with pytest.raises(SystemExit, match=r"stage net --eval-seeds 'val': with a scale"):
        train_chain.stages({"stage": [whole], "scale": 0.5}, 0, tmp_path)


def test_a_name_twice_no_stage_or_no_scale_is_refused(tmp_path):
    twice = {"name": "a", "command": "card_data", "args": []}
    with pytest.raises(SystemExit, match="stage 1 name = 'a'"):
        train_chain.stages({"stage": [twice, twice]}, 0, tmp_path)
    with pytest.raises(SystemExit, match="scale = 0"):
        train_chain.stages({"stage": [twice], "scale": 0}, 0, tmp_path)
    with pytest.raises(SystemExit, match="lists no"):
        train_chain.stages({}, 0, tmp_path)
    with pytest.raises(SystemExit, match="stages: not a key of the config"):
        train_chain.stages({"stages": [twice]}, 0, tmp_path)


def test_the_shipped_recipes_parse(tmp_path):
    for path in sorted((train_chain.ROOT / "configs").glob("cards_*.toml")):
        plan = train_chain.stages(read_config(path, None, 5, []), 5, tmp_path)
        assert plan[-1][1] == "train_cards" and "--seeds" in plan[-1][2]
        assert plan[-1][2][plan[-1][2].index("--seeds") + 1] == "5"


def test_each_shipped_recipe_is_the_recipe_of_the_network_shipped_under_its_name(tmp_path):
    # the config a user runs to make a shipped network again names that network's inputs,
    # size, steps, seed and training settings (the heads beside the two, the batches' shares,
    # its data): a network shipped without its recipe updated fails here
    from experiments.train_cards import parser
    from pyramid_env.agents.cardnet_torch import FLAGS, build
    from pyramid_env.lab.shipping import training

    for path in sorted((train_chain.ROOT / "configs").glob("cards_*.toml")):
        cfg = read_config(path, None, None, [])
        args = train_chain.stages(cfg, cfg["seed"], tmp_path)[-1][2]

        def arg(flag: str, args: list[str] = args) -> str:
            return args[args.index(flag) + 1]

        meta = CardNet.load(train_chain.ROOT / "agents" / "trained" / f"{cfg['name']}.npz").meta
        layers = int(arg("--layers")) if "--layers" in args else None
        want = build(arg("--arch"), arg("--size"), layers).meta
        assert {k: meta.get(k) for k in want} == want, path.name
        # none more than the recipe's
        assert [bool(meta.get(k)) for k in FLAGS] == [k in want for k in FLAGS], path.name
        assert (meta["steps"], meta["seed"]) == (int(arg("--steps")), cfg["seed"]), path.name
        run = parser().parse_args(args)
        assert run.bf16 is not None, f"{path.name}: --bf16 or --no-bf16 (else the CPU decides)"
        assert meta["train"] == training(vars(run)), path.name  # as the run records them


def test_a_failing_stage_stops_the_chain_and_says_which(tmp_path, capsys):
    (tmp_path / "c.toml").write_text(
        '[[stage]]\nname = "data"\ncommand = "card_data"\n'
        'args = ["--rules", "no-such-rules", "--out", "{run}/d.npz"]\n'
        '[[stage]]\nname = "net"\ncommand = "train_cards"\nargs = []\n'
    )
    with pytest.raises(SystemExit, match="stage data: card_data exited with 2"):
        train_chain.main(["--config", str(tmp_path / "c.toml"), "--runs", str(tmp_path)])
    assert not (tmp_path / "c-s0" / "d.npz").exists()
    (tmp_path / "d.toml").write_text('[[stage]]\nname = "data"\ncommand = "card_data"\nargs = []\n')
    with pytest.raises(SystemExit):
        train_chain.main(["--config", str(tmp_path / "d.toml"), "--runs", str(tmp_path)])
    assert "the last stage trains the network" in capsys.readouterr().err

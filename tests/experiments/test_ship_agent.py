import json
from pathlib import Path

import numpy as np
import pytest

import pyramid_env.agents as agents_pkg
from pyramid_env.agents import MLPPolicy, load_shipped
from pyramid_env.lab.shipping import ship, training
from tests.conftest import refused


@pytest.fixture
def install(tmp_path, monkeypatch):
    """An empty install whose shipped agents live in ``tmp_path/agents/trained``."""

    class Files:
        @staticmethod
        def files(package):
            return tmp_path / "agents"

    monkeypatch.setattr(agents_pkg, "resources", Files)
    return tmp_path / "agents" / agents_pkg.TRAINED_DIR


def _net(tmp_path: Path, name: str, seed: int, **meta) -> Path:
    rng = np.random.default_rng(seed)
    path = tmp_path / f"{name}.npz"
    MLPPolicy([(rng.normal(size=(5, 4)), rng.normal(size=4))], meta=meta).save(path)
    return path


def _weights(net: MLPPolicy) -> list[np.ndarray]:
    return [a for layer in net.layers for a in layer]


def test_an_agent_sharing_weights_ships_no_second_file_and_keeps_its_own_settings(
    tmp_path, install
):
    alone = _net(tmp_path, "alone", 0, kind="expit")
    search = _net(tmp_path, "search", 0, kind="expit-search", search={"samples": 4})
    assert ship(alone, "net", install) == install / "net.npz"
    assert ship(search, "net-search", install) == install / "net.npz"
    manifest = json.loads((install / "manifest.json").read_text())
    assert manifest["net-search"] == {
        "weights": "net",
        "meta": {"kind": "expit-search", "search": {"samples": 4}},
    }
    assert not (install / "net-search.npz").exists()
    shared, own = load_shipped("net-search"), load_shipped("net")
    assert shared.meta["kind"] == "expit-search" and own.meta["kind"] == "expit"
    assert all(np.array_equal(a, b) for a, b in zip(_weights(shared), _weights(own), strict=True))

    # New weights under the shared name: the sharer keeps the weights it was shipped with.
    ship(_net(tmp_path, "other", 1, kind="expit"), "net", install)
    manifest = json.loads((install / "manifest.json").read_text())
    assert "sha256" in manifest["net-search"] and (install / "net-search.npz").is_file()
    assert all(
        np.array_equal(a, b)
        for a, b in zip(_weights(load_shipped("net-search")), _weights(shared), strict=True)
    )
    assert not np.array_equal(_weights(load_shipped("net"))[0], _weights(shared)[0])


def test_a_damaged_shared_file_is_named_with_the_agent_that_reads_it(tmp_path, install):
    ship(_net(tmp_path, "alone", 0, kind="expit"), "net", install)
    ship(_net(tmp_path, "search", 0, kind="expit-search"), "net-search", install)
    (install / "net.npz").write_bytes(b"junk")
    refused(load_shipped, "net-search", match="'net-search' \\(the weights of 'net'\\).*checksum")


def test_a_card_network_ships_as_itself_and_plays_by_name(tmp_path, install):
    torch = pytest.importorskip("torch")
    from pyramid_env.agents import CardNet, make_agent
    from pyramid_env.agents.cardnet_torch import build, export

    torch.manual_seed(0)
    path = tmp_path / "cards.npz"
    export(build("rel", "small"), {"rules": "msc", "play": "q", "tie": 0.1}).save(path)
    assert ship(path, "cards", install) == install / "cards.npz"
    assert ship(_net(tmp_path, "mlp", 0, kind="expit"), "mlp", install) == install / "mlp.npz"
    shipped = load_shipped("cards")
    assert isinstance(shipped, CardNet) and shipped.meta["play"] == "q"
    stored = CardNet.load(path)
    assert shipped.w.keys() == stored.w.keys()
    assert all(np.array_equal(shipped.w[k], stored.w[k]) for k in stored.w)
    agent = make_agent("cards")
    assert agent.net.meta["rules"] == "msc"
    # The same card weights under a second name share the file, as MLP weights do.
    assert ship(path, "cards-again", install) == install / "cards.npz"


def test_a_run_result_ships_its_training_settings_and_play_is_unchanged(tmp_path, install):
    # a network trained before train_cards recorded its settings gets them from its run's
    # result.json; a setting that run did not know is the default it then played by
    pytest.importorskip("torch")
    from experiments import ship_agent
    from pyramid_env.agents import CardNet, CardNetAgent
    from pyramid_env.agents.base import agent_config
    from pyramid_env.agents.cardnet_torch import build, export

    path = tmp_path / "net.npz"
    export(build("tally", "small", 1), {"rules": "msc", "steps": 5}).save(path)
    result = {"data": ["/far/away/msc-line.npz"], "init": None, "lr": 3e-4, "partner": 1.0,
              "batch": 64, "bf16": False}  # fmt: skip
    (tmp_path / "result.json").write_text(json.dumps(result))
    argv = [str(path), "net", "--dest", str(install), "--result", str(tmp_path / "result.json")]
    ship_agent.main(argv)
    train = load_shipped("net").meta["train"]
    assert train["data"] == ["msc-line.npz"] and train["init"] is None
    assert (train["lr"], train["partner"], train["batch"]) == (3e-4, 1.0, 64)
    assert (train["hard_share"], train["q_target"]) == (0.0, "verdict")  # not in that result
    with pytest.raises(ValueError, match="names bf16 and data"):  # no default to stand in
        training({"data": ["msc.npz"], "lr": 3e-4})
    assert agent_config(CardNetAgent(load_shipped("net"))) == agent_config(
        CardNetAgent(CardNet.load(path))
    )

"""Sweeps in chunks: same results whatever the backend, workers, chunking or restarts."""

import functools
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import pyramid_env.evaluation as evaluation
from pyramid_env import evaluate
from pyramid_env.fault_injection import squares_crashing_once
from pyramid_env.seeds import seed_set
from pyramid_env.sweep import ChunkStore, check_backend, sweep
from tests.conftest import refused

ROOT = Path(__file__).parents[1]


def squares(deals):
    return [(n, n * n) for n in deals]  # tuples: the sweep gives them back as JSON lists


EXPECTED = [[n, n * n] for n in range(23)]


@pytest.mark.parametrize("workers, chunk", [(1, None), (1, 1), (2, 3), (2, 7), (3, 50)])
def test_local_results_do_not_depend_on_workers_or_chunks(workers, chunk):
    assert sweep(squares, range(23), workers=workers, chunk_size=chunk) == EXPECTED


def test_results_keep_the_order_of_the_deals_given():
    deals = [9, 2, 2, 40, 0]
    assert sweep(squares, deals, workers=2, chunk_size=2) == [[n, n * n] for n in deals]


def test_a_killed_local_worker_is_replaced_and_its_chunk_played_again(tmp_path, capfd):
    marker = tmp_path / "died"
    crash = functools.partial(squares_crashing_once, str(marker), 13)
    assert sweep(crash, range(23), workers=2, chunk_size=4) == EXPECTED
    assert marker.exists()  # a worker really died
    assert "a worker process died" in capfd.readouterr().err


def test_a_worker_dying_every_time_is_an_error_after_the_retries(tmp_path):
    marker = tmp_path / "deaths"
    die = functools.partial(squares_crashing_once, str(marker), 5, times=99)
    with pytest.raises(RuntimeError, match="died 2 times.*retries=1"):
        sweep(die, range(10), workers=2, chunk_size=2, retries=1)
    assert marker.read_text().count("\n") == 2  # the first try and one retry


def test_workers_dying_after_ray_name_the_main_guard_they_need(tmp_path, monkeypatch):
    # With Ray loaded, workers start from a forkserver, which imports the starting script: an
    # unguarded script's workers die, and the error must say what to do.
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: None)
    monkeypatch.setitem(sys.modules, "ray", types.ModuleType("ray"))
    die = functools.partial(squares_crashing_once, str(tmp_path / "deaths"), 5, times=99)
    with pytest.raises(RuntimeError, match='died 1 times.*if __name__ == "__main__":'):
        sweep(die, range(10), workers=2, chunk_size=2, retries=0)


def test_a_store_keeps_finished_chunks_and_resume_plays_only_the_rest(tmp_path):
    store, settings = tmp_path / "run", {"what": "squares"}
    played = []

    def failing(deals):
        if 11 in deals:
            raise KeyboardInterrupt  # the run is stopped
        played.extend(deals)
        return squares(deals)

    with pytest.raises(KeyboardInterrupt):
        sweep(failing, range(23), chunk_size=5, store=store, settings=settings)
    assert sorted(played) == list(range(10))
    assert len(list(store.glob("chunk-*.json"))) == 2
    played.clear()

    def counting(deals):
        played.extend(deals)
        return squares(deals)

    resumed = sweep(counting, range(23), chunk_size=3, store=store, settings=settings, resume=True)
    assert resumed == EXPECTED
    assert sorted(played) == list(range(10, 23))  # the finished chunks were not played again


def test_a_fresh_run_clears_the_store_and_a_resume_must_match_its_settings(tmp_path):
    store = tmp_path / "run"
    sweep(squares, range(5), store=store, settings={"rules": "msc", "seed": 0})
    (store / "notes.txt").write_text("mine")
    refused(
        sweep,
        squares,
        range(5),
        store=store,
        settings={"rules": "msc", "seed": 1},
        resume=True,
        match=r"other settings \(\{'seed': \(0, 1\)\}",
    )
    sweep(squares, range(2), store=store, settings={"rules": "msc", "seed": 1})
    assert ChunkStore(store, {"rules": "msc", "seed": 1}, resume=True).load() == {
        0: [0, 0],
        1: [1, 1],
    }
    assert (store / "notes.txt").read_text() == "mine"  # only its own files are touched


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"backend": "dask"}, "backend='dask': one of local, ray"),
        ({"workers": 0}, "workers=0 must be an int >= 1"),
        ({"workers": True}, "workers=True must be an int >= 1"),
        ({"address": "auto"}, "address='auto' is a Ray cluster's: it needs backend='ray'"),
        ({"chunk_size": 0}, "chunk_size=0 must be an int >= 1"),
        ({"resume": True}, "resume needs store"),
        ({"store": "x"}, "store needs settings"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    refused(
        sweep, squares, range(3), **kwargs, match=message.replace("(", r"\(").replace(")", r"\)")
    )


def test_resume_without_an_earlier_run_says_so(tmp_path):
    refused(
        sweep,
        squares,
        range(3),
        store=tmp_path / "none",
        settings={},
        resume=True,
        match="holds no earlier run",
    )


def test_evaluate_resumes_from_its_store_with_the_same_report(tmp_path, monkeypatch):
    KEEP = [seed_set("val")[1], seed_set("val")[8]]  # noqa: N806
    whole = evaluate("greedy", "msc", "val[:12]", replays=KEEP)
    assert whole.replays  # replays survive the trip through the store
    play = evaluation._play
    deals = [e.deal for e in whole.episodes]

    def stop_at(agent, env, deal, *args):
        if deal == deals[7]:
            raise KeyboardInterrupt
        return play(agent, env, deal, *args)

    monkeypatch.setattr(evaluation, "_play", stop_at)
    with pytest.raises(KeyboardInterrupt):
        evaluate("greedy", "msc", "val[:12]", chunk_size=3, store=tmp_path, replays=KEEP)
    monkeypatch.setattr(evaluation, "_play", play)
    again = evaluate(
        "greedy", "msc", "val[:12]", chunk_size=5, store=tmp_path, resume=True,
        replays=KEEP,
    )  # fmt: skip
    assert again.episodes == whole.episodes
    assert again.replays == whole.replays
    refused(
        evaluate,
        "greedy",
        "msc",
        "val[:12]",
        seed=1,
        store=tmp_path,
        resume=True,
        replays=KEEP,
        match="other settings.*'seed': \\(0, 1\\)",
    )


def test_killing_the_whole_run_loses_no_finished_chunk(tmp_path):
    """A real kill (SIGKILL) of winnability.py mid-run, then the same command with --resume."""
    out = tmp_path / "w"
    cmd = [sys.executable, "-m", "experiments.winnability", "--rules", "two-pass", "msc", "--deals",
           "20", "--chunk", "2", "--python", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # fmt: skip
    chunks = out / "chunks" / "two-pass"
    deadline = time.time() + 120
    while len(list(chunks.glob("chunk-*.json"))) < 2 and time.time() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = {n for p in chunks.glob("chunk-*.json") for n in json.loads(p.read_text())["deals"]}
    assert 4 <= len(kept) < 20 and not (out / "winnability.csv").exists()
    done = subprocess.run([*cmd, "--resume"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"resuming: {len(kept)} of 20 deals" in done.stderr  # msc, not reached, starts afresh
    rows = (out / "winnability.csv").read_text().splitlines()[1:]
    assert [(r.split(",")[0], int(r.split(",")[1])) for r in rows] == [
        (rules, n) for rules in ("two-pass", "msc") for n in range(20)
    ]
    from pyramid_env.solver import solve

    for row in rows:
        rules, deal, status, *_ = row.split(",")
        assert status == solve(int(deal), rules).status.value
    assert not (out / "chunks").exists()  # removed once the CSV holds every row


# -- Ray ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # started by an earlier test: a fresh one of two CPUs here
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    ray.shutdown()


def test_ray_is_named_when_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    refused(check_backend, "ray", match=r"needs Ray, which is not installed: pip install")


def test_ray_gives_exactly_the_local_rows(ray_instance):
    from experiments import winnability
    from pyramid_env.engine import get_rules
    from pyramid_env.sweep import Backend

    rules = get_rules("msc")
    local, _ = winnability.run(rules, 0, 30, None, chunk=30)
    ray_rows, _ = winnability.run(rules, 0, 30, None, backend=Backend("ray", 2), chunk=4)
    key = [(r.deal, r.status, r.steps, r.nodes) for r in local]
    assert key == [(r.deal, r.status, r.steps, r.nodes) for r in ray_rows]


def test_ray_evaluate_equals_local(ray_instance):
    local = evaluate("greedy", "two-card", "val[:16]")
    remote = evaluate("greedy", "two-card", "val[:16]", backend="ray", workers=2, chunk_size=3)
    assert remote.episodes == local.episodes


def test_a_killed_ray_worker_is_retried(ray_instance, tmp_path):
    marker = tmp_path / "died"
    crash = functools.partial(squares_crashing_once, str(marker), 13)
    assert sweep(crash, range(23), backend="ray", workers=2, chunk_size=4) == EXPECTED
    assert marker.exists()  # the worker that played deal 13 first really died


def test_a_store_refuses_to_resume_with_an_agent_of_other_settings(tmp_path):
    from pyramid_env.agents import PimcAgent

    evaluate(PimcAgent(samples=1, name="p"), "msc", "val[:2]", store=tmp_path)
    again = evaluate(PimcAgent(samples=1, name="p"), "msc", "val[:2]", store=tmp_path, resume=True)
    assert len(again.episodes) == 2
    changed = "other settings.*'agent_config'.*'samples': 1.*'samples': 2"
    refused(
        evaluate,
        PimcAgent(samples=2, name="p"),
        "msc",
        "val[:2]",
        store=tmp_path,
        resume=True,
        match=changed,
    )

from experiments import bench_solver, winnability


def test_wilson_interval():
    lo, hi = winnability.wilson(84, 100)
    assert 0.75 < lo < 0.84 < hi < 0.91
    assert winnability.wilson(0, 10)[0] == 0.0 and winnability.wilson(10, 10)[1] > 0.99


def test_winnability_tiny_run(tmp_path):
    (s,) = winnability.main(["--rules", "relaxed", "--deals", "30", "--out", str(tmp_path)])
    assert s["deals"] == 30 and s["unknown"] == 0 and 0 < s["winnable"] <= 30
    assert (tmp_path / "winnability.csv").read_text().count("\n") == 31
    assert "| `relaxed` | 30 |" in (tmp_path / "winnability.md").read_text()


def test_bench_solver_tiny_run(tmp_path):
    res = bench_solver.main(["--decks", "5", "--out", str(tmp_path)])
    assert res["decks"] == 5 and res["agree"] == 5
    res = bench_solver.main(["--shortest", "--decks", "2", "--out", str(tmp_path)])
    assert res["agree"] == 2


def test_winnability_merge_of_split_runs(tmp_path):
    a, b, m = tmp_path / "a", tmp_path / "b", tmp_path / "m"
    winnability.main(["--rules", "msc", "--deals", "10", "--out", str(a)])
    winnability.main(["--rules", "msc", "--first", "10", "--deals", "10", "--out", str(b)])
    (whole,) = winnability.main(["--rules", "msc", "--deals", "20", "--out", str(tmp_path)])
    (merged,) = winnability.main(
        ["--merge", str(a / "winnability.csv"), str(b / "winnability.csv"), "--out", str(m)]
    )
    assert merged["deals"] == 20 and merged["winnable"] == whole["winnable"]
    assert merged["share"] == whole["share"]


def test_bench_shortest_tiny_run_restores_the_solver():
    from experiments import bench_shortest
    from pyramid_env import solver

    before = solver.DealTables.draws
    (row,) = bench_shortest.main(["--rules", "one-pass", "--deals", "0-2", "--time-limit", "5"])
    assert row["deals"] + row["skipped"] == 3 and row["with_nodes"] > 0
    assert solver.DealTables.draws is before


def test_make_labels_on_two_processes_gives_the_shipped_labels(tmp_path):
    from experiments import make_labels
    from pyramid_env.seeds import labels

    args = ["--rules", "msc", "--sets", "val", "--limit", "8", "--chunks", str(tmp_path / "c")]
    args += ["--chunk", "2"]  # four chunks over two processes
    counts = make_labels.main([*args, "--out", str(tmp_path / "a"), "--workers", "2"])
    assert sum(counts["msc"][v] for v in ("win", "loss", "unknown")) == 8
    rows = (tmp_path / "a" / "msc.csv").read_text().splitlines()[1:]
    shipped = labels("msc")
    for row in rows:
        deal, verdict, _, _ = row.split(",")
        assert (verdict == "win") == shipped[int(deal)].won
    assert not (tmp_path / "c" / "msc").exists()  # the chunks go once the file is written


def test_bench_search_fingerprints_the_games_it_times():
    from experiments import bench_search

    args = ["--rules", "msc", "--seeds", "val[:3]", "--samples", "2"]
    first, again = bench_search.main(args), bench_search.main(args)
    assert [r["games"] for r in first] == [r["games"] for r in again]
    other = bench_search.main(["--rules", "msc", "--seeds", "val[1:4]", "--samples", "2"])
    assert other[0]["games"] != first[0]["games"]


def test_bench_search_profile_times_every_verdict_without_changing_the_games():
    from experiments import bench_search

    args = ["--rules", "msc", "--seeds", "val[:3]", "--samples", "2"]
    (plain,), (profiled,) = bench_search.main(args), bench_search.main([*args, "--profile"])
    assert profiled["games"] == plain["games"]
    assert "solver_calls" not in plain and profiled["solver_calls"] > 3 * 2
    assert 0 < profiled["solver_share"] <= 1
    assert 0 < profiled["top_1pct"] <= profiled["top_5pct"] <= 1
    split = profiled["by_kind"]
    assert sum(g["calls"] for g in split.values()) == profiled["solver_calls"]
    assert abs(sum(g["share"] for g in split.values()) - 1) < 0.01
    assert "sample_win" in split  # val[:3] has winnable deals: some sampled orders win


def test_bench_search_profile_names_each_verdicts_kind_and_outcome():
    from experiments import bench_search
    from pyramid_env.engine.state import State
    from pyramid_env.solver import winning_line

    timed = bench_search._Timed()

    def _winnable_samples(s):  # the search's own name for a sampled order's verdict
        return timed(s, budget=None)

    s = next(s for s in (State(n, "msc") for n in range(50)) if winning_line(s))
    assert _winnable_samples(s) == winning_line(s)
    assert timed(s, budget=1) is None  # a winnable opening needs more than one position
    assert [(kind, outcome) for _, kind, outcome, _ in timed.calls] == [
        ("sample", "win"),
        ("move", "budget"),
    ]
    assert timed.calls[1][3] == 2  # the budget ran out one position past it

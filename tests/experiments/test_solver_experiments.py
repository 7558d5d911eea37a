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

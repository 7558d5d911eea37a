"""pimc_blame: it searches with the settings it is given, and every deal is counted once."""

import pytest

from experiments import pimc_blame


def test_the_search_gets_the_settings_and_each_solver_win_is_counted_once(monkeypatch, capsys):
    calls = []
    real = pimc_blame.search

    def spy(s, known, prefs, samples, budget, rng, **kw):
        calls.append((samples, budget))
        return real(s, known, prefs, samples, budget, rng, **kw)

    monkeypatch.setattr(pimc_blame, "search", spy)
    stats = pimc_blame.main(["two-pass", "val[:6]", "--samples", "3", "--budget", "4000"])
    assert calls and set(calls) == {(3, 4000)}  # the flags, not a hard-coded 32 and 30,000
    lost = sum(v for k, v in stats.items() if k not in ("solver_won", "won"))
    assert stats["solver_won"] == stats["won"] + lost > 0
    assert len(capsys.readouterr().out.splitlines()) == lost + 1  # a line a loss, then counts


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["relaxed", "val[:2]"], "unlimited passes"),
        (["two-pass", "val[:2]", "--samples", "0"], "--samples 0"),
        (["two-pass", "val[:2]", "--budget", "-1"], "--budget -1"),
    ],
)
def test_bad_input_is_refused_by_name(argv, says, capsys):
    with pytest.raises(SystemExit) as e:
        pimc_blame.main(argv)
    assert e.value.code == 2 and says in capsys.readouterr().err


def test_delay_searches_the_draw_before_pyramid_pairs(monkeypatch):
    from pyramid_env.agents.honest import delayed

    orders = []
    real = pimc_blame.search

    def spy(s, known, prefs, samples, budget, rng, **kw):
        orders.append(list(prefs))
        return real(s, known, prefs, samples, budget, rng, **kw)

    monkeypatch.setattr(pimc_blame, "search", spy)
    pimc_blame.main(["two-pass", "val[:3]", "--samples", "2"])
    assert any(delayed(o) != o for o in orders)  # greedy's order puts some pairs first
    orders.clear()
    pimc_blame.main(["two-pass", "val[:3]", "--samples", "2", "--delay"])
    assert orders and all(delayed(o) == o for o in orders)

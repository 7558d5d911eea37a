"""The compiled shortest search (``solver.kernel``) against the pure-Python reference."""

import pytest

from pyramid_env.engine import Deal, Game, Status
from pyramid_env.engine.deal import parse_cards
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.solver import Verdict, solve
from pyramid_env.solver import kernel as _kernel
from tests.solver.test_solver import DECKS, LENGTHS

pytest.importorskip("numba")


def compare_lengths(rules, deals: int) -> None:
    """The compiled and the pure-Python shortest lengths on the first ``deals`` the latter ends."""
    compared = 0
    for n in range(40):
        py = solve(n, rules, shortest=True, budget=30_000, compiled=False)
        if py.status is Verdict.UNKNOWN:
            continue
        jit = solve(n, rules, shortest=True, compiled=True)  # replayed through the engine
        assert jit.status is py.status and jit.steps == py.steps, n
        compared += 1
        if compared == deals:
            break
    assert compared >= 3


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_kernel_lengths_equal_the_python_search_on_full_deals(rules):
    compare_lengths(rules, 4)


# Six deals a variant (the pure-Python A* is the cost: about a minute more in all).
@pytest.mark.slow
@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_kernel_lengths_equal_the_python_search_on_more_deals(rules):
    compare_lengths(rules, 6)


def test_kernel_lines_replay_from_mid_game():
    g = Game(5, "msc")  # won (deal 0 is lost under msc)
    line = solve(g).moves
    for m in line[:20]:
        g.play(m)
    sol = solve(g, shortest=True, compiled=True)
    assert sol.steps == solve(g, shortest=True, compiled=False).steps
    for m in sol.moves:
        g.play(m)
    assert g.status is Status.WON


def test_kernel_msc_oracle_sample():
    # Searches of 30k to 1.4M positions: the kernel's tables grow several times on the way.
    for i in range(0, 1500, 100):
        sol = solve(Deal(parse_cards(DECKS[i])), "msc", shortest=True, compiled=True)
        assert (sol.steps or 0) == LENGTHS[i], i


def test_kernel_budget_and_time_limit_give_unknown():
    deck = Deal(parse_cards(DECKS[3]))  # about 1.2M positions to a shortest line
    sol = solve(deck, "msc", shortest=True, budget=50_000, compiled=True)
    assert sol.status is Verdict.UNKNOWN and 50_000 < sol.nodes <= 70_001
    sol = solve(deck, "msc", shortest=True, time_limit=0.01, compiled=True)
    assert sol.status is Verdict.UNKNOWN and sol.moves is None


def test_compiled_without_numba_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(_kernel, "AVAILABLE", False)
    with pytest.raises(ImportError, match="numba"):
        solve(0, shortest=True, compiled=True)
    assert solve(0, shortest=True).steps == 37  # the default falls back to pure Python


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_compiled_verdicts_equal_the_python_search_on_full_deals(rules):
    compared = 0
    for n in range(30):
        py = solve(n, rules, budget=20_000, compiled=False)
        if py.status is Verdict.UNKNOWN:
            continue
        jit = solve(n, rules, compiled=True)  # a win is replayed through the engine
        assert jit.status is py.status, n
        compared += 1
    assert compared >= 10


def test_compiled_verdict_budget_gives_unknown():
    hard = next(n for n in range(100) if solve(n, "two-pass", compiled=True).nodes > 5_000)
    sol = solve(hard, "two-pass", budget=1_000, compiled=True)
    assert sol.status is Verdict.UNKNOWN and 1_000 < sol.nodes <= 1_001
    assert solve(hard, "two-pass", time_limit=1e-6, compiled=True).status is Verdict.UNKNOWN


def test_the_free_stock_cache_grows_and_a_small_budget_still_ends():
    """Deals found slow at scale: the free-stock cache filled up and the search went exponential
    (one-pass 479027 took 117 s); and with a little budget left a chunk must still have room for
    the free-stock search, or the search never ends (the time limit here only bounds a bug)."""
    import time

    for deal, rules, verdict in [(479027, "one-pass", Verdict.LOSS), (134053, "msc", Verdict.WIN)]:
        start = time.process_time()
        assert solve(deal, rules, time_limit=30, compiled=True).status is verdict
        assert time.process_time() - start < 3
        start = time.process_time()
        for budget in (1, 5, 50):
            sol = solve(deal, rules, budget=budget, time_limit=30, compiled=True)
            assert sol.status is Verdict.UNKNOWN and sol.nodes == budget + 1
        assert time.process_time() - start < 3


def test_the_remembered_start_verdict_spends_the_budget_as_the_search_would():
    """The start position's free-stock verdict is remembered across searches (a determinized
    search solves dozens of deals a decision that share it); a search that finds it there
    must still end, and count its positions, exactly as one that computes it."""
    from pyramid_env.solver import search as _search

    cases = [(n, rules, budget) for n in range(12) for rules in ("msc", "two-pass", "one-pass")
             for budget in (1, 40, 2_000, None)]  # fmt: skip
    fresh = []
    for n, rules, budget in cases:
        _search._START.clear()
        sol = solve(n, rules, budget=budget, compiled=True)
        fresh.append((sol.status, sol.nodes, sol.moves))
    again = [solve(n, rules, budget=budget, compiled=True) for n, rules, budget in cases]
    assert [(s.status, s.nodes, s.moves) for s in again] == fresh
    assert {status for status, _, _ in fresh} == set(Verdict)


def test_winning_line_is_the_solvers_line_as_ids():
    from pyramid_env.engine import State
    from pyramid_env.solver import winning_line

    for n in range(8):
        for rules in ("msc", "two-pass", "relaxed"):
            s = State(n, rules)
            sol = solve(s, budget=5_000)
            line = winning_line(s, budget=5_000)
            if sol.status is Verdict.WIN:
                assert line == [m.id for m in sol.moves]
            else:
                assert line is None

"""The compiled free-stock search of a start position against the Python one it stands in for."""

import pytest

from pyramid_env.engine import state as st
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.solver import kernel
from pyramid_env.solver.free_stock import FreeStock
from pyramid_env.solver.tables import Budget, DealTables, Limit

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba not installed")


def _both(s: st.State, budget: int | None) -> tuple[tuple, tuple]:
    """(verdict or "budget", positions charged) of the Python and the compiled search."""
    info = DealTables(s)
    counts = info.stock_counts(info.reachable(s))
    out = []
    for run in (
        lambda lim: FreeStock(s, info, lim).wins(s.pyr, list(counts)),
        lambda lim: kernel.free_wins(
            info.prank, info.slots_of, info.need, s.knobs, s.pyr, counts, lim
        ),  # fmt: skip
    ):
        lim = Limit(budget, None)
        try:
            out.append((run(lim), lim.nodes))
        except Budget:
            out.append(("budget", lim.nodes))
    return out[0], out[1]


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_compiled_free_stock_verdicts_and_counts_equal_the_python_search(rules):
    # The compiled verdict search prunes its start position with it and charges its positions
    # to the budget: the verdict and the count must be the Python search's, position for position.
    seen = set()
    for deal in range(12):
        py, jit = _both(st.State(deal, rules), None)
        assert jit == py, deal
        seen.add(py[0])
    assert seen == {True, False}


def test_a_budget_ends_the_compiled_free_stock_search_where_the_python_one_ends():
    big = max(range(40), key=lambda d: _both(st.State(d, "two-pass"), None)[0][1])
    py, _ = _both(st.State(big, "two-pass"), None)
    assert py[1] > 60, "a search long enough to be cut"
    for budget in (1, 7, 60):
        py, jit = _both(st.State(big, "two-pass"), budget)
        assert jit == py == ("budget", budget + 1)


class _Slices(Limit):
    """A limit that lets the compiled search run only ``size`` positions between checks."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        super().__init__(None, None)
        self.size = size

    def chunk(self, size: int = 20_000) -> int:
        return self.size


@pytest.mark.parametrize("size", [5, 40])
def test_a_search_cut_into_small_slices_charges_each_position_once(size):
    # A run after a stop expands again the undecided positions on the path where it stopped;
    # they are charged once, as the Python search counts them, and the slices still advance
    # when the path is longer than a slice.
    for deal in (3, 4):
        s = st.State(deal, "two-pass")
        info = DealTables(s)
        counts = info.stock_counts(info.reachable(s))
        py = Limit(None, None)
        verdict = FreeStock(s, info, py).wins(s.pyr, list(counts))
        sliced = _Slices(size)
        got = kernel.free_wins(info.prank, info.slots_of, info.need, s.knobs, s.pyr, counts, sliced)
        assert (got, sliced.nodes) == (verdict, py.nodes), deal
        assert py.nodes > size, "long enough to be cut"

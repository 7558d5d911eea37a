"""The one move generator (engine.primitives) against the shapes table and why_illegal."""

import random

import pytest

from pyramid_env.engine import primitives as P
from pyramid_env.engine import state as st
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.engine.layout import COVER_MASK, SHAPES
from pyramid_env.engine.moves import KING_ID, MOVES, PAIR_ID, RECYCLE


def _shape(pyr: int, covering: int = 1) -> tuple[tuple[int, ...], tuple[int, ...]]:
    exps, cands = [0] * 28, [0] * 56
    sh = P.shape(pyr, COVER_MASK, covering, exps, cands)
    ne, nc = sh & 255, sh >> 8
    return tuple(exps[:ne]), tuple(cands[: 2 * nc])


def test_shape_equals_the_layout_table_on_every_shape():
    # The engine's fast path reads the shape from layout.SHAPES; the compiled code from
    # P.shape. All 1,430 reachable shapes, so the two cannot differ anywhere.
    assert len(SHAPES) == 1430
    for pyr, shape in SHAPES.items():
        flat = tuple(x for pair in shape.covering for x in pair)
        assert _shape(pyr) == (shape.exposed, flat) == (shape.exposed, st.SHAPE_CANDIDATES[pyr])
        assert _shape(pyr, covering=0) == (shape.exposed, ())


def generated(s: st.State) -> set[int]:
    """The legal ids from the primitives alone: their removals, then draw or recycle."""
    k = s.knobs
    exps, cands = _shape(s.pyr, k.covering_pair)
    out = [0] * 64
    n = P.removals(exps, len(exps), cands, len(cands) // 2, s.left, s.ptr, s.drawn, s._prank,
                   s._srank, KING_ID, PAIR_ID, k, out)  # fmt: skip
    ids = set(out[:n])
    assert len(ids) == n, "a removal generated twice"
    turn = P.turn_id(s.left, s.ptr, s.recycles, k)
    if turn >= 0:
        ids.add(turn)
    return ids


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_every_generated_id_is_legal_and_every_other_has_a_reason(rules):
    # why_illegal is the rules written plainly, apart from the generator: over random
    # positions of every rule variant, they must agree on every one of the 327 move ids.
    rng = random.Random(rules.name)
    positions = 0
    for _ in range(5):
        s = st.State(rng.randrange(2**63), rules)
        for _ in range(45):
            legal = st.legal_ids(s)
            allowed = {m.id for m in MOVES if st.why_illegal(s, m) is None}
            if legal:
                assert allowed == generated(s) == set(legal), str(s)
                turn = P.turn_id(s.left, s.ptr, s.recycles, s.knobs)  # draw 0, recycle 1, none -1
                assert {i for i in allowed if i <= RECYCLE.id} == ({turn} - {-1}), str(s)
                positions += 1
            else:  # over: won, or no move left, or a dead deal the rules end
                assert not allowed, str(s)
                break
            st.apply(s, MOVES[rng.choice(legal)])
    assert positions >= 60


def test_free_removals_are_the_pyramids_removals_and_the_stock_partners():
    rng = random.Random(3)
    for _ in range(40):
        s = st.State(rng.randrange(2**63), "relaxed")
        for _ in range(30):
            exps, cands = _shape(s.pyr)
            counts = [rng.randrange(3) for _ in range(14)]
            out, pyramid = [0] * 64, [0] * 64
            n = P.free_removals(exps, len(exps), cands, len(cands) // 2, counts, s._prank, KING_ID,
                                PAIR_ID, 1, out)  # fmt: skip
            m = P.pyramid_removals(exps, len(exps), cands, len(cands) // 2, s._prank, KING_ID,
                                   PAIR_ID, 1, pyramid)  # fmt: skip
            assert out[:m] == pyramid[:m]
            partners = [PAIR_ID[i * 30 + 28] for i in exps
                        if s._prank[i] != 13 and counts[13 - s._prank[i]]]  # fmt: skip
            assert out[m:n] == partners
            legal = st.legal_ids(s)
            if not legal:
                break
            st.apply(s, MOVES[rng.choice(legal)])

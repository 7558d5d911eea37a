"""The vector env's compiled kernel against the engine: deals, codes, move generator, moves."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from pyramid_env.engine import deal
from pyramid_env.engine import primitives as P
from pyramid_env.engine import state as st
from pyramid_env.engine.deal import encode_code, shuffled_deck
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.engine.moves import MOVES
from pyramid_env.env import kernel as K
from pyramid_env.env.settings import REWARDS, step_reward

NUMBERS = [0, 1, 2, 7, 12345, 2**32 - 1, 2**32, 2**63 - 1, 2**63 + 5, 2**64 - 2, 2**64 - 1]


def test_shuffle_is_the_engines_deal():
    rng = np.random.default_rng(0)
    numbers = NUMBERS + [int(x) for x in rng.integers(0, 2**63, 300, dtype=np.int64)]
    out = np.zeros(52, np.int64)
    for n in numbers:
        K.shuffle(np.uint64(n), out)
        assert tuple(out.tolist()) == shuffled_deck(n), n


def test_code_chars_are_the_deal_code():
    rng = np.random.default_rng(1)
    numbers = NUMBERS + [int(x) for x in rng.integers(0, 2**63, 300, dtype=np.int64)]
    out = np.zeros(K.CODE_LEN, np.uint8)
    for n in numbers:
        d = deal(n)
        K.code_chars(np.array(d.cards, np.int64), out)
        assert out.tobytes().decode() == d.code, n


def test_code_chars_of_any_order_of_the_cards():
    # Beyond the dealt decks: the two extreme orders (Lehmer numbers 0 and 52! - 1, the
    # largest value code_chars' limbs must hold) and random orders given by their cards.
    rng = np.random.default_rng(3)
    orders = [list(range(52)), list(range(51, -1, -1))]
    orders += [rng.permutation(52).tolist() for _ in range(500)]
    out = np.zeros(K.CODE_LEN, np.uint8)
    for cards in orders:
        K.code_chars(np.array(cards, np.int64), out)
        assert out.tobytes().decode() == encode_code(cards), cards


def test_the_kernels_reward_is_step_reward_of_each_kind():
    # the kernel takes the kind as its index (a str would compile numba's string code)
    cases = [(28, 26, False, 0.0, 10.0), (3, 0, True, 7.5, 120.25), (5, 5, False, 2.0, 2.0)]
    for kind, name in enumerate(REWARDS):
        for case in cases:
            got, want = K._reward(kind, *case), step_reward(name, *case)
            assert got == want and type(got) is type(want), (name, case)


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_move_generator_and_play_equal_the_engine(rules):
    # The primitives the kernel compiles (shape, removals, play), run here as plain Python on
    # the kernel's tables: the same legal removals as the engine's fast path (which reads the
    # shape from layout.SHAPES and remembers the pyramid's removals), the same moves.
    k = rules.knobs
    king = K.KING_ID.tolist()
    pair = K.PAIR_ID.tolist()
    cover = K.COVER.tolist()
    rng = np.random.default_rng(2)
    out = [0] * 64
    exps = [0] * 28
    cands = [0] * 56
    checked = 0
    for number in rng.integers(1 << 40, size=12):
        s = st.State(int(number), rules)
        for _ in range(120):
            if st.is_won(s):
                break
            sh = P.shape(s.pyr, cover, k.covering_pair, exps, cands)
            ne, nc = sh & 255, sh >> 8
            n = P.removals(exps, ne, cands, nc, s.left, s.ptr, s.drawn, s._prank, s._srank, king,
                           pair, k, out)  # fmt: skip
            engine = sorted(i for i in st._removals(s) if i > 1)
            assert sorted(out[:n]) == engine, str(s)
            ids = st.legal_ids(s)
            if not ids:
                break
            move = MOVES[ids[int(rng.integers(len(ids)))]]
            after = P.play(*s.fields(), move.id, move.a, move.b, k)
            st.apply(s, move)
            assert tuple(int(x) for x in after) == tuple(int(x) for x in s.fields())
            checked += 1
    assert checked > 80


@pytest.mark.slow
def test_without_numba_the_same_code_runs_as_python():
    # numba blocked: the kernel's functions run uncompiled, and the vector env still equals
    # the single env (slowly).
    code = textwrap.dedent(
        """
        import sys
        sys.modules["numba"] = None
        import numpy as np
        from pyramid_env.env import PyramidEnv, PyramidVectorEnv, kernel
        from pyramid_env import jit
        assert not jit.AVAILABLE
        vec = PyramidVectorEnv(3, rules="msc", obs_mode="counts")
        singles = [PyramidEnv("msc", obs_mode="counts") for _ in range(3)]
        vobs, _ = vec.reset(seed=4)
        obs = [e.reset(seed=4 + i)[0] for i, e in enumerate(singles)]
        assert all(np.array_equal(vobs[i], obs[i]) for i in range(3))
        rng = np.random.default_rng(0)
        for _ in range(60):
            acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in vec.action_masks()])
            vobs, vr, vt, vtr, _ = vec.step(acts)
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr
